# PyTorch's caching allocator in miniature: segments from cudaMalloc (through
# ctypes, so cudaleak records each with the Python line that asked), tensors
# as blocks inside them, freed blocks cached. On out-of-memory it frees its
# unused segments and retries once; if that fails too it calls the
# out-of-memory observers and raises torch.OutOfMemoryError, as PyTorch does.
import ctypes
import os
import sys

SEGMENT = 20 << 20   # the segment size for requests up to it, as PyTorch's large pool
recording = False    # _record_memory_history(enabled="state"): blocks keep their Python stack
segments = []        # {"address", "size", "blocks": [{"size", "state", "frames"}]}


class OutOfMemoryError(RuntimeError):
    pass


def _cudart():
    lib = ctypes.CDLL("libcudart.so.13")
    lib.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
    lib.cudaFree.argtypes = [ctypes.c_void_p]
    return lib


def _c10():
    # FAKE_C10: the library whose c10 frames reserve segments, as libc10_cuda.so's do.
    path = os.environ.get("FAKE_C10")
    if not path:
        return None
    lib = ctypes.CDLL(path)
    lib.fake_c10_reserve_segment.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
    return lib


def _cuda_malloc(size):
    ptr = ctypes.c_void_p()
    c10 = _c10()
    r = c10.fake_c10_reserve_segment(ctypes.byref(ptr), size) if c10 else _cudart().cudaMalloc(ctypes.byref(ptr), size)
    return ptr.value if r == 0 else None


def _frames():
    out, f = [], sys._getframe(3)  # the caller of torch.empty
    while f is not None and len(out) < 16:
        out.append({"filename": f.f_code.co_filename, "name": f.f_code.co_name, "line": f.f_lineno})
        f = f.f_back
    return out


def _free_cached():
    for seg in [s for s in segments if all(b["state"] == "inactive" for b in s["blocks"])]:
        _cudart().cudaFree(seg["address"])
        segments.remove(seg)


def _reserve(size):
    ptr = _cuda_malloc(size)
    if ptr is None:
        _free_cached()
        ptr = _cuda_malloc(size)
    if ptr is None:
        from .. import _C
        allocated = sum(b["size"] for s in segments for b in s["blocks"] if b["state"] != "inactive")
        for observer in _C.observers:
            observer(0, size, allocated, 0)
        raise OutOfMemoryError("CUDA out of memory. Tried to allocate %d bytes" % size)
    seg = {"address": ptr, "size": size, "blocks": [{"size": size, "state": "inactive"}]}
    segments.append(seg)
    return seg


class Tensor:
    def __init__(self, seg, block):
        self._seg, self._block = seg, block

    def __del__(self):
        self._block["state"] = "inactive"
        self._block.pop("frames", None)


def empty(nbytes):
    size = max(nbytes, 512)
    for seg in segments:
        for i, b in enumerate(seg["blocks"]):
            if b["state"] == "inactive" and b["size"] >= size:
                return Tensor(seg, _split(seg, i, size))
    seg = _reserve(size if size > SEGMENT else SEGMENT)
    return Tensor(seg, _split(seg, 0, size))


def _split(seg, i, size):
    b = seg["blocks"][i]
    if b["size"] > size:
        seg["blocks"].insert(i + 1, {"size": b["size"] - size, "state": "inactive"})
        b["size"] = size
    b["state"] = "active_allocated"
    if recording:
        b["frames"] = _frames()
    return b


def snapshot_segments():
    return [{"device": 0, "address": s["address"], "total_size": s["size"],
             "allocated_size": sum(b["size"] for b in s["blocks"] if b["state"] != "inactive"),
             "active_size": sum(b["size"] for b in s["blocks"] if b["state"] != "inactive"),
             "is_expandable": False, "blocks": [dict(b) for b in s["blocks"]]} for s in segments]
