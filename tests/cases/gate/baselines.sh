# Baselines: known sites pass (at or below the baseline's count), grown and
# new sites fail, each said; a baseline is made from reports only.
# RUN: %run -o %t/loop.json -- %build/samples/sample_loop_leak_shared
# RUN: %cudaleak baseline %t/loop.json -o %t/loop.baseline
# CHECK: baseline of 1 leak sites
# RUN: %run --error-exitcode 23 --baseline %t/loop.baseline -o %t/runs/a.json -- %build/samples/sample_loop_leak_shared
# CHECK-NONE: leak gate failed
# RUN: %run --error-exitcode 23 --baseline %t/loop.baseline -o %t/runs/b.json -- %build/samples/sample_loop_leak_shared 40
# CHECK-NONE: leak gate failed
# RUN(exit=23): %run --error-exitcode 23 --baseline %t/loop.baseline -o %t/runs/c.json -- %build/samples/sample_loop_leak_shared 60
# CHECK: [grown beyond the baseline]
# CHECK: not suppressed and new or grown beyond the baseline; exiting with status 23
# RUN(exit=23): %run --error-exitcode 23 --baseline %t/loop.baseline -o %t/runs/d.json -- %build/samples/sample_exception_leak_shared
# CHECK: [new: not in the baseline]
# RUN(exit=2): %cudaleak baseline %t/loop.baseline -o %t/x.baseline
# CHECK: not a cudaleak report
