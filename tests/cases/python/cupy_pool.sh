# CuPy (tests/gpu/python/scenario_cupy.py): arrays kept in a list until the
# device is full. The first cause is CuPy's memory pool, at the user's
# line; CuPy's kernel cache is no leak; the pool's numbers at exit are
# CuPy's own (the kept arrays "used", 256 MiB a step) and the summary says
# them. Two CuPy processes under one run (tests/gpu/python/
# cupy_small_pool.py twice at once), merged: each process's pool, named by
# its pid. (About 5 s.)
# REQUIRES: gpu, cupy
# LINES-OF: %root/tests/gpu/python/scenario_cupy.py
# RUN: %run --pytorch-stacks true -o %t/one/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_cupy.py > %t/one.txt 2>&1; s=$?; cat %t/one.txt; exit $s
# CHECK: CuPy's memory pool at exit on device 0: 
# RUN: %expr %t/one \
# RUN:   'oom_events()[0]["diagnosis"][0]["cause"] == "held_by_cache" and "CuPy memory pool" in oom_events()[0]["diagnosis"][0]["message"]' \
# RUN:   '"make_batch (scenario_cupy.py:%line:alloc)" in oom_events()[0]["diagnosis"][0]["message"]' \
# RUN:   'last_report()["summary"]["leaked_count"] == 0' \
# RUN:   '(pool := last_report().get("cupy")) and (pool["when"], pool["device"]) == ("exit", 0) and pool["used_bytes"] == int(text("%t/one.txt").split("oom after ")[1].split()[0]) * (256 << 20) and pool["total_bytes"] >= pool["used_bytes"]'
# CHECK-COUNT(4): holds:
# RUN: %run -o %t/two/r.%%p.json -- /bin/sh -c '%python %root/tests/gpu/python/cupy_small_pool.py & %python %root/tests/gpu/python/cupy_small_pool.py; wait' > /dev/null 2>&1; %cudaleak merge %t/two/*.json -o %t/merged.json && %report %t/merged.json
# CHECK-COUNT(2): CuPy's memory pool at exit on device 0 in python3
# CHECK-RE: CuPy's memory pool at exit on device 0 in python3[.0-9]* \(pid (\d+)\): [0-9.]+ MiB held, 128\.0 MiB by live arrays[\s\S]*CuPy's memory pool at exit on device 0 in python3[.0-9]* \(pid (?!\1\))\d+\): [0-9.]+ MiB held, 128\.0 MiB by live arrays
