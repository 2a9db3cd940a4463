# JAX beside PyTorch and CuPy in one process (tests/gpu/jax/
# beside_torch_cupy.py): PyTorch keeps a seventh of the device, CuPy a
# fourteenth, and JAX, allocating on demand, fills the rest with 1 GiB
# arrays: XLA's failure told once at the kept line, and the story says
# what PyTorch's caching allocator holds. (About 25 s.)
# REQUIRES: gpu, jax, torch, cupy
# LINES-OF: %root/tests/gpu/jax/beside_torch_cupy.py
# RUN: XLA_PYTHON_CLIENT_PREALLOCATE=false XLA_PYTHON_CLIENT_MEM_FRACTION=0.95 %run -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/jax/beside_torch_cupy.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: beside_torch_cupy.py:%line:keep
# CHECK-DAG: PyTorch caching allocator holds
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: grep -cE 'out of memory( on rank [0-9]+)?: ' %t/out.txt
# CHECK-RE: \A1\n
