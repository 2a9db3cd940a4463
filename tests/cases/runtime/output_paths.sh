# Where a report may be written: a character device is written into, never
# replaced; a link to a regular file is refused (the file and the link
# untouched; the gate says it cannot see: 125); a FIFO with no reader is
# refused at once, never blocking the program; a name close to the length
# limit works (the temporary name is short); ':' in a name survives the trip
# to the library; no temporary is left.
# REQUIRES: simulated
# RUN: %run -o /dev/null -- %build/samples/sample_pinned_leak_shared && test -c /dev/null && echo still a device
# CHECK: still a device
# RUN: echo precious > %t/victim && ln -s %t/victim %t/link.json
# RUN(exit=125): %run --error-exitcode 23 -o %t/link.json -- %build/samples/sample_pinned_leak_shared
# CHECK: is a symbolic link
# RUN: test -L %t/link.json && cat %t/victim
# CHECK-RE: \Aprecious\n\Z
# RUN: mkfifo %t/fifo && %run -o %t/fifo -- %build/samples/sample_clean_shared
# CHECK: cannot write the report to %t/fifo
# RUN: %run -o %t/$(printf 'r%%.0s' $(seq 250)).json -- %build/samples/sample_pinned_leak_shared
# RUN: %run -o %t/a:b.json -- %build/samples/sample_pinned_leak_shared
# RUN: ls -A %t
# CHECK-COUNT(1): a:b.json
# CHECK-RE: (^|\n)r{250}\.json\n
# CHECK-NONE: .cudaleak-
