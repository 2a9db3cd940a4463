# REQUIRES: simulated
# Simulated only: fork_child uses CUDA in a forked child, which only the simulated driver allows.
# fork: each process reports only what it created, under its own pid: the
# parent its 1 MiB of device memory, the child its 3 MiB of pinned memory.
# RUN: %run -o %t/r.%p.%n.json -- %build/tests/e2e/fork_child
# CHECK-RE: \Achild exited 0\n
# RUN: %expr %t \
# RUN:   'len(reports) == 2' \
# RUN:   'len([p for p in reports for c in reports if c["process"]["ppid"] == p["process"]["pid"]]) == 1' \
# RUN:   'all([g["kind"] for g in p["leaks"]] == ["device"] and [(g["kind"], g["bytes"]) for g in c["leaks"]] == [("pinned", 3 << 20)] for p in reports for c in reports if c["process"]["ppid"] == p["process"]["pid"])'
# CHECK-COUNT(3): holds:
