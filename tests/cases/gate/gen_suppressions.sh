# --gen-suppressions prints rules that work, given in several files: half
# the rules in one file, half in another, together they hide everything.
# RUN(exit=23): %run --error-exitcode 23 --gen-suppressions true -o %t/r.json -- %build/samples/sample_driver_context_leak_shared 2> %t/err.txt
# RUN: sed -n '/Suppression rules for the leaks above/,/^$/p' %t/err.txt | sed '1d;/^$/d' > %t/rules; sed -n '1~2p' %t/rules > %t/a.supp; sed -n '2~2p' %t/rules > %t/b.supp; cat %t/rules; wc -l < %t/b.supp
# CHECK: leak:vmm_buffer kind:vmm
# CHECK-RE: \n[1-9][0-9]*\n\Z
# RUN: %run --error-exitcode 23 --suppressions %t/a.supp --suppressions %t/b.supp -o %t/s.json -- %build/samples/sample_driver_context_leak_shared
# CHECK-NONE: leak gate failed
