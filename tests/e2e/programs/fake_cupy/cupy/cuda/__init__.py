from . import memory, runtime  # noqa: F401
