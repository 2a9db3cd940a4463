# The plugin's wheel requires nothing (pytest is its extra [pytest]), so it
# installs offline into a fresh venv with no pytest in it (once: no
# matching distribution for pytest>=6).
# REQUIRES: venv, ensurepip
# ENV: PIP_DISABLE_PIP_VERSION_CHECK=1
# RUN: %python -m venv %t/venv && %t/venv/bin/pip install -q --no-index %build/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl
# RUN: %t/venv/bin/pip show pytest-cudaleak
# CHECK: Name: pytest-cudaleak
# CHECK-RE: \nRequires: \n
