# An unsymbolized report keeps its sites apart, and symbolized offline names
# them as a run would: samples/driver_context_leak leaks from three lines of
# one function, one site each; unsymbolized, a frame without a name carries
# its module offset. Through the runtime (samples/loop_leak), unsymbolized
# the group can name only the driver's entry point; symbolized, the
# runtime's function the program called.
# RUN(exit=23): %run --error-exitcode 23 --symbolize false -o %t/runs/false.json -- %build/samples/sample_driver_context_leak_shared
# RUN(exit=23): %run --error-exitcode 23 --symbolize true -o %t/runs/true.json -- %build/samples/sample_driver_context_leak_shared
# RUN: %expr %t/runs 'files == ["false.json", "true.json"]' \
# RUN:   'len(reports[0]["leaks"]) == len(reports[1]["leaks"])' \
# RUN:   'len(set(g["site"] for g in reports[0]["leaks"])) == len(reports[0]["leaks"])' \
# RUN:   'any("driver_context_leak_shared+0x" in g["site"] for g in reports[0]["leaks"])'
# CHECK-COUNT(4): holds:
# RUN: mkdir %t/after && %cudaleak symbolize %t/runs/false.json -o %t/after/after.json && cp %t/runs/true.json %t/after/true.json
# RUN: %expr %t/after 'files == ["after.json", "true.json"]' \
# RUN:   'set(g["site"] for g in reports[0]["leaks"]) == set(g["site"] for g in reports[1]["leaks"])' \
# RUN:   'sorted(g["api"] for g in reports[0]["leaks"]) == sorted(g["api"] for g in reports[1]["leaks"])'
# CHECK-COUNT(3): holds:
# RUN: %cudaleak diff %t/runs/true.json %t/after/after.json
# CHECK-RE: \A0 leak sites new or grown, 6 compared\n\Z
# RUN: %run --symbolize false -o %t/loop.json -- %build/samples/sample_loop_leak_shared && %cudaleak symbolize %t/loop.json -o %t/loop.named.json
# RUN: %expr %t/loop.json 'len(r["leaks"]) == 1 and r["leaks"][0]["api"] != "cudaMalloc"'
# CHECK: holds:
# RUN: %expr %t/loop.named.json 'len(r["leaks"]) == 1 and r["leaks"][0]["api"] == "cudaMalloc"'
# CHECK: holds:
