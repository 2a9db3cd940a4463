# The simulated GPU's own libraries read as NVIDIA's in a stack, never with
# their source: the summary's first frame is the runtime's entry point, as on
# a real GPU, and the site is the program's.
# REQUIRES: simulated
# RUN(exit=3): %run -o %t/r.json -- %build/samples/sample_exception_leak_shared
# CHECK: in cudaMalloc (libcudart.so.13)
# CHECK-NONE: simcuda/runtime
# CHECK-NONE: tests/simcuda
# RUN: %expr %t/r.json \
# RUN:   'len(r["leaks"]) == 1 and r["leaks"][0]["stack"][0]["module"].endswith("/simcuda/libcudart.so.13") and r["leaks"][0]["stack"][0]["function"] == "cudaMalloc"' \
# RUN:   'all("tests/simcuda" not in f.get("file", "") for f in r["leaks"][0]["stack"])' \
# RUN:   'all(not f.get("file") for f in r["leaks"][0]["stack"] if "/simcuda/" in f["module"] and f["module"].split("/")[-1].startswith(("libcuda.so", "libcudart.so", "libnvidia-ml.so")))' \
# RUN:   'r["leaks"][0]["site"] == "device | process_batch @ exception_leak.cu:10 | main @ exception_leak.cu:19"'
# CHECK-COUNT(4): holds:
