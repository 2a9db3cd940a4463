# JAX on the GPU (device memory through XLA's allocator).
import jax
import jax.numpy as jnp

x = jnp.arange(1 << 20, dtype=jnp.float32)
y = jnp.dot(x[:1024].reshape(32, 32), x[:1024].reshape(32, 32))
print(f"{jax.devices()[0].platform} {float(y.sum()):.1f} {float(jnp.sin(x).sum()):.3f}")
