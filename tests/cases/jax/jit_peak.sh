# A jitted step whose own temporaries do not fit (tests/gpu/jax/jit_peak.py:
# x @ x.T, its product 1.2 times XLA's whole pool): one story, and either
# the jitted function's buffers at the product's line (where XLA lists the
# executable's buffers) or, as jaxlib 0.11 fails it while autotuning the
# dot, the request larger than the whole pool at the call. (About 20 s.)
# REQUIRES: gpu, jax
# LINES-OF: %root/tests/gpu/jax/jit_peak.py
# RUN: %run -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/jax/jit_peak.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG-RE: the jitted function's own buffers need|is larger than XLA's whole pool
# CHECK-DAG-RE: jit_peak\.py:(%line:gram|%line:call)
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: grep -cE 'out of memory( on rank [0-9]+)?: ' %t/out.txt
# CHECK-RE: \A1\n
