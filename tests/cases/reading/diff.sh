# diff: new and grown sites give status 1, otherwise 0: 10 -> 20 steps of
# loop_leak grew, the reverse shrank, another program's report has a new
# site and a gone one (JSON, valid whatever the sites hold); a report against
# itself is 0, a missing one 2.
# RUN: %run -o %t/small.json -- %build/samples/sample_loop_leak_shared 10 && %run -o %t/big.json -- %build/samples/sample_loop_leak_shared 20 && %run -o %t/other.json -- %build/samples/sample_pinned_leak_shared
# RUN(exit=1): %cudaleak diff %t/small.json %t/big.json
# CHECK: grown   device
# CHECK: 10 -> 20
# RUN: %cudaleak diff %t/big.json %t/small.json
# CHECK: shrunk
# RUN(exit=1): %cudaleak diff %t/small.json %t/other.json --format json > %t/changes.json
# RUN: %expr %t/changes.json 'any(c["change"] == "new" and c["kind"] == "pinned" for c in r) and any(c["change"] == "gone" and c["kind"] == "device" for c in r)'
# CHECK: holds:
# RUN: %cudaleak diff %t/small.json %t/small.json
# RUN(exit=2): %cudaleak diff %t/small.json /nonexistent.json
# CHECK: /nonexistent.json
