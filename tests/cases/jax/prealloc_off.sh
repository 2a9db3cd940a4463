# Preallocation turned off by the program itself before it imports jax
# (tests/gpu/jax/prealloc_off.py): XLA's allocator grows its pool by
# cuMemAlloc as 512 MiB arrays kept in a dict need it, so CUDA calls fail
# before XLA raises; still one story, at the kept line. (About 20 s.)
# REQUIRES: gpu, jax
# LINES-OF: %root/tests/gpu/jax/prealloc_off.py
# RUN: %run -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/jax/prealloc_off.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: prealloc_off.py:%line:keep
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: grep -cE 'out of memory( on rank [0-9]+)?: ' %t/out.txt
# CHECK-RE: \A1\n
