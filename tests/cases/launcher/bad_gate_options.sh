# A bad gate option (error_exitcode out of range or not a number) in
# CUDALEAK_OPTIONS stops the launcher (status 2, the program never started,
# one line naming it), and under plain preload fails the gate: status 125,
# the program having run. Any refused gate option, with error_exitcode set,
# leaves no verdict to trust; without error_exitcode no gate was asked for
# and the program's status stays.
# RUN(exit=2): CUDALEAK_OPTIONS=error_exitcode=256 %run -o %t/r.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: CUDALEAK_OPTIONS: error_exitcode: '256' is not between 0 and 255\n\Z
# RUN(exit=125): CUDALEAK_OPTIONS=output=%t/p.json:error_exitcode=256 %preload %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Astaging buffers ready\n
# CHECK: the leak gate cannot be evaluated: CUDALEAK_OPTIONS: error_exitcode: '256' is not between 0 and 255; exiting with status 125
# RUN(exit=2): CUDALEAK_OPTIONS=error_exitcode=-1 %run -o %t/r.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: CUDALEAK_OPTIONS: error_exitcode: '-1' is not between 0 and 255\n\Z
# RUN(exit=125): CUDALEAK_OPTIONS=output=%t/p.json:error_exitcode=-1 %preload %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Astaging buffers ready\n
# CHECK: the leak gate cannot be evaluated: CUDALEAK_OPTIONS: error_exitcode: '-1' is not between 0 and 255; exiting with status 125
# RUN(exit=2): CUDALEAK_OPTIONS=error_exitcode=abc %run -o %t/r.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: CUDALEAK_OPTIONS: error_exitcode: expected an integer, got 'abc'\n\Z
# RUN(exit=125): CUDALEAK_OPTIONS=output=%t/p.json:error_exitcode=abc %preload %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Astaging buffers ready\n
# CHECK: the leak gate cannot be evaluated: CUDALEAK_OPTIONS: error_exitcode: expected an integer, got 'abc'; exiting with status 125
# RUN(exit=2): CUDALEAK_OPTIONS=error_exitcode=1e999 %run -o %t/r.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: CUDALEAK_OPTIONS: error_exitcode: expected an integer, got '1e999'\n\Z
# RUN(exit=125): CUDALEAK_OPTIONS=output=%t/p.json:error_exitcode=1e999 %preload %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Astaging buffers ready\n
# CHECK: the leak gate cannot be evaluated: CUDALEAK_OPTIONS: error_exitcode: expected an integer, got '1e999'; exiting with status 125
# RUN(exit=125): CUDALEAK_OPTIONS=output=%t/k.json:error_exitcode=23:fail_on=devic %preload %build/samples/sample_clean_shared
# CHECK: fail_on: 'devic' holds 'devic', which is not a kind
# RUN(exit=125): CUDALEAK_OPTIONS=output=%t/s.json:error_exitcode=23:gate_error_exitcode=300 %preload %build/samples/sample_clean_shared
# CHECK: gate_error_exitcode
# RUN: CUDALEAK_OPTIONS=output=%t/u.json:min_bytes=-1 %preload %build/samples/sample_pinned_leak_shared
# CHECK: CUDALEAK_OPTIONS: min_bytes: '-1' is below 0
