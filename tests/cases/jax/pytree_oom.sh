# A training loop that keeps every step's parameters, a pytree of a small
# MLP (tests/gpu/jax/pytree_oom.py), until XLA's pool is full. Reading its
# loss each step, the step that fails raises: one story at the update's
# line. Never synchronized ("nosync"), the failed steps raise nothing and
# leave arrays that hold no memory: the exit view counts them apart, never
# as held (no TiB beyond the pool). (About 40 s.)
# REQUIRES: gpu, jax
# LINES-OF: %root/tests/gpu/jax/pytree_oom.py
# RUN: %run -o %t/sync/r.%%p.%%n.json -- %python %root/tests/gpu/jax/pytree_oom.py > %t/sync.txt 2>&1; cat %t/sync.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: pytree_oom.py:%line:update
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: grep -cE 'out of memory( on rank [0-9]+)?: ' %t/sync.txt
# CHECK-RE: \A1\n
# RUN: %run -o %t/nosync/r.%%p.%%n.json -- %python %root/tests/gpu/jax/pytree_oom.py nosync > %t/nosync.txt 2>&1; cat %t/nosync.txt
# CHECK-DAG: that hold no memory)
# CHECK-DAG: from <module> (pytree_oom.py:%line:update) hold no memory
# CHECK-DAG: their computation failed (XLA ran out of memory) and nothing read them
# CHECK-NONE: TiB in
