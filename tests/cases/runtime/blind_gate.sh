# Unreadable or malformed gate inputs (a baseline of another format, a
# suppressions file that is a device, a directory or a FIFO) stop the
# launcher (2, the program never started) and give 125 under plain preload,
# the program having run. A gate option without a value still asks for the
# gate, which cannot pass: never fails open. A status that wraps is refused.
# A suppressions file whose name holds a comma is one file.
# RUN: echo '{"format":1}' > %t/bad-format.baseline && mkfifo %t/supp.fifo && mkdir %t/dir
# RUN(exit=2): %run --baseline %t/bad-format.baseline -o %t/r.%p.json -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*%t/bad-format\.baseline: not a cudaleak baseline
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/p.%p.json:baseline=%t/bad-format.baseline %preload %build/samples/sample_clean_shared
# CHECK-RE: \Aclean run finished\n
# CHECK: %t/bad-format.baseline: not a cudaleak baseline
# RUN(exit=2): %run --suppressions /dev/zero -o %t/r.%p.json -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*/dev/zero: the suppressions file is not a regular file
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/p.%p.json:suppressions=/dev/zero %preload %build/samples/sample_clean_shared
# CHECK-RE: \Aclean run finished\n
# CHECK: /dev/zero: the suppressions file is not a regular file
# RUN(exit=2): %run --suppressions %t/dir -o %t/r.%p.json -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*%t/dir: the suppressions file is a directory
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/p.%p.json:suppressions=%t/dir %preload %build/samples/sample_clean_shared
# CHECK-RE: \Aclean run finished\n
# CHECK: %t/dir: the suppressions file is a directory
# RUN(exit=2): %run --suppressions %t/supp.fifo -o %t/r.%p.json -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*%t/supp\.fifo: the suppressions file is not a regular file
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode=23:output=%t/p.%p.json:suppressions=%t/supp.fifo %preload %build/samples/sample_clean_shared
# CHECK-RE: \Aclean run finished\n
# CHECK: %t/supp.fifo: the suppressions file is not a regular file
# RUN(exit=125): CUDALEAK_OPTIONS=error_exitcode:output=%t/bare.%p.json %preload %build/samples/sample_loop_leak_shared
# CHECK: 'error_exitcode' is not key=value
# RUN(exit=2): %run --error-exitcode 4294967296 -- %build/samples/sample_clean_shared
# CHECK: '4294967296' is out of range
# RUN: echo leak:main > %t/a,b.supp
# RUN: %run --error-exitcode 23 --suppressions %t/a,b.supp -o %t/comma.json -- %build/samples/sample_pinned_leak_shared
# CHECK: SUMMARY: cudaleak:
