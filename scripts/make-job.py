#!/usr/bin/python3
"""Builds a many-rank job's folder of reports from real rank reports.

    scripts/make-job.py OUT --ranks 1024 --hosts 128 [--from DIR | --failing F --surviving F] [plants]

Each rank is a clone of a real report (the GPU fixtures by default: a PyTorch
program that ran out of memory, and one that ended with its tensors alive, both
from an H100; --failing and --surviving name others, e.g. a JAX program's),
with what a real job changes: pid, parent pid, rank, local rank,
world size, launcher, host, run id, start time, the device (the local rank's,
with a UUID of that host's)
and the address-space layout (every library moved by one offset per process,
as ASLR does). Pids repeat across hosts, as they do in containers. Files are
named as `-o job/%h.%p.%n.json` names them.

--from DIR clones a real job's own rank reports instead (rank r from the
report of rank r mod their number).

Plants, for the odd-rank checks:
  --grow RANK          that rank's timeline grows to 8x while the others stay flat,
                       and it holds a leak group no other rank has
  --grow-arrays RANK   that rank's JAX arrays and XLA's pool 8x the others'
                       (its timeline left as theirs: only JAX's view tells it)
  --counted-leaks      every rank's leak groups counted by the gate (each rank a
                       JUnit failure and SARIF result, as a library's buffers
                       in ranks that die are)
  --busy-host INDEX    another process holds memory on that host's GPUs when its
                       ranks run out of memory (the first cause of their diagnosis)
  --failing-ranks odd|all|none   which ranks clone the out-of-memory report
"""
import argparse
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "h100", "python")
DEFAULT_FAILING = os.path.join(FIXTURES, "scenario_fraction.551.0.json")
DEFAULT_SURVIVING = os.path.join(FIXTURES, "scenario_exceptions.segments.1870.0.json")

JOB_START = 1_795_600_000_000_000_000
GPUS_PER_HOST = 8
NOT_DEVICES = {"by_kind", "tracked_by_kind", "holds", "cached_by"}  # maps whose "device" key is a kind


def walk(node, fn, parent=""):
    if isinstance(node, dict):
        for key in list(node):
            if key not in NOT_DEVICES:
                fn(node, key, parent)
                walk(node[key], fn, key)
    elif isinstance(node, list):
        for item in node:
            walk(item, fn, parent)


def relabel(report, old_pid, new_pid, old_device, new_device, rank, aslr_delta, low_base):
    def fix(node, key, parent):
        value = node[key]
        if key == "pid" and value == old_pid and parent != "other_processes":
            node[key] = new_pid
        elif key == "rank" and isinstance(value, int) and value >= 0:
            node[key] = rank
        elif key == "device" and value == old_device:
            node[key] = new_device
        elif key in ("ip", "base") and isinstance(value, str) and value.startswith("0x"):
            address = int(value, 16)
            if low_base and address >= low_base:
                node[key] = hex(address + aslr_delta)
    walk(report, fix)


def lowest_library_base(report):
    bases = [int(m["base"], 16) for m in report.get("modules", []) if int(m["base"], 16)]
    return min(bases) if bases else 0


def grow(report):
    """The odd rank: its memory grew to 8x over its run and one leak no other rank has."""
    for device in report.get("timeline", {}).get("devices", []):
        points = device.get("points", [])
        for i, point in enumerate(points):
            factor = 1 + 7 * (i + 1) // max(len(points), 1)
            point[1:] = [b * factor for b in point[1:]]
        if "peak" in device:
            device["peak"]["bytes"] = device["peak"].get("bytes", 0) * 8
    if report.get("leaks"):
        extra = copy.deepcopy(report["leaks"][0])
        extra["bytes"] = extra.get("bytes", 0) * 16 or 1 << 30
        extra.pop("cached_by", None)  # kept alive by the program, not by its allocator's cache
        extra["fails_gate"] = True
        extra.pop("site", None)
        for frame in extra.get("stack", []):
            if frame.get("function") and frame.get("line"):
                frame["function"] = "keep_activations"
                frame["line"] = frame["line"] + 100
                break
        else:
            extra["stack"] = extra.get("stack", [])[:1]
        report["leaks"].append(extra)


def grow_arrays(report):
    """The odd rank of a JAX job: its live arrays and XLA's pool 8x the
    others'. Its timeline is left as theirs (a pool taken whole at start
    keeps a timeline flat), so that only JAX's view tells it."""
    for device in report.get("jax", {}).get("devices", []):
        for key in ("arrays", "arrays_bytes", "bytes_in_use", "peak_bytes_in_use", "bytes_limit", "pool_bytes"):
            if key in device:
                device[key] *= 8
        for group in device.get("groups", []):
            group["bytes"] = group.get("bytes", 0) * 8
            group["count"] = group.get("count", 0) * 8


def counted_leaks(report):
    """Every leak group counted by the gate, as the buffers of a library's
    own in ranks that die are (no cache or suppression accounts for them)."""
    for group in report.get("leaks", []):
        group.pop("cached_by", None)
        group["fails_gate"] = True


def busy(report, host_index):
    """Another process on this host's GPU when the rank ran out of memory."""
    for event in report.get("oom_events", []):
        held = 40 << 30
        event.setdefault("other_processes", []).append(
            {"bytes": held, "bytes_known": True, "name": "/usr/bin/python3 eval.py", "pid": 90000 + host_index})
        message = "another process holds 40.0 GiB of the device: pid %d (/usr/bin/python3 eval.py) holds 40.0 GiB" % (
            90000 + host_index)
        event["diagnosis"] = [{"bytes": held, "cause": "other_processes", "message": message}] + event.get("diagnosis", [])


def surviving_from(failing):
    """A rank torchrun ended when another failed: the same program, no out-of-memory of its own."""
    r = copy.deepcopy(failing)
    r["oom_events"] = []
    r["reason"] = "termination"
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--hosts", type=int, default=8)
    ap.add_argument("--from", dest="source", help="a folder of a real job's rank reports to clone")
    ap.add_argument("--failing", default=DEFAULT_FAILING)
    ap.add_argument("--surviving", default=DEFAULT_SURVIVING, help='a report, or "same": the failing one, ended')
    ap.add_argument("--failing-ranks", default="odd", choices=["odd", "all", "none"])
    ap.add_argument("--grow", type=int, default=-1)
    ap.add_argument("--busy-host", type=int, default=-1)
    ap.add_argument("--grow-arrays", type=int, default=-1)
    ap.add_argument("--counted-leaks", action="store_true")
    args = ap.parse_args()

    if args.source:
        sources = []
        for name in sorted(os.listdir(args.source)):
            with open(os.path.join(args.source, name)) as f:
                try:
                    r = json.load(f)
                except ValueError:
                    continue
            if r.get("format") == "cudaleak-report" and r.get("process", {}).get("rank", -1) >= 0:
                sources.append(r)
        sources.sort(key=lambda r: r["process"]["rank"])
        if not sources:
            sys.exit("make-job.py: no rank reports in " + args.source)
    else:
        with open(args.failing) as f:
            failing = json.load(f)
        if args.surviving == "same":
            surviving = surviving_from(failing)
        else:
            with open(args.surviving) as f:
                surviving = json.load(f)

    os.makedirs(args.out, exist_ok=True)
    per_host = max(1, (args.ranks + args.hosts - 1) // args.hosts)
    for rank in range(args.ranks):
        host_index, local = rank // per_host, rank % per_host
        if args.source:
            template = sources[rank % len(sources)]
        elif args.failing_ranks == "all" or (args.failing_ranks == "odd" and rank % 2):
            template = failing
        else:
            template = surviving
        r = copy.deepcopy(template)
        p = r.setdefault("process", {})
        old_pid = p.get("pid", 0)
        old_device = next((d["device"] for d in r.get("timeline", {}).get("devices", [])), 0)
        pid = 4000 + local  # the same on every host, as in containers
        host = "node%03d" % host_index
        relabel(r, old_pid, pid, old_device, local % GPUS_PER_HOST, rank, (rank + 1) * 0x7f3000, lowest_library_base(r))
        for d in r.get("timeline", {}).get("devices", []):  # each host's GPUs have UUIDs of their own
            if d.get("uuid"):
                d["uuid"] = "GPU-%08x-0000-0000-0000-%012x" % (host_index, d.get("device", 0))
        # Ranks start within a second of each other; each run's own clock is kept.
        start = JOB_START + ((rank * 7919) % 997) * 1_000_000
        p.update(pid=pid, ppid=3999, rank=rank, local_rank=local, world_size=args.ranks, launcher="torchrun",
                 host=host, start_unix_ns=start, run_id="%d-%s-%016x" % (pid, host, rank * 2654435761))
        if args.counted_leaks:
            counted_leaks(r)
        if rank == args.grow:
            grow(r)
        if rank == args.grow_arrays:
            grow_arrays(r)
        if host_index == args.busy_host:
            busy(r, host_index)
        with open(os.path.join(args.out, "%s.%d.0.json" % (host, pid)), "w") as f:
            json.dump(r, f, indent=1)  # as cudaleak writes them


if __name__ == "__main__":
    main()
