# Two processes' JAX devices merged, each named by its process
# (tests/e2e/programs/jax_list_oom.py twice; fake_jax stands in for JAX);
# the job's folder, read as one, shows the same devices, each by its
# process. Only the exit reports are merged (a caught failure adds one of
# its own under 3.12+).
# Simulated only: fake_jax's pool on a device of a set size.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# RUN: %run --simulated-gpu-memory 256MiB -o %t/job/report.%p.%n.json -- /bin/sh -c '%python %root/tests/e2e/programs/jax_list_oom.py & %python %root/tests/e2e/programs/jax_list_oom.py; wait'
# RUN: %expr %t/job 'len([x for x in reports if x["reason"] == "exit"]) == 2'
# CHECK: holds:
# RUN: %cudaleak merge $(grep -l '"reason": *"exit"' %t/job/*.json) -o %t/merged.json
# RUN: %report %t/merged.json > %t/merged.txt; cat %t/merged.txt; %expr %t/merged.json \
# RUN:   'len(r["jax"]["devices"]) == 2 and r["jax"]["devices"][0]["pid"] != r["jax"]["devices"][1]["pid"]' \
# RUN:   'all(("(pid %%d): XLA\x27s pool" %% d["pid"]) in text("%t/merged.txt") for d in r["jax"]["devices"])'
# CHECK: JAX at exit on device 0 in python
# CHECK-COUNT(2): holds:
# RUN: %report %t/job/ > %t/job.txt; cat %t/job.txt; %expr %t/merged.json \
# RUN:   'all((" (pid %%d): XLA\x27s pool" %% d["pid"]) in text("%t/job.txt") for d in r["jax"]["devices"])'
# CHECK: JAX at exit on device 0 in python
# CHECK: holds:
