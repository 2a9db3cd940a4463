# samples/async_pool_leak: stream-ordered buffers (one from the pool) and the
# pool; the streams the sample destroyed are absent.
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_async_pool_leak_shared
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   'count("async") == 2 and size("async") == (512 << 10) + (1 << 20) and count("pool") == 1 and "stream" not in summary["by_kind"]' \
# RUN:   'any(g["api"] == "cudaMallocFromPoolAsync" for g in r["leaks"])'
# CHECK-COUNT(3): holds:
