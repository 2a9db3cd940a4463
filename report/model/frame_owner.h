// Whose code a frame is: the user's own, or a library's. The one answer for
// every place that names "the user's line": the text's stacks and headline,
// the out-of-memory diagnosis ("made in"), per-tensor lines, suggested
// suppressions, leak sites (baselines), SARIF and JUnit locations,
// `--by function` and `--by file`, and the HTML page (which is handed this
// answer with the report rather than keeping rules of its own).
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

enum class FrameOwner {
  User,             // the program's own code
  Cuda,             // NVIDIA's libraries, a public CUDA API, static cudart's internals, nvcc's launch stubs
  CudaHeaders,      // the CUDA toolkit's headers compiled into the program: cuda_runtime.h's template
                    // wrappers (cudaMalloc<float>), thrust, cub, libcu++
  System,           // libc, ld.so, libstdc++, libgcc_s, libffi, the system's and compiler's headers
  Interpreter,      // the Python interpreter and ctypes: they carry a call from Python into C
  InstalledPython,  // Python's standard library, site-packages and dist-packages, frozen modules
  Framework,        // native frameworks (libtorch, c10, XLA, CuPy, RMM), extension modules installed
                    // under site-packages, code PyTorch generates (Inductor, FX)
  Cudaleak,         // cudaleak's own library and Python modules
};

FrameOwner owner_of(const Frame& frame);
inline bool is_library_frame(const Frame& frame) { return owner_of(frame) != FrameOwner::User; }
// The name each owner has where the HTML page is told ("user", "cuda_headers", ...).
const char* owner_name(FrameOwner owner);

// A frame of Python code: one the interpreter reported, or one that names a
// .py file (PyTorch's per-tensor stacks come without a language).
bool is_python_code(const Frame& frame);

// A file of the CUDA toolkit's headers, wherever the toolkit is installed and
// also when the path is relative: .../cuda*/include/, .../targets/<arch>/include/,
// thrust/, cub/, cuda/std/ (libcu++), crt/, cuda_runtime.h and its siblings.
bool in_cuda_headers(const std::string& file);

// The user's frames, innermost first: those owner_of calls User. In a stack
// with Python code, the user's Python frames where there are any (the
// interpreter and the extension modules between them say nothing of the
// program), else the user's native ones (a library the script loaded).
std::vector<const Frame*> user_frames(const std::vector<Frame>& stack);
// user_frames, or where a stack has none, the frames of installed code that
// still say where (installed Python, a framework's native code); never the
// CUDA toolkit's, the C runtime's, libffi's or the interpreter's. One rule
// for sites, OOM "where", CI locations, views and suggested suppressions.
std::vector<const Frame*> program_frames(const std::vector<Frame>& stack);
// "The user's line": the first of program_frames with a function name (a
// user's frame when there is one); nullptr when none names one.
const Frame* user_frame(const std::vector<Frame>& stack);

// The C and C++ runtime (libc, ld.so, libstdc++, libgcc_s, libffi, _start):
// they differ between machines and say nothing about the program.
bool is_system_frame(const Frame& frame);
// Python code that came installed rather than written by the user.
bool is_installed_python(const Frame& frame);

}  // namespace cudaleak::report
