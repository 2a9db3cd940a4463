# 200 forks while 4 threads allocate never hang a child: the parent's one
# leak, and every child clean (the 10 that leave by exit() and the 190 by
# _exit()), each with its report.
# REQUIRES: simulated
# RUN: %run -o %t/reports/r.%p.%n.json -- %build/tests/e2e/fork_storm 200
# CHECK-RE: \Aforks 200 hung 0 failed 0\n
# RUN: %expr %t/reports \
# RUN:   'len([x for x in reports if x["summary"]["leaked_count"]]) == 1' \
# RUN:   'len([x for x in reports if not x["summary"]["leaked_count"]]) == 200'
# CHECK-COUNT(2): holds:
