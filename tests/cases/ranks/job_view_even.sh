# A job with no odd rank (every rank ran out of memory) says none, and a
# story of every rank names no exception; it stays under 40 lines.
# RUN: %python %root/scripts/make-job.py %t/job --ranks 64 --hosts 8 --failing-ranks all > /dev/null && %report %t/job > %t/job.txt; wc -l < %t/job.txt | awk '{ print ($1 < 40 ? "short" : "long: " $1) }'; cat %t/job.txt
# CHECK-RE: \Ashort\n
# CHECK-NONE: unlike the others
# CHECK: 64 ranks ran out of memory in <module> (scenario_fraction.py:7): ranks 0-63; rank
# CHECK:   The other 63 ranks at that moment, each on its own device: 63 held 64.0 MiB and ran out of memory themselves (ranks
