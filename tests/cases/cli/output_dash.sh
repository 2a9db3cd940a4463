# -o - is refused: a report is a file and standard output is the program's.
# RUN(exit=2): %run -o - -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*cannot write the report to -: reports are files
