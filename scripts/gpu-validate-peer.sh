#!/usr/bin/env bash
# tests/e2e/programs/peer_devices on the real GPUs: with 2 or more, peer
# access on both ways, memory freed from another device's context, leaks on
# device 1 and managed memory prefetched to device 1 and to the host (one
# call, and one batch); with one GPU, the same on device 0 without peer
# access. Asserts every resource's device from the report, the totals, that
# no release was unknown, and the text a user reads. Exits non-zero on a
# wrong result.
# Usage: scripts/gpu-validate-peer.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-peer}")"
rm -rf "$W"; mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
gpus=$(nvidia-smi -L | grep -c '^GPU')
"$B/bin/cudaleak" run -o "$W/peer.json" -- "$B/tests/e2e/peer_devices" >"$W/run.out" 2>"$W/run.err"
echo "status $?"
cat "$W/run.out"
sed -n '1,40p' "$W/run.err" | cut -c1-200

python3 - "$W" "$gpus" <<'PY'
import json, sys
sys.path.insert(0, "tests/gpu")
from checks import check, finish
w, gpus = sys.argv[1], int(sys.argv[2])
peer = 1 if gpus > 1 else 0
out, err = open(f"{w}/run.out").read(), open(f"{w}/run.err").read()
check(f"{gpus} devices, peer device {peer}, peer access {'on' if gpus > 1 else 'off'}" in out, f"the program ran: {out.strip()}")
r = json.load(open(f"{w}/peer.json"))
def in_stack(g, name):
    return any(name in f.get("function", "") for f in g.get("stack", []))
def groups(kind, name):
    return [g for g in r.get("leaks", []) if g["kind"] == kind and in_stack(g, name)]
MiB = 1 << 20
check(not groups("device", "free_from_other_device"), "memory freed from another device's context is not a leak")
unknown = [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]
check(not unknown, f"no release cudaleak did not know: {unknown[:2]}")
peer_mem = groups("device", "leak_on_peer")
check([(g["bytes"], g.get("device")) for g in peer_mem] == [(5 * MiB, peer)], f"5 MiB leaked on device {peer}: {[(g['bytes'], g.get('device')) for g in peer_mem]}")
streams = groups("stream", "leak_on_peer")
check([g.get("device") for g in streams] == [peer], f"the stream on device {peer}: {[g.get('device') for g in streams]}")
to_peer = groups("managed", "managed_to_peer")
check([(g["bytes"], g.get("device")) for g in to_peer] == [(6 * MiB, peer)], f"6 MiB managed prefetched to device {peer}: {[(g['bytes'], g.get('device')) for g in to_peer]}")
to_host = groups("managed", "managed_to_host")
check([(g["bytes"], g.get("device", -1)) for g in to_host] == [(7 * MiB, -1)], f"7 MiB managed prefetched to the host: {[(g['bytes'], g.get('device')) for g in to_host]}")
check(not groups("managed", "managed_round_trip"), "managed memory prefetched there and back, then freed, is not a leak")
batch = sorted((g["bytes"], g.get("device", -1)) for g in groups("managed", "managed_batch"))
check(batch == [(MiB, peer), (4 * MiB, -1)], f"one batch: 1 MiB to device {peer}, 4 MiB to the host: {batch}")
check(r["summary"]["leaked_bytes"] == 23 * MiB, f"leaked bytes {r['summary']['leaked_bytes']} == 23 MiB")
check(f"6.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged on device {peer}" in err,
      "the text names the managed memory's device")
check("7.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged, prefetched to the host" in err,
      "the text says the host")
finish("peer")
PY
