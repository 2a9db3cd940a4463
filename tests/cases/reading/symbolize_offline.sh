# cudaleak symbolize: a raw report (--symbolize false) of a program run from
# a copy stripped of its debug info names no function; symbolized offline it
# names main from the symbol table alone, and with --debug-dir (where the
# unstripped copy lives) the line of the leak in an inlined function;
# cudaleak report --symbolize does the same on the way.
# RUN: mkdir %t/debug && cp %build/samples/sample_loop_leak_shared %t/loop && cp %t/loop %t/debug/loop && strip --strip-debug %t/loop
# RUN: %run --symbolize false -o %t/raw.json -- %t/loop
# RUN: %expr %t/raw.json 'not r["symbolized"]' 'len(r["leaks"]) == 1' 'not stack_has(r["leaks"][0], "main")'
# CHECK-COUNT(3): holds:
# RUN: %cudaleak symbolize %t/raw.json -o %t/plain.json
# RUN: %expr %t/plain.json 'r["symbolized"]' 'stack_has(r["leaks"][0], "main")' \
# RUN:   'not any(f.get("line") for f in r["leaks"][0]["stack"] if f.get("module", "").endswith("/loop"))'
# CHECK-COUNT(3): holds:
# RUN: %cudaleak symbolize %t/raw.json -o %t/full.json --debug-dir %t/debug
# RUN: %expr %t/full.json \
# RUN:   'any(f.get("function") == "step" and "loop_leak.cu" in f.get("file", "") and f.get("line") == 8 for f in r["leaks"][0]["stack"])' \
# RUN:   'any(f.get("inlined") for f in r["leaks"][0]["stack"])'
# CHECK-COUNT(2): holds:
# RUN: %report %t/raw.json --symbolize --debug-dir %t/debug
# CHECK-RE: in step [^\n]*loop_leak\.cu:8
