# CuPy (tests/e2e/programs/fake_cupy under the simulated GPU): one array kept
# to the end, one freed into the pool's cache.
import cupy

kept = cupy.empty(1 << 20)
scratch = cupy.empty(2 << 20)
del scratch
print("arrays made")
