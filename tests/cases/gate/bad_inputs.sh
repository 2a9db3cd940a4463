# Bad suppression or baseline files: the launcher refuses them at start (as
# LeakSanitizer and Valgrind: one line naming file and line, the program
# never starts; status 2); under plain preload the program runs and is
# tracked, and a gate says at the end that it cannot see (125, or
# gate_error_exitcode). The launcher creates a missing report directory; one
# it cannot create stops the run at once. A report the process cannot write
# at exit (its directory went away while the program ran) fails the gate.
# RUN: printf 'leak:fine\n\nleak:process_batch kind:devise\n' > %t/bad.supp; echo '{"format": "cudaleak-baseline", "format_version": 1, "sites": [{"site": "x"}]}' > %t/bad.baseline
# RUN(exit=2): %run --suppressions %t/bad.supp -o %t/r.json -- %build/samples/sample_exception_leak_shared
# CHECK-RE: \Acudaleak: %t/bad\.supp:3: unknown kind 'devise' in 'leak:process_batch kind:devise'\n\Z
# RUN(exit=2): %run --suppressions %t/missing.supp -o %t/r.json -- %build/samples/sample_clean_shared
# CHECK: %t/missing.supp
# RUN(exit=2): %run --error-exitcode 23 --baseline %t/bad.baseline -o %t/r.json -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*%t/bad\.baseline: malformed baseline
# RUN(exit=3): CUDALEAK_OPTIONS=output=%t/u.json:suppressions=%t/bad.supp %preload %build/samples/sample_exception_leak_shared
# CHECK-RE: \Aerror: batch 2: corrupt input\n
# CHECK: %t/bad.supp:3: unknown kind 'devise' in 'leak:process_batch kind:devise'
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/c.json:suppressions=%t/bad.supp %preload %build/samples/sample_clean_shared
# CHECK: the leak gate cannot be evaluated
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/b.json:baseline=%t/bad.baseline %preload %build/samples/sample_clean_shared
# CHECK: the leak gate cannot be evaluated
# RUN(exit=99): CUDALEAK_OPTIONS=error_exitcode=23:gate_error_exitcode=99:output=%t/g.json:suppressions=%t/bad.supp %preload %build/samples/sample_clean_shared
# CHECK: the leak gate cannot be evaluated
# RUN(exit=2): %run -o %t/bad.baseline/r.json -- %build/samples/sample_clean_shared
# CHECK: cannot create the report directory
# CHECK: bad.baseline: not a directory
# RUN(exit=125): mkdir %t/gone && %run --error-exitcode 23 -o %t/gone/r.json -- /bin/sh -c "rmdir %t/gone && exec %build/samples/sample_clean_shared"
# CHECK: cannot write the report to %t/gone/r.json: cannot create a file in its directory (No such file or directory)
