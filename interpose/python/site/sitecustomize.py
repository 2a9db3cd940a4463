# Put on PYTHONPATH by `cudaleak run` (or by hand next to LD_PRELOAD, see
# docs/python.md): imported by every interpreter at start-up. It arms
# cudaleak_torch, which asks PyTorch to record its allocator state once the
# program itself uses CUDA, cudaleak_jax, which explains XLA's out-of-memory
# and sends JAX's live arrays by line, and cudaleak_cupy, which sends CuPy's
# pool numbers at exit, and then hands on to the sitecustomize the
# program would have imported without cudaleak.
import sys as _sys


def _cudaleak_arm():
    try:
        import cudaleak_torch
        cudaleak_torch.arm()
    except Exception as e:  # never change the program's behaviour
        _sys.stderr.write("cudaleak: PyTorch view not armed: %s\n" % e)
    try:
        import cudaleak_jax
        cudaleak_jax.arm()
    except Exception as e:
        _sys.stderr.write("cudaleak: JAX view not armed: %s\n" % e)
    try:
        import cudaleak_cupy
        cudaleak_cupy.arm()
    except Exception as e:
        _sys.stderr.write("cudaleak: CuPy pool numbers not armed: %s\n" % e)


def _chain_next_sitecustomize():
    import importlib.util
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in _sys.path:
        try:
            if os.path.abspath(entry or ".") == here:
                continue
            candidate = os.path.join(entry or ".", "sitecustomize.py")
            if not os.path.isfile(candidate):
                continue
        except Exception:
            continue
        spec = importlib.util.spec_from_file_location("sitecustomize", candidate)
        module = importlib.util.module_from_spec(spec)
        _sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)  # its errors are the program's, as without cudaleak
        return


_cudaleak_arm()
_chain_next_sitecustomize()
