# cudaleak changes neither the output nor the exit status of any sample:
# each run plain on the simulated GPU and under cudaleak, stdout and status
# compared.
# REQUIRES: simulated
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_exception_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/exception_leak.json -- %build/samples/sample_exception_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "exception_leak: same ($p)" || echo "exception_leak: differs ($p, $t)"
# CHECK: exception_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_library_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/library_leak.json -- %build/samples/sample_library_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "library_leak: same ($p)" || echo "library_leak: differs ($p, $t)"
# CHECK: library_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_pinned_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/pinned_leak.json -- %build/samples/sample_pinned_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "pinned_leak: same ($p)" || echo "pinned_leak: differs ($p, $t)"
# CHECK: pinned_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_stream_event_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/stream_event_leak.json -- %build/samples/sample_stream_event_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "stream_event_leak: same ($p)" || echo "stream_event_leak: differs ($p, $t)"
# CHECK: stream_event_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_driver_context_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/driver_context_leak.json -- %build/samples/sample_driver_context_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "driver_context_leak: same ($p)" || echo "driver_context_leak: differs ($p, $t)"
# CHECK: driver_context_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_async_pool_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/async_pool_leak.json -- %build/samples/sample_async_pool_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "async_pool_leak: same ($p)" || echo "async_pool_leak: differs ($p, $t)"
# CHECK: async_pool_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_loop_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/loop_leak.json -- %build/samples/sample_loop_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "loop_leak: same ($p)" || echo "loop_leak: differs ($p, $t)"
# CHECK: loop_leak: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_clean_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/clean.json -- %build/samples/sample_clean_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "clean: same ($p)" || echo "clean: differs ($p, $t)"
# CHECK: clean: same
# RUN: LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/samples/sample_oom_leak_shared > %t/plain.txt 2> /dev/null; p=$?; %run -o %t/oom_leak.json -- %build/samples/sample_oom_leak_shared > %t/traced.txt 2> /dev/null; t=$?; cmp -s %t/plain.txt %t/traced.txt && [ $p = $t ] && echo "oom_leak: same ($p)" || echo "oom_leak: differs ($p, $t)"
# CHECK: oom_leak: same
