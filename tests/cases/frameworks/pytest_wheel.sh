# The plugin's wheel (lib/cudaleak/python in the build) installs with pip,
# offline, into a venv that sees the system's pytest, and pytest loads it by
# its pytest11 entry point: no -p, and the plugin's folder not on PYTHONPATH.
# Here only: a GPU machine's python3 may itself be a venv, whose packages a
# nested one does not see (frameworks/pytest_per_test_gate.sh installs the
# wheel there).
# REQUIRES: simulated, pytest, venv, ensurepip
# ENV: PIP_DISABLE_PIP_VERSION_CHECK=1
# ENV: PYTHONDONTWRITEBYTECODE=1
# RUN: %python -m venv --system-site-packages %t/venv && %t/venv/bin/pip install -q --no-index %build/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl
# RUN(exit=1): cd %root && %run -o %t/reports/r.%p.json -- %t/venv/bin/python -m pytest -q -p no:cacheprovider tests/e2e/frameworks/test_cuda_ctypes.py
# CHECK: cudaleak: 1 CUDA resource (1048576 bytes) created by this test is still alive
# CHECK: 1 failed, 1 passed
