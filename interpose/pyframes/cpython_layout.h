// Where CPython keeps what a frame walk needs, per minor version (x86-64).
// Offsets come from each version's own headers (offsetof against
// Include/internal with Py_BUILD_CORE); they hold for every patch release of a
// minor version. A version not listed here gets no Python frames.
#pragma once
#include <cstddef>

namespace cudaleak::pyframes {

enum class FrameChain {
  FrameObjects,  // 3.9-3.10: PyThreadState.frame -> PyFrameObject.f_back
  CFrame,        // 3.11-3.12: PyThreadState.cframe->current_frame -> _PyInterpreterFrame.previous
  CurrentFrame,  // 3.13: PyThreadState.current_frame -> _PyInterpreterFrame.previous
};

// How the interpreter marks the first frame of one C-level call into the
// eval loop (one native _PyEval_EvalFrameDefault frame).
enum class EntryMark {
  EveryFrame,   // 3.9-3.10: each frame object has its own eval call
  IsEntryFlag,  // 3.11: bool is_entry on that frame
  ShimOwner,    // 3.12+: a shim frame owned by the C stack sits below it
};

// How a frame says which instruction runs.
enum class InstructionField {
  LastiBytes,       // int f_lasti, a byte offset (3.9)
  LastiUnits,       // int f_lasti, in 2-byte code units (3.10)
  PointerIntoCode,  // pointer into the code object's co_code_adaptive (3.11+)
};

struct CPythonLayout {
  int minor = 0;
  FrameChain chain = FrameChain::FrameObjects;
  EntryMark entry = EntryMark::EveryFrame;
  InstructionField instruction = InstructionField::LastiBytes;
  size_t thread_frame = 0;    // PyThreadState: frame, cframe or current_frame
  size_t cframe_current = 0;  // _PyCFrame.current_frame (CFrame chain only)
  size_t frame_code = 0;      // f_code / f_executable
  size_t frame_previous = 0;  // f_back / previous
  size_t frame_instruction = 0;
  size_t frame_entry = 0;  // is_entry (3.11) or owner (3.12+)
  size_t code_filename = 0;
  size_t code_name = 0;
  size_t code_qualname = 0;      // 0 before 3.11 (no co_qualname)
  size_t code_instructions = 0;  // co_code_adaptive, 3.11+
  size_t ascii_header = 0;       // sizeof(PyASCIIObject): compact ASCII text follows
  size_t compact_header = 0;     // sizeof(PyCompactUnicodeObject): other compact text follows
};

// nullptr for versions without a table.
const CPythonLayout* layout_for(int major, int minor);

inline constexpr char kShimOwner = 3;  // FRAME_OWNED_BY_CSTACK, 3.12 and 3.13

}  // namespace cudaleak::pyframes
