"""JAX's own view of its device memory, for cudaleak reports.

Never imports jax: cudaleak_watch waits for the program to import it. Then
nothing runs on JAX's path until something fails: XLA's out-of-memory
(RESOURCE_EXHAUSTED, raised as jax.errors.JaxRuntimeError or
jaxlib's XlaRuntimeError depending on the version) is seen where it is
raised (sys.monitoring's RAISE event on Python 3.12+, whose callback looks
at the exception's type name before anything else; on older Pythons the
uncaught ones only, through sys.excepthook and threading.excepthook). At
that failure, at exit and at each snapshot the library asks for, the live
arrays grouped by the Python stack that made them (JAX's device memory
profile, a pprof protobuf read by cudaleak_pprof; else jax.live_arrays(),
which has no stacks) and XLA's pool numbers (device.memory_stats()) go to
the preload library (cudaleak_impl_jax_view), which keeps the view for the
report and records the failure as one out-of-memory event.
"""
import ctypes
import json
import os
import re
import sys
import sysconfig
import threading
import time

import cudaleak_pprof
import cudaleak_watch

MAX_FRAMES = 16        # frames kept per group, or down to the program's own frame
MAX_SEARCH = 64        # frames searched for the program's own below JAX's
MAX_GROUPS = 64        # array groups listed per device (all are counted)
MAX_ARRAYS = 200000    # live arrays read for their shapes
MESSAGE_CHARS = 4000   # of XLA's message, kept in the report
RETRY_NS = 10 * 10**9  # the same failure raised again within this is one event
SETTINGS = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_ALLOCATOR")
# Exception types XLA's failures come as: jax.errors.JaxRuntimeError (new),
# jaxlib.xla_extension.XlaRuntimeError (0.4), RuntimeError (older jaxlib).
_TYPE_NAMES = frozenset(("JaxRuntimeError", "XlaRuntimeError", "RuntimeError"))
STATS = (("bytes_in_use", "bytes_in_use"), ("peak_bytes_in_use", "peak_bytes_in_use"),
         ("bytes_limit", "bytes_limit"), ("bytes_reserved", "bytes_reserved"), ("pool_bytes", "pool_bytes"),
         ("largest_free_block_bytes", "largest_free_block"), ("num_allocs", "num_allocs"),
         ("largest_alloc_size", "largest_alloc_size"))

_busy = threading.local()
_last = {}             # the latest failure: id, head, device, ns
_facts = {}            # what the GPU validation prints: profile format, labels, exception types


def _native_entry():
    return cudaleak_watch.view_entry("cudaleak_impl_jax_view")


_STDLIB = sysconfig.get_paths().get("stdlib", "\0")
_packages = []  # the folders of jax and jaxlib: JAX's own frames, wherever it is installed


def _package_dirs():
    if not _packages:
        for name in ("jax", "jaxlib"):
            f = getattr(sys.modules.get(name), "__file__", None)
            if f:
                _packages.append(os.path.dirname(os.path.abspath(f)) + os.sep)
    return _packages


def _is_library(filename):
    return ("/site-packages/" in filename or "/dist-packages/" in filename or filename.startswith("<")
            or filename.startswith(_STDLIB) or os.path.basename(filename).startswith("cudaleak_")
            or any(filename.startswith(d) for d in _package_dirs()))


def _kept(frames):
    """The innermost MAX_FRAMES, or down to the program's own frame and three
    of its callers when it lies deeper (under jax.numpy, flax, optax)."""
    for i, f in enumerate(frames[:MAX_SEARCH]):
        if not _is_library(f[0]):
            return frames[:MAX_FRAMES] if i < MAX_FRAMES else frames[:i + 4]
    return frames[:MAX_FRAMES]


# ---- which device is which ------------------------------------------------

def _gpu_devices(jax):
    try:
        devices = jax.local_devices()
    except Exception:
        return []
    return [d for d in devices if getattr(d, "platform", "") in ("gpu", "cuda", "rocm")]


def _ordinal(d):
    """The device's number as CUDA counts it in this process (cudaleak's)."""
    hw = getattr(d, "local_hardware_id", None)
    return int(hw) if hw is not None else int(getattr(d, "id", 0))


def _device_of_label(label, by_id):
    """A profile's device label: DebugString ("cuda:0", "CudaDevice(id=0)",
    "gpu:0") or, in older jaxlibs, the id as a number."""
    if isinstance(label, int):
        return by_id.get(label)
    m = re.search(r"(\d+)\)?\s*$", label or "")
    return by_id.get(int(m.group(1))) if m else None


def _stats(d):
    try:
        s = d.memory_stats() or {}
    except Exception:
        return {}
    return {out: int(s[key]) for key, out in STATS if isinstance(s.get(key), (int, float))}


# ---- the live arrays ------------------------------------------------------

def _shapes(jax, limit=MAX_ARRAYS):
    """(ordinal, bytes on the device) -> (shape, dtype), from jax.live_arrays();
    and every live array's (ordinal, bytes, shape, dtype) for the fallback."""
    by_size, arrays = {}, []
    for i, a in enumerate(jax.live_arrays()):
        if i >= limit:
            break
        try:
            devices = list(a.devices())
            shape, dtype = tuple(a.shape), str(a.dtype)
            nbytes = int(a.nbytes)
            if len(devices) > 1:  # sharded or replicated: each device holds a shard
                shape = tuple(a.sharding.shard_shape(a.shape))
                nbytes = nbytes * _prod(shape) // max(1, _prod(a.shape))
        except Exception:
            continue
        for d in devices:
            key = (_ordinal(d), nbytes)
            by_size.setdefault(key, (shape, dtype))
            arrays.append((key[0], nbytes, shape, dtype))
    return by_size, arrays


def _prod(shape):
    n = 1
    for x in shape:
        n *= int(x)
    return n


def _shape_text(shape, dtype):
    return "%s[%s]" % (dtype, ",".join(str(x) for x in shape))


def _group_view(groups):
    out = []
    ranked = sorted(groups.items(), key=lambda kv: -(kv[1]["bytes"] + kv[1].get("no_memory_bytes", 0)))
    for frames, g in ranked[:MAX_GROUPS]:
        if "stack" not in g:  # the live-array fallback's groups have none
            g["stack"] = [{"file": f, "function": n, "line": l} for f, n, l in frames]
        out.append(g)
    return out


def _from_profile(jax, devices, shapes):
    blob = jax.profiler.device_memory_profile()
    profile = cudaleak_pprof.decode(blob)
    _facts["profile_gzip"] = profile["gzip"]
    by_id = {int(getattr(d, "id", 0)): _ordinal(d) for d in devices}
    per_device, executables, labels = {}, 0, set()
    for s in profile["samples"]:
        labels.update(s["labels"])
        values = s["values"]
        count, nbytes = (values + [0, 0])[:2]
        if s["labels"].get("kind") == "executable":
            executables += nbytes
            continue
        ordinal = _device_of_label(s["labels"].get("device"), by_id)
        if ordinal is None:
            continue
        d = per_device.setdefault(ordinal, {"arrays": 0, "arrays_bytes": 0, "groups": {}})
        d["arrays"] += count
        d["arrays_bytes"] += nbytes
        frames = tuple(_kept(s["frames"]))
        g = d["groups"].setdefault(frames, {"bytes": 0, "count": 0, "largest_bytes": 0})
        g["bytes"] += nbytes
        g["count"] += count
        each = nbytes // count if count else nbytes
        if each > g["largest_bytes"]:
            g["largest_bytes"] = each
            shape = shapes.get((ordinal, each))
            if shape:
                g["shape"] = _shape_text(*shape)
    _facts["labels"] = sorted(labels)
    _facts["samples"] = len(profile["samples"])
    return per_device, executables


def _without_memory(found, stats):
    """Arrays whose computation failed without raising hold no memory: JAX
    dispatches asynchronously, and a step that ran out of memory leaves
    arrays poisoned with the error until something reads them, while the
    profile counts each at its full size (800000 arrays, 24.4 TiB beside a
    104.9 GiB pool on an H200). Where the arrays add up to more than XLA's
    pool holds, the difference is taken from the biggest groups, whole
    arrays at a time, and counted apart from what is held."""
    in_use = stats.get("bytes_in_use")
    room = max(stats.get("bytes_limit", 0), stats.get("pool_bytes", 0), in_use or 0)
    if in_use is None or found["arrays_bytes"] <= room + max(room // 20, 64 << 20):
        return
    excess = found["arrays_bytes"] - in_use
    for g in sorted(found["groups"].values(), key=lambda g: -g["bytes"]):
        if excess <= 0:
            break
        each = g["bytes"] // g["count"] if g["count"] else 0
        n = min(g["count"], excess // each) if each else 0
        if not n:
            continue
        g["count"] -= n
        g["bytes"] -= n * each
        g["no_memory_count"] = n
        g["no_memory_bytes"] = n * each
        found["arrays"] -= n
        found["arrays_bytes"] -= n * each
        found["no_memory_arrays"] = found.get("no_memory_arrays", 0) + n
        found["no_memory_bytes"] = found.get("no_memory_bytes", 0) + n * each
        excess -= n * each


def _from_live_arrays(arrays):
    per_device = {}
    for ordinal, nbytes, shape, dtype in arrays:
        d = per_device.setdefault(ordinal, {"arrays": 0, "arrays_bytes": 0, "groups": {}})
        d["arrays"] += 1
        d["arrays_bytes"] += nbytes
        text = _shape_text(shape, dtype)  # no stacks: one group per shape
        g = d["groups"].setdefault(text, {"bytes": 0, "count": 0, "largest_bytes": 0, "shape": text, "stack": []})
        g["bytes"] += nbytes
        g["count"] += 1
        g["largest_bytes"] = max(g["largest_bytes"], nbytes)
    return per_device


def collect(jax):
    """The report's "jax" view: per device, XLA's pool numbers and the live
    arrays grouped by the stack that made them."""
    devices = _gpu_devices(jax)
    view = {"settings": " ".join("%s=%s" % (k, os.environ[k]) for k in SETTINGS if k in os.environ),
            "versions": _versions(jax), "devices": []}
    if not devices:
        return view
    try:
        shapes, arrays = _shapes(jax)
    except Exception as e:
        shapes, arrays = {}, []
        view["note"] = "jax.live_arrays() failed: %s" % e
    try:
        per_device, executables = _from_profile(jax, devices, shapes)
        view["source"] = "profile"
        view["executables_bytes"] = executables
    except Exception as e:  # an old jaxlib, a backend without it, a damaged profile
        per_device = _from_live_arrays(arrays)
        view["source"] = "live_arrays"
        view["note"] = "the device memory profile failed (%s): arrays by shape, without their lines" % e
    for d in devices:
        ordinal = _ordinal(d)
        entry = {"device": ordinal, "id": int(getattr(d, "id", 0)), "kind": str(getattr(d, "device_kind", ""))}
        entry.update(_stats(d))
        found = per_device.get(ordinal, {"arrays": 0, "arrays_bytes": 0, "groups": {}})
        _without_memory(found, entry)
        entry["arrays"] = found["arrays"]
        entry["arrays_bytes"] = found["arrays_bytes"]
        if found.get("no_memory_arrays"):
            entry["no_memory_arrays"] = found["no_memory_arrays"]
            entry["no_memory_bytes"] = found["no_memory_bytes"]
        entry["groups"] = _group_view(found["groups"])
        view["devices"].append(entry)
    return view


def _versions(jax):
    v = "jax " + str(getattr(jax, "__version__", "?"))
    lib = sys.modules.get("jaxlib")
    if lib is not None:
        v += " jaxlib " + str(getattr(lib, "__version__", "?"))
    return v


def send(when, extra=None):
    native = _native_entry()
    jax = sys.modules.get("jax")
    if not native or jax is None:
        return
    try:
        view = collect(jax)
        if not view["devices"] and when != "oom":  # no GPU in JAX's hands: nothing to tell
            return
        if extra:
            view.update(extra)
        native(json.dumps(view).encode(), when.encode())
    except Exception as e:  # a view is never worth a crash
        sys.stderr.write("cudaleak: JAX view failed: %s\n" % e)


# ---- the failure ----------------------------------------------------------

_SIZE = r"([\d.]+)\s*([KMGT]i?B|B)"
_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
          "KB": 1000, "MB": 10**6, "GB": 10**9, "TB": 10**12}


def _bytes(number, unit):
    return int(float(number) * _UNITS.get(unit, 1))


def _stat(text, name):
    m = re.search(r"^\s*" + name + r" allocation:\s*" + _SIZE, text, re.M)
    return _bytes(*m.groups()) if m else 0


def _request(text):
    """The bytes XLA could not get: exact where the message gives them
    ("(68719476736 bytes)", "(1073741824B)", "allocate 1073741824 bytes"),
    else its rounded size ("allocate 1.00GiB", "device memory of 64.00GiB")."""
    m = (re.search(r"\((\d+) bytes\)", text) or re.search(r"\((\d+)B\)", text)
         or re.search(r"allocat\w*\s+(\d+) bytes", text))
    if m:
        return int(m.group(1))
    m = re.search(r"(?:trying to allocate|device memory of|allocat\w*)\s+" + _SIZE, text)
    return _bytes(*m.groups()) if m else 0


def parse_message(text):
    """What XLA's message says: the request, the device, and for a jitted
    function the sizes of its compiled buffers and its biggest ones."""
    out = {}
    request = _request(text)
    if request:
        out["request"] = request
    m = re.search(r"device ordinal (\d+)", text) or re.search(r"\bon device (\d+)", text)
    if m:
        out["device"] = int(m.group(1))
    if "BufferAssignment" in text:
        compiled = {"parameter_bytes": _stat(text, "parameter"), "output_bytes": _stat(text, "maybe_live_out"),
                    "temp_bytes": _stat(text, "preallocated temp"), "total_bytes": _stat(text, "total"),
                    "peak_buffers": []}
        for block in re.split(r"\n\s*Buffer \d+:", text)[1:4]:
            b = {}
            m = re.search(r"Size:\s*" + _SIZE, block)
            if m:
                b["bytes"] = _bytes(*m.groups())
            m = re.search(r'op_name="([^"]{0,200})', block)
            if m:
                b["op"] = m.group(1)
            m = re.search(r'source_file="([^"]{0,400})"\s+source_line=(\d+)', block)
            if m:
                b["file"], b["line"] = m.group(1), int(m.group(2))
            m = re.search(r"Shape:\s*(\S{1,200})", block)
            if m:
                b["shape"] = m.group(1)
            compiled["peak_buffers"].append(b)
        out["compiled"] = compiled
    return out


def _is_xla_oom(exc):
    t = type(exc)
    if t.__name__ not in _TYPE_NAMES and not getattr(t, "__module__", "").startswith(("jax", "jaxlib")):
        return False
    try:
        return str(exc).find("RESOURCE_EXHAUSTED", 0, 65536) >= 0
    except Exception:
        return False


def _frames_from(frame, limit=32):
    """The frames the failure was raised in, innermost first, from the first
    outside jax and jaxlib (a source checkout of JAX is no site-packages)."""
    out = []
    while frame is not None and len(out) < limit:
        name = frame.f_code.co_filename
        if out or not any(name.startswith(d) for d in _package_dirs()):
            out.append({"file": name, "function": frame.f_code.co_name, "line": frame.f_lineno})
        frame = frame.f_back
    return out


def _backend_busy():
    """Whether JAX's backend lock is held (a failure raised while it sets up
    its backends): jax.local_devices() would then wait for it forever."""
    lock = getattr(sys.modules.get("jax._src.xla_bridge"), "_backend_lock", None)
    try:
        return lock is not None and lock.locked()
    except Exception:
        return False


def _fullest_device(jax):
    best, best_share = None, -1.0
    for d in _gpu_devices(jax):
        s = _stats(d)
        share = s.get("bytes_in_use", 0) / float(s.get("bytes_limit") or 1)
        if share > best_share:
            best, best_share = _ordinal(d), share
    return best if best is not None else 0


def on_failure(exc, frame):
    """XLA's out-of-memory `exc`, raised in `frame`: one event, its repeats
    (XLA raising the same failure again, jax re-raising it as another type)
    counted in it."""
    if getattr(_busy, "on", False):
        return
    _busy.on = True
    try:
        now = time.monotonic_ns()
        text = str(exc)
        head = text.split("\n", 1)[0][:300]
        if _last.get("id") == id(exc) and _last.get("head") == head:
            return  # the same exception re-raised through the program's frames
        type_name = "%s.%s" % (type(exc).__module__, type(exc).__qualname__)
        seen = _facts.setdefault("exception_types", [])
        if type_name not in seen:
            seen.append(type_name)
        jax = sys.modules.get("jax")
        info = parse_message(text)
        busy = _backend_busy()
        info.setdefault("device", _fullest_device(jax) if jax and not busy else 0)
        info.update({"exception": type_name, "message": text[:MESSAGE_CHARS], "monotonic_ns": now,
                     "stack": _frames_from(frame)})
        repeat = _last.get("head") == head and now - _last.get("ns", 0) < RETRY_NS
        _last.update({"id": id(exc), "head": head, "ns": now})
        if repeat:
            native = _native_entry()
            if native:  # no new view: the event's numbers stay those of its first raise
                info["repeat"] = True
                native(json.dumps({"devices": [], "oom": info}).encode(), b"oom")
            return
        native = _native_entry()
        if busy and native:
            # Raised while JAX sets up its backends (its preallocation failed),
            # under a lock that asking for devices would take again: the
            # failure without a view.
            native(json.dumps({"devices": [], "note": "raised while JAX set up its backends",
                               "oom": info}).encode(), b"oom")
            return
        send("oom", {"oom": info})
    except Exception as e:
        sys.stderr.write("cudaleak: JAX out-of-memory not recorded: %s\n" % e)
    finally:
        _busy.on = False


def _on_raise(code, offset, exc):
    # Every exception the program raises passes here while armed: the type's
    # name is looked at before anything else.
    if _is_xla_oom(exc):
        on_failure(exc, sys._getframe(1))


def _watch_with_monitoring():
    mon = sys.monitoring
    for tool in (4, 3):
        if mon.get_tool(tool) is None:
            mon.use_tool_id(tool, "cudaleak")
            mon.register_callback(tool, mon.events.RAISE, _on_raise)
            mon.set_events(tool, mon.get_events(tool) | mon.events.RAISE)
            return "sys.monitoring"
    return None


def _innermost(tb):
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame if tb is not None else None


def _watch_with_excepthooks():
    """Uncaught failures only, in the main thread and in threads: the hooks
    the program had are called exactly as before."""
    previous = sys.excepthook

    def excepthook(kind, value, tb):
        try:
            if _is_xla_oom(value):
                on_failure(value, _innermost(tb))
        except BaseException:
            pass
        previous(kind, value, tb)

    excepthook._cudaleak_previous = previous
    sys.excepthook = excepthook
    previous_thread = threading.excepthook

    def thread_excepthook(args):
        try:
            if _is_xla_oom(args.exc_value):
                on_failure(args.exc_value, _innermost(args.exc_traceback))
        except BaseException:
            pass
        previous_thread(args)

    thread_excepthook._cudaleak_previous = previous_thread
    threading.excepthook = thread_excepthook
    return "excepthook"


def _watch_failures():
    how = None
    if hasattr(sys, "monitoring") and os.environ.get("CUDALEAK_JAX_WATCH", "") != "excepthook":
        how = _watch_with_monitoring()
    _facts["watch"] = how or _watch_with_excepthooks()


def facts():
    """What this run learned of the installed JAX (printed by the GPU validation)."""
    return dict(_facts)


def _jax_imported():
    jax = sys.modules.get("jax")
    if jax is None or not hasattr(jax, "local_devices"):
        return
    _watch_failures()
    native = _native_entry()
    if native:
        native(b"{}", b"armed")
    cudaleak_watch.offer_source(lambda: send("snapshot"))
    cudaleak_watch.at_exit(lambda: send("exit"))


def arm():
    cudaleak_watch.arm("jax", _jax_imported)
