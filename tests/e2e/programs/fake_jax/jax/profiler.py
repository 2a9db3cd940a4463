import gzip
import os


def device_memory_profile(backend=None):
    from . import _pprof, live_arrays
    how = os.environ.get("FAKE_JAX_PROFILE", "gzip")
    if how == "broken":
        raise RuntimeError("heap profiles are not supported by this backend")
    b = _pprof.Builder()
    for a in live_arrays():
        (device,) = a.devices()
        b.sample(a.traceback, 1, a.nbytes, "buffer", device.debug_string(), packed=len(b.samples) % 2 == 0)
    b.sample([("/usr/lib/python3/dist-packages/jax/_src/pjit.py", "_cpp_pjit", 10)], 1, 4096, "executable")
    blob = b.encode()
    return blob if how == "raw" else gzip.compress(blob)
