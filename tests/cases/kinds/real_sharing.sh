# Memory shared between two processes on a real GPU
# (tests/gpu/kinds/sharing.cu): the child imports what the parent exported.
# In `leak` it releases nothing: a legacy IPC mapping (1 MiB), a pool
# pointer and a VMM handle (ipc_mapping), the imported pool, and the VMM
# allocation again as external memory with its mapped buffer (device), each
# by its API; the parent releases everything. In `clean` neither leaves
# anything. No note either way.
# REQUIRES: gpu, nvcc
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -O2 -o %t/sharing %root/tests/gpu/kinds/sharing.cu -lcuda
# RUN: %run -o %t/leak/r.%p.json -- %t/sharing leak
# CHECK: external memory imported
# RUN: %expr %t/leak \
# RUN:   '[len([x for x in reports if "child-leak" in x["process"].get("argv", [])]), len([x for x in reports if "leak" in x["process"].get("argv", [])])] == [1, 1]' \
# RUN:   'all(dict((k, v["count"]) for k, v in c["summary"]["by_kind"].items()) == {"ipc_mapping": 3, "pool": 1, "external_memory": 1, "device": 1} for c in reports if "child-leak" in c["process"].get("argv", []))' \
# RUN:   'all(sorted(g["api"] for g in c["leaks"]) == sorted(["cuIpcOpenMemHandle_v2", "cuMemPoolImportFromShareableHandle", "cuMemPoolImportPointer", "cuMemImportFromShareableHandle", "cuImportExternalMemory", "cuExternalMemoryGetMappedBuffer"]) for c in reports if "child-leak" in c["process"].get("argv", []))' \
# RUN:   'all([g["bytes"] for g in c["leaks"] if g["api"] == "cuIpcOpenMemHandle_v2"][:1] == [1 << 20] for c in reports if "child-leak" in c["process"].get("argv", []))' \
# RUN:   'all(len(x.get("notes", [])) == 0 for x in reports)' \
# RUN:   'all(p["summary"]["leaked_count"] == 0 for p in reports if "leak" in p["process"].get("argv", []))'
# CHECK-COUNT(6): holds:
# RUN: %run -o %t/clean/r.%p.json -- %t/sharing clean
# CHECK: external memory imported
# RUN: %expr %t/clean \
# RUN:   '[len([x for x in reports if "child-clean" in x["process"].get("argv", [])]), len([x for x in reports if "clean" in x["process"].get("argv", [])])] == [1, 1]' \
# RUN:   'all(x["summary"]["by_kind"] == {} for x in reports if "child-clean" in x["process"].get("argv", []))' \
# RUN:   'all(len(x.get("notes", [])) == 0 for x in reports)' \
# RUN:   'all(p["summary"]["leaked_count"] == 0 for p in reports if "clean" in p["process"].get("argv", []))'
# CHECK-COUNT(4): holds:
