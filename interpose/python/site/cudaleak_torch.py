"""PyTorch's own view of its caching allocator, for cudaleak reports.

Never imports torch: cudaleak_watch waits for the program to import it. Once the program initialises CUDA through torch, an out-of-memory observer
is attached and PyTorch records the Python stack of every live block
(_record_memory_history, "state" mode): from the start with
CUDALEAK_PYTORCH_STACKS=1, else once its reserved memory first reaches
CUDALEAK_PYTORCH_STACKS_AT percent of the device. At each
out-of-memory and at exit, a summary of torch.cuda.memory's snapshot goes to
the preload library (cudaleak_impl_python_view), which puts it in the report
and uses it to explain the out-of-memory. The library also gets a function to
call for a fresh summary (cudaleak_impl_python_view_source): it calls it from
a thread of its own at each snapshot signal and each report the program asks
for, so that those reports show the tensors alive then, and growth across
them can be seen.
"""
import ctypes
import json
import os
import sys
import sysconfig
import threading
import time

import cudaleak_watch

MAX_FRAMES = 16        # Python frames kept per live-tensor stack, or up to the program's own frame
MAX_SEARCH = 128       # frames searched for the program's own below a library's (transformers' are deep)
MAX_SEGMENTS = 4096    # segments listed with their blocks (all are counted)
MAX_BLOCKS = 65536     # blocks listed over all segments: an expandable segment alone can hold thousands
MAX_GROUPS = 64        # live-tensor groups listed per device

_unsupported_backend = None  # an allocator backend whose state PyTorch cannot show


def _native_entry():
    return cudaleak_watch.view_entry("cudaleak_impl_python_view")


_STDLIB = sysconfig.get_paths().get("stdlib", "\0")


def _is_library(filename):
    """Installed packages, the standard library, frozen modules: never the program's own line."""
    return ("/site-packages/" in filename or "/dist-packages/" in filename or filename.startswith("<")
            or filename.startswith(_STDLIB))


def _kept_frames(frames):
    """The innermost MAX_FRAMES frames, or, where the program's own frame lies
    deeper (a model's cache update inside transformers), every frame down to
    it and three of its callers: the line a reader needs is the program's."""
    for i, f in enumerate(frames[:MAX_SEARCH]):
        if not _is_library(f.get("filename", "")):
            return frames[:MAX_FRAMES] if i < MAX_FRAMES else frames[:i + 4]
    return frames[:MAX_FRAMES]


def _state_code(state):
    if state == "inactive":
        return 0  # free
    if state == "active_allocated":
        return 1
    return 2      # active_pending_free and others: still in use


def _block_code(block):
    """A segment-list block's state, with 4 added when PyTorch recorded its
    stack: cudaleak names the others by the allocation that reserved them."""
    code = _state_code(block.get("state"))
    return code | 4 if code and block.get("frames") else code


def summarize(snapshot):
    """The report's "pytorch" section from torch.cuda.memory._snapshot()."""
    devices = {}
    for seg in snapshot.get("segments", []):
        d = devices.setdefault(seg["device"], {
            "device": seg["device"], "reserved": 0, "allocated": 0, "active": 0, "segments": 0,
            "free": 0, "largest_free_block": 0, "free_in_pinned_segments": 0, "pinned_segments": 0,
            "expandable": False, "groups": {}, "segment_list": [], "listed_blocks": 0})
        d["reserved"] += seg.get("total_size", 0)
        d["allocated"] += seg.get("allocated_size", 0)
        d["active"] += seg.get("active_size", 0)
        d["segments"] += 1
        d["expandable"] = d["expandable"] or bool(seg.get("is_expandable", False))
        blocks = seg.get("blocks", [])
        live = any(_state_code(b.get("state")) for b in blocks)
        free_here = sum(b.get("size", 0) for b in blocks if not _state_code(b.get("state")))
        d["free"] += free_here
        if live and free_here:
            d["free_in_pinned_segments"] += free_here
            d["pinned_segments"] += 1
        for b in blocks:
            size = b.get("size", 0)
            if not _state_code(b.get("state")):
                d["largest_free_block"] = max(d["largest_free_block"], size)
                continue
            frames = tuple((f.get("filename", "?"), f.get("name", "?"), f.get("line", 0))
                           for f in _kept_frames(b.get("frames") or []))
            g = d["groups"].setdefault(frames, [0, 0, 0])
            g[0] += size
            g[1] += 1
            if live and free_here:
                g[2] += 1  # blocks that keep a segment with free space from being released
        if len(d["segment_list"]) < MAX_SEGMENTS and d["listed_blocks"] < MAX_BLOCKS:
            listed = blocks[:MAX_BLOCKS - d["listed_blocks"]]
            d["listed_blocks"] += len(listed)
            d["segment_list"].append([seg.get("address", 0), seg.get("total_size", 0),
                                      [[b.get("size", 0), _block_code(b)] for b in listed]])
    out = []
    for d in devices.values():
        groups = sorted(d.pop("groups").items(), key=lambda kv: -kv[1][0])
        d["live_tensors"] = [{"bytes": g[0], "count": g[1], "pinning_segments": g[2],
                              "stack": [{"file": f, "function": n, "line": l} for f, n, l in frames]}
                             for frames, g in groups[:MAX_GROUPS]]
        d["segment_list"] = d.pop("segment_list")
        del d["listed_blocks"]
        out.append(d)
    return out


def send(when, extra=None):
    native = _native_entry()
    if not native or "torch" not in sys.modules or _unsupported_backend:
        return
    torch = sys.modules["torch"]
    try:
        if not torch.cuda.is_initialized():
            return
        view = {"devices": summarize(torch.cuda.memory._snapshot()),
                "settings": os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "")}
        if extra:
            view.update(extra)
        native(json.dumps(view).encode(), when.encode())
    except Exception as e:  # a view is never worth a crash
        sys.stderr.write("cudaleak: PyTorch view failed: %s\n" % e)


def _on_oom(device, alloc, device_allocated, device_free):
    observed = time.monotonic_ns()  # CLOCK_MONOTONIC, as the library's: the snapshot below can take seconds
    send("oom", {"oom": {"device": device, "request": alloc, "device_allocated": device_allocated,
                         "device_free": device_free, "monotonic_ns": observed}})


def _at_exit():
    send("exit")


def _start_recording():
    try:
        _arm_recording()
    except Exception as e:  # a view is never worth changing what the program sees
        sys.stderr.write("cudaleak: PyTorch view not armed: %s\n" % e)


def _arm_recording():
    global _unsupported_backend
    torch = sys.modules["torch"]
    backend = getattr(torch.cuda, "get_allocator_backend", lambda: "native")()
    if backend != "native":
        # backend:cudaMallocAsync keeps no segments of its own and refuses
        # history recording and snapshots: cudaleak sees its stream-ordered
        # allocations natively instead (docs/python.md).
        _unsupported_backend = backend
        return
    # The Python stack of every live block costs up to 14% of a training step
    # (docs/performance.md): from the start only when asked for
    # (--pytorch-stacks); otherwise once the device is nearly full.
    torch._C._cuda_attach_out_of_memory_observer(_on_oom)
    native = _native_entry()
    if native:
        native(b"{}", b"armed")
        cudaleak_watch.offer_source(lambda: send("snapshot"))
    if os.environ.get("CUDALEAK_PYTORCH_STACKS", "0") == "1":
        _record_stacks()
    else:
        _record_stacks_near_full(_percent_from_env())


def _history_enabled(torch):
    """Whether the program itself records PyTorch's allocation history (memory_viz,
    its own snapshots): then it is left as the program set it."""
    check = getattr(torch._C, "_cuda_isHistoryEnabled", None)
    try:
        return bool(check()) if check else False
    except Exception:
        return False


def _record_stacks():
    torch = sys.modules["torch"]
    if _history_enabled(torch):
        return
    try:
        torch.cuda.memory._record_memory_history(enabled="state", context="alloc", stacks="python")
    except TypeError:  # older signatures
        torch.cuda.memory._record_memory_history(True)
    _warm_snapshot(torch)


def _warm_snapshot(torch):
    """PyTorch's first snapshot with recorded stacks imports torch._dynamo,
    FSDP and sympy (4.9-6.3 s on an H200, docs/performance.md): taken once
    here, on a thread of cudaleak's own, right after recording starts, so that
    the snapshot at an out-of-memory, when a user waits, takes milliseconds."""
    def warm():
        try:
            torch.cuda.memory._snapshot()
        except Exception:
            pass  # the snapshot at the failure reports its own errors

    threading.Thread(target=warm, name="cudaleak-pytorch-warm", daemon=True).start()


def _percent_from_env():
    try:
        return int(os.environ.get("CUDALEAK_PYTORCH_STACKS_AT", "0"))
    except ValueError:
        return 0


POLL_SECONDS = 0.5


def _record_stacks_near_full(percent):
    """Starts recording once PyTorch's reserved memory on the current device
    first reaches `percent` of the device: the tensors that fill the device
    then carry their own lines, and a program that stays below pays nothing
    but a look at one counter every half second (docs/performance.md)."""
    if percent <= 0:
        return
    torch = sys.modules["torch"]
    poll = float(os.environ.get("CUDALEAK_PYTORCH_STACKS_POLL", POLL_SECONDS))

    def watch():
        try:
            # Every device the program uses: a rank's tensors may live on cuda:N
            # while the current device stays 0.
            totals = {}
            while True:
                for device in range(torch.cuda.device_count()):
                    reserved = torch.cuda.memory_reserved(device)
                    if not reserved:
                        continue
                    if device not in totals:
                        totals[device] = torch.cuda.get_device_properties(device).total_memory
                    if reserved * 100 >= totals[device] * percent:
                        _record_stacks()
                        return
                time.sleep(poll)
        except Exception as e:  # a view is never worth changing what the program sees
            sys.stderr.write("cudaleak: per-tensor stacks not started: %s\n" % e)

    threading.Thread(target=watch, name="cudaleak-pytorch-stacks", daemon=True).start()


def _torch_imported():
    torch = sys.modules.get("torch")
    if torch is None or not hasattr(torch, "cuda"):
        return
    # Runs when the program first initialises CUDA (now, if it already has):
    # arming never creates a CUDA context of its own.
    torch.cuda._lazy_call(_start_recording)
    cudaleak_watch.at_exit(_at_exit)


def arm():
    cudaleak_watch.arm("torch", _torch_imported)
