# Code whose function and file names carry control characters, as any Python
# program can give its code: a terminal title change and a screen clear in the
# file name; a newline that would forge a suppression rule and a "hide the
# rest" escape in the function name. cudaleak must print them escaped.
import ctypes

cudart = ctypes.CDLL("libcudart.so.13")

SOURCE = (
    "def hostile():\n"
    "    p = ctypes.c_void_p()\n"
    "    cudart.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(1 << 20))\n"
    "    return p\n"
)
namespace = {"ctypes": ctypes, "cudart": cudart}
exec(compile(SOURCE, "evil\x1b]0;pwned\x07\x1b[2J.py", "exec"), namespace)
hostile = namespace["hostile"]
name = "hostile\nleak:* kind:device\x1b[8m\x9b"
changes = {"co_name": name}
if hasattr(hostile.__code__, "co_qualname"):
    changes["co_qualname"] = name
hostile.__code__ = hostile.__code__.replace(**changes)
kept = hostile()
print("leaked through a hostile name")
