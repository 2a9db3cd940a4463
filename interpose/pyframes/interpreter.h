// The CPython interpreter of this process, found at run time (a statically
// linked python3 or a loaded libpython3.x.so; cudaleak never links to it), and
// a walk of the calling thread's Python frames that runs no Python code,
// creates no Python object and writes no interpreter memory: a hook must not
// start a garbage collection whose finalizers free CUDA memory re-entrantly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "interpose/pyframes/cpython_layout.h"

namespace cudaleak::pyframes {

struct Interpreter {
  const CPythonLayout* layout = nullptr;
  std::string version;                                            // "3.12.3"
  void* (*this_thread_state)() = nullptr;                         // PyGILState_GetThisThreadState
  int (*is_initialized)() = nullptr;                              // Py_IsInitialized
  int (*addr2line)(const void* code, int byte_offset) = nullptr;  // PyCode_Addr2Line
  const void* code_type = nullptr;                                // &PyCode_Type
  const void* unicode_type = nullptr;                             // &PyUnicode_Type
  uintptr_t eval_begin = 0, eval_end = 0;                         // _PyEval_EvalFrameDefault
  uintptr_t code_begin = 0, code_end = 0;                         // executable segments of the object that holds it
};

// What a report says about Python in the process.
struct Status {
  bool present = false;  // an interpreter is loaded
  bool frames = false;   // its frames are read
  std::string version;
  std::string note;  // why frames are not read, when they are not
};

// Looked up once, on first use; nullptr when there is no interpreter or its
// version has no layout (status() says which).
const Interpreter* interpreter();
Status status();

// One Python frame as the interpreter holds it: the code object and the byte
// offset of the instruction that runs (or called out).
struct RawFrame {
  const void* code = nullptr;
  int byte_offset = -1;
  bool last_of_eval_call = false;  // the outermost frame of one native eval-loop frame
};

// The calling thread's Python frames, innermost first; 0 when it runs none.
// The thread needs no GIL for this: only its own chain is read, which changes
// only when this thread runs Python. Returns SIZE_MAX when a frame does not
// look like the layout says (the walk is abandoned, nothing is trusted).
size_t walk_this_thread(const Interpreter& py, RawFrame* out, size_t capacity);

// File, function (qualified where the version has it) of a code object and
// the line of an offset in it. Reads the interpreter's compact strings only.
struct CodeText {
  std::string file;
  std::string function;
  const void* filename_object = nullptr;  // identity, to check a cached code address
  const void* name_object = nullptr;
};
void read_code(const Interpreter& py, const void* code, CodeText& out);
// The file and name objects alone (no text copied): a code object's identity.
void code_identity(const Interpreter& py, const void* code, const void*& filename_object, const void*& name_object);
int line_of(const Interpreter& py, const void* code, int byte_offset);

}  // namespace cudaleak::pyframes
