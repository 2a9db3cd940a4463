# jax.numpy's array creation, as far as the tests use it.
_ITEMSIZE = {"float32": 4, "bfloat16": 2, "float16": 2, "int32": 4, "float64": 8, "int8": 1}


def zeros(shape, dtype="float32", device=None):
    from . import Array, local_devices
    if isinstance(shape, int):
        shape = (shape,)
    return Array(shape, dtype, _ITEMSIZE[dtype], device or local_devices()[0])


ones = zeros
empty = zeros
