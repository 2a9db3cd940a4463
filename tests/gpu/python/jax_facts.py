# Prints the facts cudaleak's JAX view relies on, on this machine's jax:
# versions, the out-of-memory error's type and message, the device memory
# profile's encoding and labels, memory_stats keys. Diagnostic only.
import gzip
import sys
import time

import jax
import jax.numpy as jnp
import jaxlib

print("python", sys.version.split()[0], "jax", jax.__version__, "jaxlib", jaxlib.__version__)
dev = jax.devices()[0]
print("device", dev, getattr(dev, "device_kind", "?"))
kept = []


def keep_arrays():
    kept.append(jnp.ones((256 << 20,), dtype=jnp.uint8).block_until_ready())  # LINE:keep


for _ in range(4):
    keep_arrays()
print("memory_stats", dev.memory_stats())
t = time.time()
prof = jax.profiler.device_memory_profile()
print("profile bytes", len(prof), "gzip", prof[:2] == b"\x1f\x8b", "took %.3f s" % (time.time() - t))
raw = gzip.decompress(prof) if prof[:2] == b"\x1f\x8b" else prof
strings = []
i = 0


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


while i < len(raw):
    key, i = varint(raw, i)
    field, wt = key >> 3, key & 7
    if wt == 0:
        _, i = varint(raw, i)
    elif wt == 2:
        n, i = varint(raw, i)
        if field == 6:
            strings.append(raw[i:i + n].decode(errors="replace"))
        i += n
    elif wt == 1:
        i += 8
    elif wt == 5:
        i += 4
print("profile strings (first 80):", strings[:80])
print("live_arrays", [(a.shape, str(a.dtype), a.nbytes) for a in jax.live_arrays()][:8])
try:
    while True:
        keep_arrays()
except Exception as e:
    print("OOM type", type(e).__module__, type(e).__qualname__, "mro", [c.__name__ for c in type(e).__mro__])
    print("OOM message:", str(e)[:1500])
    print("kept", len(kept))
    print("memory_stats at OOM", dev.memory_stats())
    t = time.time()
    prof = jax.profiler.device_memory_profile()
    print("profile at OOM bytes", len(prof), "took %.3f s" % (time.time() - t))


@jax.jit
def too_big(x):
    y = jnp.outer(x, x)
    return (y * 2).sum()


kept.clear()
try:
    too_big(jnp.ones((400000,), dtype=jnp.float32)).block_until_ready()
except Exception as e:
    print("JIT OOM type", type(e).__qualname__)
    print("JIT OOM message:", str(e)[:2500])
