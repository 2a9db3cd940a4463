# -o of report, merge, baseline and symbolize, and run's --junit and --sarif
# take regular files only, never a link (to a file that would be
# overwritten), a FIFO (with no reader an open for writing would wait
# forever) or a directory: status 2 and one line naming the path (symbolize
# may also name the vDSO it found no file for); run refuses before the
# program starts. A regular file is replaced whole.
# RUN: %run -o %t/r.json -- %build/samples/sample_pinned_leak_shared
# RUN: echo precious > %t/victim && ln -s %t/victim %t/link && mkfifo %t/fifo && mkdir %t/sub
# RUN(exit=2): %cudaleak report %t/r.json -o %t/link 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/link: [^\n]*\n\Z
# RUN(exit=2): %cudaleak merge %t/r.json -o %t/link 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/link: [^\n]*\n\Z
# RUN(exit=2): %cudaleak baseline %t/r.json -o %t/link 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/link: [^\n]*\n\Z
# RUN(exit=2): %cudaleak symbolize %t/r.json -o %t/link 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/link: [^\n]*\n\Z
# RUN(exit=2): %run --junit %t/link -o %t/r2.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: %t/link: 
# RUN(exit=2): %run --sarif %t/link -o %t/r2.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: %t/link: 
# RUN(exit=2): %cudaleak report %t/r.json -o %t/fifo 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/fifo: [^\n]*\n\Z
# RUN(exit=2): %cudaleak merge %t/r.json -o %t/fifo 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/fifo: [^\n]*\n\Z
# RUN(exit=2): %cudaleak baseline %t/r.json -o %t/fifo 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/fifo: [^\n]*\n\Z
# RUN(exit=2): %cudaleak symbolize %t/r.json -o %t/fifo 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/fifo: [^\n]*\n\Z
# RUN(exit=2): %run --junit %t/fifo -o %t/r2.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: %t/fifo: 
# RUN(exit=2): %run --sarif %t/fifo -o %t/r2.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: %t/fifo: 
# RUN(exit=2): %cudaleak report %t/r.json -o %t/sub 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/sub: [^\n]*\n\Z
# RUN(exit=2): %cudaleak merge %t/r.json -o %t/sub 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/sub: [^\n]*\n\Z
# RUN(exit=2): %cudaleak baseline %t/r.json -o %t/sub 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/sub: [^\n]*\n\Z
# RUN(exit=2): %cudaleak symbolize %t/r.json -o %t/sub 2>&1 >/dev/null
# CHECK-RE: cudaleak: cannot write %t/sub: [^\n]*\n\Z
# RUN(exit=2): %run --junit %t/sub -o %t/r2.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: %t/sub: 
# RUN(exit=2): %run --sarif %t/sub -o %t/r2.json -- %build/samples/sample_pinned_leak_shared
# CHECK-RE: \Acudaleak: %t/sub: 
# RUN: cat %t/victim && test -L %t/link && echo still a link
# CHECK-RE: \Aprecious\nstill a link\n\Z
# RUN: %report %t/r.json -o %t/victim && cat %t/victim
# CHECK: SUMMARY: cudaleak:
# CHECK-NONE: precious
