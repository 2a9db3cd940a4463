# Tensors kept alive by stored exceptions on a real GPU
# (tests/gpu/python/scenario_exceptions.py): at exit, with default options,
# the 10 tensors are named by the function that raised, at its line, in
# segments reserved there; no line left unnamed.
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_exceptions.py
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_exceptions.py 2>&1
# CHECK-RE: \d+\.\d+ MiB in 10 tensors in segments reserved by work \(scenario_exceptions\.py:%line:scratch\)
# CHECK-NONE: lines PyTorch did not record
