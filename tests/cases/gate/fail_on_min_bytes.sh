# fail_on and min_bytes choose what counts: streams and events fail the
# default gate, not one on device and pinned memory; 800 KiB is under 1 MB.
# RUN(exit=23): %run --error-exitcode 23 -o %t/1.json -- %build/samples/sample_stream_event_leak_shared
# RUN: %run --error-exitcode 23 --fail-on device,pinned -o %t/2.json -- %build/samples/sample_stream_event_leak_shared
# RUN(exit=23): %run --error-exitcode 23 --fail-on device,pinned -o %t/3.json -- %build/samples/sample_pinned_leak_shared
# RUN: %run --error-exitcode 23 --min-bytes 1000000 -o %t/4.json -- %build/samples/sample_loop_leak_shared
# CHECK-NONE: leak gate failed
# RUN(exit=23): %run --error-exitcode 23 --min-bytes 819200 -o %t/5.json -- %build/samples/sample_loop_leak_shared
# CHECK: leak gate failed
