# A JAX job of 8 processes over two GPUs (tests/gpu/jax/many_processes.py
# 8 2: more processes than GPUs, each with CUDA_VISIBLE_DEVICES of its own
# and a share of the device; ranks 1, 3 and 5 fill their share until XLA
# fails, rank 6 keeps arrays from a line no other rank has): one story for
# the three failures with their rank list at the line where XLA raises,
# the ranks counted on 2 devices, the ranks that had ended said so, the
# pool's room from the device's free memory (no advice of a larger
# fraction while the other ranks hold the rest), rank 6's line on it
# alone. (About 60 s.)
# REQUIRES: gpus>=2, jax
# LINES-OF: %root/tests/gpu/jax/many_processes.py
# RUN: %run -o %t/many/%%h.%%p.%%n.json -- %python %root/tests/gpu/jax/many_processes.py 8 2 > %t/many.txt 2>&1; cat %t/many.txt
# CHECK: rank 1 kept
# RUN: %report %t/many
# CHECK-DAG: 3 ranks ran out of memory in worker (many_processes.py:%line:raise): ranks 1,3,5
# CHECK-DAG: JAX at exit on 8 ranks (0-7), on 2 devices:
# CHECK-DAG: had ended at
# CHECK-DAG: free beyond it
# CHECK-DAG: from worker (many_processes.py:%line:odd), the largest float32[16384,16384] (1.0 GiB), on rank 6 only
# CHECK-NONE: MEM_FRACTION=0.9 gives
# CHECK-NONE: each on its own device
