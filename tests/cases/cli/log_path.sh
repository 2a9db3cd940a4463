# REQUIRES: simulated
# Simulated only: fork_child uses CUDA in a forked child, which only the simulated driver allows.
# log_path sends cudaleak's text to PATH.PID of each process (relative, as
# typed: the launcher's directory, as for -o) and leaves stderr to the
# program: the parent and its forked child one file each, each with its
# summary, no colour in a file.
# RUN: mkdir logs && %run --log-path logs/cudaleak.log -o r.%p.json -- /bin/sh -c 'cd / && exec %build/tests/e2e/fork_child'
# CHECK: child exited 0
# CHECK-NONE: cudaleak
# RUN: ls logs | wc -l; grep -l 'SUMMARY: cudaleak:' logs/* | wc -l; grep -l "$(printf '\033')\[" logs/* | wc -l
# CHECK-RE: \A2\n2\n0\n\Z
