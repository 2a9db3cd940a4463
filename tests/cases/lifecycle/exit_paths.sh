# _exit and _Exit: the exit report and the gate as at exit (main's frame
# still holds the pointer when it leaves: leak_kinds=all counts what is still
# reachable); nothing from a vfork child, whose parent frees and exits 0.
# RUN(exit=23): %run --error-exitcode 23 --leak-kinds all -o %t/exit/r.%p.%n.json -- %build/tests/e2e/exit_paths _exit
# CHECK-RE: \Aleaving by _exit\n
# RUN: %expr %t/exit 'len(reports) == 1 and r["reason"] == "exit" and len(r["leaks"]) == 1 and r["leaks"][0]["bytes"] == 1 << 20'
# CHECK: holds:
# RUN(exit=23): %run --error-exitcode 23 --leak-kinds all -o %t/Exit/r.%p.%n.json -- %build/tests/e2e/exit_paths _Exit
# CHECK-RE: \Aleaving by _Exit\n
# RUN: %expr %t/Exit 'len(reports) == 1 and r["reason"] == "exit" and len(r["leaks"]) == 1 and r["leaks"][0]["bytes"] == 1 << 20'
# CHECK: holds:
# RUN: %run --error-exitcode 23 -o %t/vfork/r.%p.%n.json -- %build/tests/e2e/exit_paths vfork
# CHECK-RE: \Avfork child exited 7\n
# RUN: %expr %t/vfork 'len(reports) == 1 and r["leaks"] == []'
# CHECK: holds:
