# Without a GPU and without --simulated-gpu the launcher says what is
# missing, exactly when libcuda.so.1 cannot be loaded (CI: none); with the
# simulated GPU there is a driver: no hint.
# REQUIRES: simulated
# RUN: %cudaleak run -o %t/r.json -- /bin/true 2> %t/err.txt; echo status=$?; if %python -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then d=1; else d=0; fi; if grep -q 'no CUDA driver (libcuda.so.1 not found); to try cudaleak without a GPU: cudaleak run --simulated-gpu -- PROGRAM' %t/err.txt; then h=1; else h=0; fi; [ $d != $h ] && echo "hint exactly without a driver"
# CHECK: status=0
# CHECK: hint exactly without a driver
# RUN: %run -o %t/s.json -- /bin/true
# CHECK-NONE: no CUDA driver
