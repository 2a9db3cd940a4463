# A process that never uses CUDA gets no report and no output: its own
# output and status only.
# RUN(exit=7): %run -o %t/r.%p.json -- /bin/sh -c "echo hello; exit 7"
# CHECK-RE: \Ahello\n\Z
# RUN: ls %t
# CHECK-RE: \Alog.txt\n\Z
