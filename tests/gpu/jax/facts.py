# What this machine's JAX is, for whoever works on cudaleak_jax next: the
# versions, the exception type of XLA's out-of-memory, the device memory
# profile's format (gzip or not), its sample types and labels, a device's
# memory_stats keys. Run under `cudaleak run` (cudaleak_jax's facts) or
# plainly.
import gzip
import sys

import jax
import jax.numpy as jnp

sys.path[:0] = [p for p in sys.argv[1:2]]  # lib/cudaleak/python, for the decoder
import cudaleak_pprof  # noqa: E402

print("FACT versions: jax %s jaxlib %s python %s" % (jax.__version__, getattr(sys.modules.get("jaxlib"), "__version__", "?"),
                                                     sys.version.split()[0]))
d = jax.local_devices()[0]
print("FACT device: %r platform %s kind %s local_hardware_id %s" % (d, d.platform, d.device_kind,
                                                                      getattr(d, "local_hardware_id", None)))
print("FACT memory_stats keys: %s" % sorted((d.memory_stats() or {}).keys()))
a = jnp.ones((1024, 1024))  # LINE:probe
blob = jax.profiler.device_memory_profile()
print("FACT profile: %d bytes, gzip %s" % (len(blob), blob[:2] == b"\x1f\x8b"))
p = cudaleak_pprof.decode(blob)
print("FACT profile sample types: %s" % p["sample_types"])
labels = sorted({(k, type(v).__name__) for s in p["samples"] for k, v in s["labels"].items()})
print("FACT profile labels: %s" % labels)
for s in p["samples"]:
    if s["labels"].get("kind") == "buffer" and s["values"][1] == a.nbytes:
        print("FACT a buffer's sample: values %s labels %s frames %s" % (s["values"], s["labels"], s["frames"][:6]))
        break
try:
    big = jnp.ones((1 << 40,), jnp.int8)
    big.block_until_ready()  # dispatch is asynchronous: the failure is raised where the array is read
except Exception as e:
    t = type(e)
    print("FACT out-of-memory exception: %s.%s (mro %s)" % (t.__module__, t.__qualname__,
                                                            [c.__name__ for c in t.__mro__]))
    print("FACT out-of-memory message: %r" % str(e)[:300])
try:
    import cudaleak_jax
    print("FACT cudaleak_jax: %s" % cudaleak_jax.facts())
except ImportError:
    print("FACT cudaleak_jax: not on the path (run under cudaleak run)")
