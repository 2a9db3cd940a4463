# CUDALEAK_OPTIONS problems are reported by the library under plain preload,
# and the program still runs and is reported.
# RUN: CUDALEAK_OPTIONS=output=%t/r.json:colour=blue %preload %build/samples/sample_clean_shared
# CHECK-RE: \Aclean run finished\n
# CHECK: CUDALEAK_OPTIONS: unknown option 'colour'
# RUN: ls %t
# CHECK-RE: \Alog.txt\nr.json\n\Z
