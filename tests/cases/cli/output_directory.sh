# A report path naming a directory (an existing one, one ending in '/', a
# '%p' in a directory's name) is refused before the program runs, and no
# directory is made.
# RUN: mkdir %t/existing
# RUN(exit=2): %run -o %t/existing -- /bin/echo ran
# CHECK-RE: \A[^\n]*cannot write the report to
# RUN(exit=2): %run -o %t/fresh/ -- /bin/echo ran
# CHECK-RE: \A[^\n]*cannot write the report to
# RUN(exit=2): %run -o %t/pid/%p/r.json -- /bin/echo ran
# CHECK-RE: \A[^\n]*cannot write the report to
# RUN: ls %t
# CHECK-NONE: fresh
# CHECK-NONE: pid
