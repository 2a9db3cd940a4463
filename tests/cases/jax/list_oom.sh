# One 1 GiB array kept per step until XLA's pool is full
# (tests/gpu/jax/list_oom.py), four ways: preallocated (the default),
# allocating on demand, XLA's platform allocator, and the failure left
# uncaught (Python's own status 1 and traceback). Each tells XLA's
# out-of-memory exactly once, with the size XLA's message gives, naming the
# kept line, and never XLA's failed calls as events of their own; caught,
# the program goes on and JAX's view at exit is printed. The default's
# causes are numbered and say that arrays from one line accumulate. XLA
# waits about 10 s for frees before it raises: about 20 s a run, 80 s in all.
# REQUIRES: gpu, jax
# LINES-OF: %root/tests/gpu/jax/list_oom.py
# RUN: %run -o %t/default/r.%%p.%%n.json -- %python %root/tests/gpu/jax/list_oom.py > %t/default.txt 2>&1; cat %t/default.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: from step (list_oom.py:%line:keep)
# CHECK-DAG-RE: kept \d
# CHECK-DAG: JAX at exit on device 0
# CHECK-DAG-RE: 1\.[ ]
# CHECK-DAG: arrays from one line that stay alive accumulate
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: XLA_PYTHON_CLIENT_PREALLOCATE=false %run -o %t/prealloc_false/r.%%p.%%n.json -- %python %root/tests/gpu/jax/list_oom.py > %t/prealloc_false.txt 2>&1; cat %t/prealloc_false.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: from step (list_oom.py:%line:keep)
# CHECK-DAG-RE: kept \d
# CHECK-DAG: JAX at exit on device 0
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: XLA_PYTHON_CLIENT_ALLOCATOR=platform %run -o %t/platform/r.%%p.%%n.json -- %python %root/tests/gpu/jax/list_oom.py > %t/platform.txt 2>&1; cat %t/platform.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: from step (list_oom.py:%line:keep)
# CHECK-DAG-RE: kept \d
# CHECK-DAG: JAX at exit on device 0
# CHECK-NONE: more out-of-memory events of a call already told
# RUN(exit=1): %run -o %t/uncaught/r.%%p.%%n.json -- %python %root/tests/gpu/jax/list_oom.py uncaught > %t/uncaught.txt 2>&1; s=$?; cat %t/uncaught.txt; exit $s
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: from step (list_oom.py:%line:keep)
# CHECK-DAG: Traceback (most recent call last)
# CHECK-NONE: more out-of-memory events of a call already told
# Each told once.
# RUN: for v in default prealloc_false platform uncaught; do echo "$v: $(grep -cE 'out of memory( on rank [0-9]+)?: ' %t/$v.txt)"; done
# CHECK-RE: \Adefault: 1\nprealloc_false: 1\nplatform: 1\nuncaught: 1\n
