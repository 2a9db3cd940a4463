#include "interpose/pyframes/cpython_layout.h"

namespace cudaleak::pyframes {

namespace {

// Measured with offsetof against the installed headers of CPython 3.9.18,
// 3.10.13, 3.11.7, 3.12.1 and 3.13.0 (tests/e2e/programs/cpython_offsets.c
// prints them; the e2e test compares every interpreter it finds with this table).
constexpr CPythonLayout kLayouts[] = {
    {9, FrameChain::FrameObjects, EntryMark::EveryFrame, InstructionField::LastiBytes,
     /*thread_frame*/ 24, 0, /*code*/ 32, /*previous*/ 24, /*instruction*/ 104, 0,
     /*filename*/ 104, /*name*/ 112, 0, 0, /*ascii*/ 48, /*compact*/ 72},
    {10, FrameChain::FrameObjects, EntryMark::EveryFrame, InstructionField::LastiUnits, 24, 0, 32, 24, 96, 0, 104, 112,
     0, 0, 48, 72},
    {11, FrameChain::CFrame, EntryMark::IsEntryFlag, InstructionField::PointerIntoCode,
     /*cframe*/ 56, /*current_frame*/ 8, /*f_code*/ 32, /*previous*/ 48, /*prev_instr*/ 56, /*is_entry*/ 68, 112, 120,
     /*qualname*/ 128, /*co_code_adaptive*/ 184, 48, 72},
    {12, FrameChain::CFrame, EntryMark::ShimOwner, InstructionField::PointerIntoCode, 56, 0, 0, 8, 56, /*owner*/ 70,
     112, 120, 128, 192, 40, 56},
    {13, FrameChain::CurrentFrame, EntryMark::ShimOwner, InstructionField::PointerIntoCode,
     /*current_frame*/ 72, 0, /*f_executable*/ 0, 8, /*instr_ptr*/ 56, 70, 112, 120, 128, 200, 40, 56},
};

}  // namespace

const CPythonLayout* layout_for(int major, int minor) {
  if (major != 3) return nullptr;
  for (const auto& l : kLayouts)
    if (l.minor == minor) return &l;
  return nullptr;
}

}  // namespace cudaleak::pyframes
