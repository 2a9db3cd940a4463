# A program started by a relative path (cd to its folder, then ./program) is
# named by one absolute path in every frame of its own.
# RUN: cd %build/samples && %run -o %t/r.json -- ./sample_loop_leak_shared
# RUN: %expr %t/r.json 'len(r["leaks"]) == 1' \
# RUN:   'len({f["module"] for f in r["leaks"][0]["stack"] if f.get("module", "").split("/")[-1] == "sample_loop_leak_shared"}) == 1' \
# RUN:   'all(f["module"].startswith("/") for f in r["leaks"][0]["stack"] if f.get("module", "").split("/")[-1] == "sample_loop_leak_shared")'
# CHECK-COUNT(3): holds:
