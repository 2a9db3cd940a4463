import os
import threading

from . import caching, get_allocator_backend


def _refuse_unless_native(what):
    if get_allocator_backend() != "native":
        raise RuntimeError("cudaMallocAsync does not yet support " + what)


def _record_memory_history(enabled=None, context=None, stacks=None):
    _refuse_unless_native("recordHistory")
    caching.recording = enabled not in (None, False)


# Blocks a test program adds: (size, file, function, line), each in a segment
# of its own.
extra_live = []


def _snapshot():
    _refuse_unless_native("snapshot")
    log = os.environ.get("FAKE_TORCH_SNAPSHOT_LOG")
    if log:  # which threads asked, in order: tests see where the first snapshot's cost falls
        with open(log, "a") as f:
            f.write("%s recording=%s\n" % (threading.current_thread().name, caching.recording))
    live = {"size": 1 << 20, "state": "active_allocated",
            "frames": [{"filename": "train.py", "name": "train_step", "line": 7}]}
    free = {"size": 1 << 20, "state": "inactive"}
    segments = [{"device": 0, "address": 1 << 32, "total_size": 2 << 20, "allocated_size": 1 << 20,
                 "active_size": 1 << 20, "is_expandable": False, "blocks": [live, free]}]
    for i, entry in enumerate(extra_live):
        # (size, filename, name, line), or (size, [(filename, name, line), ...]) innermost first
        size, frames = (entry[0], [entry[1:]]) if len(entry) == 4 else entry
        block = {"size": size, "state": "active_allocated",
                 "frames": [{"filename": f, "name": n, "line": l} for f, n, l in frames]}
        segments.append({"device": 0, "address": (2 + i) << 32, "total_size": size, "allocated_size": size,
                         "active_size": size, "is_expandable": False, "blocks": [block]})
    return {"segments": segments + caching.snapshot_segments()}
