# A crash capture written under plain preload (no launcher to build the
# report) is built on read; pretty-printed since (as jq . leaves it), it is
# still a capture, read alone and in its folder.
# RUN(signal=SIGSEGV): mkdir %t/reports && CUDALEAK_OPTIONS=output=%t/reports/r.json %preload %build/tests/e2e/crash_after_leak
# RUN: %report %t/reports/r.json
# CHECK: 1.0 MiB of device memory in 1 allocation never freed
# CHECK: main
# RUN: %python -c 'import sys; p = sys.argv[1]; t = open(p).read(); h = "{\"format\":\"cudaleak-raw-capture\""; assert t.startswith(h), t[:80]; open(p, "w").write("{\n  \"format\" : \"cudaleak-raw-capture\"" + t[len(h):])' %t/reports/r.json
# RUN: %report %t/reports/r.json
# CHECK: 1.0 MiB of device memory in 1 allocation never freed
# RUN: %report %t/reports
# CHECK: 1.0 MiB of device memory in 1 allocation never freed
