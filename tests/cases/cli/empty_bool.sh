# A boolean flag given an empty value is refused as --option key= is: status
# 2, one line, the program never ran. Alone it is true; an empty argument
# after the program's `--` is the program's.
# RUN(exit=2): %run --crash-report '' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*expected true/false \(or 1/0\), got ''[^\n]*\n\Z
# RUN(exit=2): %run --crash-report= -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*expected true/false \(or 1/0\), got ''[^\n]*\n\Z
# RUN(exit=2): %run --verbose '' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*expected true/false \(or 1/0\), got ''[^\n]*\n\Z
# RUN(exit=2): %run --option crash_report= -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*expected true/false \(or 1/0\), got ''[^\n]*\n\Z
# RUN: %run --verbose -o %t/r.json -- %build/samples/sample_clean_shared
# CHECK: verbose=true
# RUN: %run -o %t/r2.json -- /bin/sh -c 'exit 0' --crash-report ''
# CHECK-NONE: expected true/false
