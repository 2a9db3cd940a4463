# A stand-in for JAX with just what cudaleak_jax uses, over the simulated GPU:
# devices with memory_stats(), arrays placed by XLA's allocator in miniature
# (_xla.py), each with the Python traceback it was made at, jax.live_arrays(),
# jax.profiler.device_memory_profile() (a real pprof protobuf, gzipped, from
# _pprof.py), jax.jit (whose compiled buffers may not fit: FAKE_JAX_JIT_TEMP
# bytes of temporaries) and XLA's out-of-memory error.
#   FAKE_JAX_DEVICES      devices (the simulated GPU's CUDALEAK_SIM_DEVICES)
#   FAKE_JAX_PROFILE      "gzip" (default, as jax), "raw" (not compressed),
#                         "broken" (device_memory_profile raises)
#   FAKE_JAX_ASYNC        "1": as JAX's asynchronous dispatch, an array whose
#                         allocation fails is made all the same, holding no
#                         memory and the error, raised only when it is read
#                         (block_until_ready); the profile counts it in full
import os
import sys

from . import _xla, errors, numpy, profiler  # noqa: F401

__version__ = "0.0.fake"
_arrays = {}   # id -> Array: the live ones
_devices = None


class Device:
    platform = "gpu"
    device_kind = "Simulated GPU"

    def __init__(self, ordinal):
        self.id = ordinal
        self.local_hardware_id = ordinal
        self.pool = _xla.Pool(ordinal)

    def memory_stats(self):
        return self.pool.stats()

    def debug_string(self):
        return "cuda:%d" % self.id

    def __repr__(self):
        return "CudaDevice(id=%d)" % self.id


def local_devices():
    global _devices
    if _devices is None:
        _devices = [Device(i) for i in range(int(os.environ.get("FAKE_JAX_DEVICES", "1")))]
    return list(_devices)


devices = local_devices


def _traceback(skip):
    """JAX's traceback of an array: the creating call inside jax first (a
    frame of jax's own, installed), then the program's frames, leaf first."""
    frames = [(_xla.JAX_FILE, "_make", 100)]
    f = sys._getframe(skip)
    while f is not None and len(frames) < 32:
        frames.append((f.f_code.co_filename, f.f_code.co_name, f.f_lineno))
        f = f.f_back
    return frames


class Array:
    def __init__(self, shape, dtype, itemsize, device, skip=3):
        self._handle = None
        self.shape = tuple(shape)
        self.dtype = dtype
        n = 1
        for x in self.shape:
            n *= x
        self.nbytes = n * itemsize
        self._device = device
        self._error = None
        try:
            self._handle = device.pool.allocate(self.nbytes)
        except errors.JaxRuntimeError as e:
            if os.environ.get("FAKE_JAX_ASYNC") != "1":
                raise
            self._error = e  # poisoned: raised when read
        self.traceback = _traceback(skip)
        _arrays[id(self)] = self

    def devices(self):
        return {self._device}

    def delete(self):
        if self._handle is not None:
            self._device.pool.release(self._handle)
            self._handle = None
        _arrays.pop(id(self), None)

    def __del__(self):
        self.delete()

    def block_until_ready(self):
        if self._error is not None:
            raise errors.JaxRuntimeError(str(self._error))
        return self


def live_arrays():
    return list(_arrays.values())


def jit(fn, **options):
    """fn compiled: its temporaries (FAKE_JAX_JIT_TEMP bytes) are allocated at
    each call, and where they fit nowhere XLA raises with its buffer
    assignment in the message, which jax raises again as a new error of the
    same text."""
    def call(*args):
        temp = int(os.environ.get("FAKE_JAX_JIT_TEMP", "0"))
        if temp:
            device = local_devices()[0]
            try:
                handle = device.pool.allocate(temp, _buffer_assignment(temp, args, fn.__code__))
            except errors.JaxRuntimeError as e:
                raise errors.JaxRuntimeError(str(e)) from None  # jax's own error, of XLA's text
            device.pool.release(handle)
        return fn(*args)
    return call


def _buffer_assignment(temp, args, code):
    params = sum(getattr(a, "nbytes", 0) for a in args)
    return ("\nBufferAssignment OOM Debugging.\nBufferAssignment stats:\n"
            "             parameter allocation:   %s\n"
            "              constant allocation:         0B\n"
            "        maybe_live_out allocation:   %s\n"
            "     preallocated temp allocation:   %s\n"
            "                 total allocation:   %s\n"
            "Peak buffers:\n\tBuffer 1:\n\t\tSize: %s\n"
            "\t\tOperator: op_name=\"jit(%s)/jit(main)/dot_general[dimension_numbers=(((1,), (0,)), ((), ()))]\" "
            "source_file=\"%s\" source_line=%d\n\t\tXLA Label: custom-call\n\t\tShape: f32[4096,65536]\n"
            "\t\t==========================\n" %
            (_xla.human(params), _xla.human(params), _xla.human(temp), _xla.human(2 * params + temp), _xla.human(temp), code.co_name,
             code.co_filename, code.co_firstlineno + 1))
