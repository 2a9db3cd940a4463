# What a library makes later on a handle's behalf (HookRole::Use): cuRAND
# allocates a generator's state in curandGenerate*, and it is the
# generator's, said under it, with no leak of its own.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/curand_state leak
# CHECK: 2 cuRAND generators never destroyed (curandDestroyGenerator), created by curandCreateGenerator on device 0, holding 384.0 KiB of device memory
# CHECK-NONE: never freed, created by curandGenerateUniform
# RUN: %expr %t/r.json \
# RUN:   'group("library_handle", "curandCreateGenerator")["count"] == 2' \
# RUN:   'group("library_handle", "curandCreateGenerator")["holds"]["device"] == {"count": 2, "bytes": 384 * 1024}' \
# RUN:   'all(g.get("owner") == "curandCreateGenerator" for g in leaks("device"))'
# CHECK-COUNT(3): holds:
