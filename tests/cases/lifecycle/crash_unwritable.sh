# A crash report that cannot be written (its folder went away while the
# program ran) says so in one line naming the path; eight processes of one
# run that crash at once into one name without %p each keep their report.
# RUN(signal=SIGSEGV): mkdir %t/gone && %run -o %t/gone/crash.json -- /bin/sh -c "rmdir %t/gone && exec %build/tests/e2e/crash_after_leak"
# CHECK: cudaleak: the crash report could not be written to %t/gone
# RUN: mkdir %t/shared && %run -o %t/shared/crash.json -- /bin/sh -c "for i in 1 2 3 4 5 6 7 8; do %build/tests/e2e/crash_after_leak & done; wait"
# RUN: %expr %t/shared 'len(reports) == 8 and all(x["reason"] == "crash" for x in reports)'
# CHECK: holds:
