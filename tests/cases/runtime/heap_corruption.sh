# Heap corruption under load (a double free glibc turns into abort() with
# the arena lock held, while other threads allocate) gives a crash report and
# death by SIGABRT, as without cudaleak, never a hang: 10 runs, each with its
# symbolized report and the summary the launcher prints.
# RUN: for i in 0 1 2 3 4 5 6 7 8 9; do %run -o %t/reports/r.$i.%p.json -- %build/tests/e2e/heap_corruption; echo status=$?; done
# CHECK-COUNT(10): status=134
# CHECK-COUNT(10): SUMMARY: cudaleak:
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 10 and all(x["reason"] == "crash" and x["symbolized"] for x in reports)' \
# RUN:   'all(group("device", function="main", report=x)["bytes"] == 1 << 20 for x in reports)'
# CHECK-COUNT(2): holds:
