# A mistyped option or command exits 2 with one line naming the nearest; a
# bad value exits 2; --help exits 0.
# RUN(exit=2): %cudaleak run --outptu r.json -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--outptu \(did you mean --output\?\)[^\n]*\n\Z
# RUN(exit=2): %cudaleak reprot r.json
# CHECK: did you mean 'report'?
# RUN(exit=2): %cudaleak report --kind devic r.json
# CHECK: unknown kind 'devic' (did you mean device?)
# RUN(exit=2): %cudaleak run --stack-depth x -- %build/samples/sample_clean_shared
# CHECK-NONE: clean run finished
# RUN: %cudaleak --help
# CHECK: run
