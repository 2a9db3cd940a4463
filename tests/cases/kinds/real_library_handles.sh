# NVIDIA's library handles on a real GPU (tests/gpu/kinds/library_handles.cu):
# linked dynamically, each create reaches cudaleak: one handle of each
# library left alive in `leak` (cuBLAS, cuBLASLt, cuFFT, cuRAND, cuSPARSE,
# cuSOLVER dense and sparse), none in `clean`, no note, no frame of
# cudaleak's own in a stack. Linked with the static archives, no create
# reaches cudaleak: the handles that hold driver resources (cuBLAS, cuSOLVER
# dense and sparse) are found by their stacks, uncounted, the cuBLAS one
# named with its caller, and every resource is found as in the dynamic run;
# nothing in `clean`.
# REQUIRES: gpu, nvcc
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -O2 -Xcompiler -Wno-deprecated-declarations -o %t/library_handles %root/tests/gpu/kinds/library_handles.cu -lcublas -lcublasLt -lcufft -lcurand -lcusparse -lcusolver
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -O2 -Xcompiler -Wno-deprecated-declarations -o %t/static_handles %root/tests/gpu/kinds/library_handles.cu -lcublas_static -lcublasLt_static -lcufft_static -lcurand_static -lcusparse_static -lcusolver_static -lcusolver_lapack_static -lculibos
# RUN: %run -o %t/leak/dynamic.%p.json -- %t/library_handles leak
# RUN: %run -o %t/leak/static.%p.json -- %t/static_handles leak
# RUN: %expr %t/leak \
# RUN:   'files[0].startswith("dynamic.") and files[1].startswith("static.") and len(reports) == 2' \
# RUN:   'dict((g["api"], g["count"]) for g in reports[0]["leaks"] if g["kind"] == "library_handle") == {"cublasCreate_v2": 1, "cublasLtCreate": 1, "cufftPlan1d": 1, "curandCreateGenerator": 1, "cusparseCreate": 1, "cusolverDnCreate": 1, "cusolverSpCreate": 1}' \
# RUN:   'len(reports[0].get("notes", [])) == 0' \
# RUN:   'sum(1 for g in reports[0]["leaks"] for f in g["stack"] if "libcudaleak" in f.get("module", "")) == 0' \
# RUN:   'sorted(g["api"] for g in reports[1]["leaks"] if g["kind"] == "library_handle" and g.get("attributed_by_stack")) == ["cublasCreate_v2", "cusolverDnCreate", "cusolverSpCreate"]' \
# RUN:   'dict((g["api"], g["count"]) for g in reports[1]["leaks"] if g["kind"] == "library_handle") == dict((g["api"], 0) for g in reports[1]["leaks"] if g["kind"] == "library_handle" and g.get("attributed_by_stack"))' \
# RUN:   'reports[1]["summary"]["by_kind"] == dict((k, v) for k, v in reports[0]["summary"]["by_kind"].items() if k != "library_handle")' \
# RUN:   '[g["stack"][0]["function"] for g in reports[1]["leaks"] if g["kind"] == "library_handle" and g["api"] == "cublasCreate_v2"][:1] == ["open_handles()"]' \
# RUN:   'len(reports[1].get("notes", [])) == 0'
# CHECK-COUNT(9): holds:
# RUN: %run -o %t/clean/dynamic.%p.json -- %t/library_handles clean
# RUN: %run -o %t/clean/static.%p.json -- %t/static_handles clean
# RUN: %expr %t/clean \
# RUN:   'len(reports) == 2' \
# RUN:   'dict((g["api"], g["count"]) for g in reports[0]["leaks"] if g["kind"] == "library_handle") == {} and len(reports[0].get("notes", [])) == 0' \
# RUN:   'reports[1]["summary"]["leaked_count"] == 0 and len(reports[1]["leaks"]) == 0'
# CHECK-COUNT(3): holds:
