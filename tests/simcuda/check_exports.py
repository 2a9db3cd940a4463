#!/usr/bin/env python3
"""Fails when the simulated GPU lacks a function the real CUDA offers.

  check_exports.py SIM_DIR CUDA_ROOT

Runtime: every function the real libcudart.so.13 exports must be exported by
the simulated one under the same symbol version, or a program linked against
the real runtime dies at load (symbol lookup error, status 127) under
--simulated-gpu. Driver: the simulated libcuda.so.1's cuGetProcAddress must
answer every entry point cudaTypedefs.h names at its ABI version, as cudart
looks them up there. Exits 77 (skipped) without the real runtime.
Fix a failure by regenerating the lists: /usr/bin/python3 tests/simcuda/gen_stub_lists.py CUDA_ROOT
"""
import ctypes
import pathlib
import re
import shutil
import subprocess
import sys

SKIP = 77


def exports(library):
    """{name: version} of the functions a shared library defines."""
    out = subprocess.run(["readelf", "--dyn-syms", "-W", str(library)], check=True, capture_output=True,
                         text=True).stdout
    found = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[3] == "FUNC" and fields[6] != "UND":
            name, _, version = fields[7].partition("@")
            found[name] = version.lstrip("@")
    return found


def check_runtime(sim, real):
    want, have = exports(real), exports(sim)
    missing = sorted(n for n in want if n not in have)
    wrong = sorted(f"{n} ({have[n]}, not {want[n]})" for n in want if n in have and have[n] != want[n])
    for name in missing:
        print(f"missing from the simulated libcudart.so.13: {name}")
    for name in wrong:
        print(f"wrong symbol version in the simulated libcudart.so.13: {name}")
    print(f"runtime: {len(want)} functions in the real libcudart.so.13, {len(want) - len(missing)} exported "
          f"by the simulated one")
    return not missing and not wrong


def check_driver(sim_cuda, typedefs):
    entries = sorted(set(re.findall(r"PFN_(cu\w+?)_v(\d+)(_ptds|_ptsz)?\)", typedefs.read_text())))
    cuda = ctypes.CDLL(str(sim_cuda))
    cuda.cuInit(0)
    lookup = cuda.cuGetProcAddress_v2
    lookup.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_uint64,
                       ctypes.POINTER(ctypes.c_int)]
    per_thread = 1 << 1  # CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
    unanswered = []
    for name, version, variant in entries:
        fn, status = ctypes.c_void_p(), ctypes.c_int(-1)
        result = lookup(name.encode(), ctypes.byref(fn), int(version), per_thread if variant else 0,
                        ctypes.byref(status))
        if result != 0 or status.value != 0 or not fn.value:
            unanswered.append(f"{name} v{version}{variant} (CUresult {result})")
    for entry in unanswered:
        print(f"not answered by the simulated cuGetProcAddress: {entry}")
    print(f"driver: {len(entries)} entry points in cudaTypedefs.h, {len(entries) - len(unanswered)} answered")
    return not unanswered


def main():
    sim_dir, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    real = root / "lib64" / "libcudart.so.13"
    if not real.exists() or not shutil.which("readelf"):
        print(f"skipped: no {real} (or no readelf) to compare the simulated runtime with")
        return SKIP
    ok = check_runtime(sim_dir / "libcudart.so.13", real)
    ok = check_driver(sim_dir / "libcuda.so.1", root / "include" / "cudaTypedefs.h") and ok
    if not ok:
        print("regenerate the lists: /usr/bin/python3 tests/simcuda/gen_stub_lists.py " + str(root))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
