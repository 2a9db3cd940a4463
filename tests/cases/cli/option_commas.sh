# Options in CUDALEAK_OPTIONS separated by ',' as the sanitizers' are: both
# honoured (the report where output says, the gate's status).
# RUN(exit=7): CUDALEAK_OPTIONS=output=%t/a.json,error_exitcode=7 %run -- %build/samples/sample_loop_leak_shared > /dev/null 2> %t/err.txt; st=$?; ls %t; exit $st
# CHECK-RE: (?m)^a\.json$
