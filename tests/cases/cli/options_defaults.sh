# `cudaleak options` lists defaults as they are written on the command line.
# RUN: %cudaleak options
# CHECK: default cudaleak.%p.json
# CHECK-NONE: default "
# CHECK-NONE: default {}
