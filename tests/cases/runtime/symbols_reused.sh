# A later report of the same process looks up nothing it already resolved:
# the checkpoint report, then the exit report, whose frames were all known
# (--verbose prints the symbolizer's counts per report: looked up,
# remembered, restarts).
# RUN: %run --verbose true -o %t/r.%n.json -- %build/tests/e2e/checkpoints 2> %t/err.txt
# RUN: %expr %t/r.0.json \
# RUN:   'len(text("%t/err.txt").split("symbols of this process so far: ")) == 3' \
# RUN:   'all(a[0] > 0 and b[0] == a[0] and b[1] > a[1] and b[2] == 0 for a, b in [[[int(x.split(",")[i].split()[0]) for i in range(3)] for x in text("%t/err.txt").split("symbols of this process so far: ")[1:]]])'
# CHECK-COUNT(2): holds:
