# A third-party package on disk (a site-packages directory) allocates for
# the program (tests/e2e/programs/python_third_party.py): every place that
# names a leak's line names the program's own serve_request, never the
# package's code, and a generated rule never matches on the package's
# frames alone. reachability=auto leaves a Python process unscanned: a
# stale word could otherwise split the line's three allocations between two
# classes.
# RUN: %run --gen-suppressions --sarif %t/run.sarif -o %t/reports/report.%p.json -- %python %root/tests/e2e/programs/python_third_party.py
# CHECK: leak:serve_request
# CHECK-NONE: definitely lost
# CHECK-NONE: leak:update
# CHECK-NONE: leak:_device_buffer
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and "reachability" not in r' \
# RUN:   'len(r["leaks"]) == 1 and r["leaks"][0]["count"] == 3' \
# RUN:   '"python_third_party.py" in text("%t/run.sarif") and "kvstore/__init__.py\"" not in text("%t/run.sarif")'
# CHECK-COUNT(3): holds:
# RUN: %report %t/reports/report.*.json --by function
# CHECK: serve_request
# CHECK-NONE: Cache.update
