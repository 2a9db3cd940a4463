# REQUIRES: simulated
# Simulated only: fork_child uses CUDA in a forked child, which only the simulated driver allows.
# A process a rank forked is not the rank (it inherits RANK, but its parent,
# the rank, has the driver loaded), and a shell between launcher and rank
# changes nothing: the shell has no driver, so the program is still the rank.
# RUN: RANK=2 LOCAL_RANK=2 WORLD_SIZE=4 %run -o %t/r.%%p.json -- /bin/sh -c '%build/tests/e2e/fork_child; true'
# RUN: %expr %t \
# RUN:   'len(reports) == 2' \
# RUN:   'all((p["process"]["rank"], p["process"]["world_size"]) == (2, 4) and c["process"].get("rank", -1) == -1 and not c["process"].get("launcher") for p in reports for c in reports if c["process"]["ppid"] == p["process"]["pid"])' \
# RUN:   'len([1 for p in reports for c in reports if c["process"]["ppid"] == p["process"]["pid"]]) == 1'
# CHECK-COUNT(3): holds:
