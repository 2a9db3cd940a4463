// The preload library's second entry, beside in_process.h: an out-of-memory
// told in process. At the failing call the runtime measures the device and
// this process (interpose/runtime/oom.cpp) and keeps a RawOom; what the
// report's rules decide there (which caching allocator made the call, which
// held calls a failure ends, whose blocks PyTorch's live tensors are) and, at
// a report, the event with its stacks resolved, its causes decided
// (report/oom) and said (report/render) come from here. interpose/ calls
// these functions instead of the builder, the story's folding, the gate's
// list of allocators and the renderers; what this header includes of
// report/oom is for the types a RawOom holds and the retry window
// (tests/layers/check_layers.py lists who may include it).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/kinds.h"
#include "common/record/frame.h"
#include "common/record/raw.h"
#include "report/model/report.h"
#include "report/oom/oom_story.h"
#include "report/oom/tensor_owners.h"

namespace cudaleak::report {

// What an event keeps of a call site holding memory on the failing device,
// until a report resolves its stack.
struct RawOomSite {
  Kind kind;
  uint32_t stack_id;
  const char* hook;
  uint64_t bytes = 0, count = 0, first_ns = UINT64_MAX, last_ns = 0;
};
// A failed call that a later failure ended (oom_story.h).
struct RawOomAttempt {
  OomEvent event;  // time, api, request, device info
  uint32_t stack_id = 0;
};
// An out-of-memory as measured at the failure: everything but stacks and where.
struct RawOom {
  OomEvent event;
  uint32_t stack_id = 0;
  std::vector<RawOomSite> sites;
  std::string cache;  // the caching allocator that made the failed call; empty: none known
  std::vector<RawOomAttempt> attempts;
  std::vector<OwnedBlocks> owned;            // PyTorch's live blocks by the allocation holding them
  std::vector<RawReservation> reservations;  // limits set on the failing device
  std::vector<Frame> python_stack;           // JAX's failure: the Python frames it was raised in
};

// The api of the events the frameworks' own failures make.
inline constexpr const char* kPyTorchApi = "PyTorch caching allocator";
inline constexpr const char* kJaxApi = "XLA (JAX)";

// Attempts further apart than this from the failure belong to another story.
using oom::kRetryWindowNs;

// The caching allocator whose code made a failed call with the stack `ips`
// (gate/caching.h); empty when none is known.
std::string caching_allocator_of_call(std::span<const uint64_t> ips, FrameResolver* resolver);

// Whether `held`, a failed call held back for its allocator's retry, is an
// attempt of `later` (oom_story.h's is_attempt, with their allocators).
bool ends_held_call(const RawOom& held, const RawOom& later);

// PyTorch's live blocks on `device` without a stack of their own, by the
// tracked allocation of `snapshot` that holds them (tensor_owners.h).
std::vector<OwnedBlocks> tensor_blocks_by_owner(const AllocatorDevice& view, const RawSnapshot& snapshot, int device);

// The event of `raw` as a report keeps it: its stacks, those of its
// attempts, sites and reservations resolved (`stack_of` gives an interned
// stack's frames), the frameworks' own frames left out, each API named by
// its outermost CUDA frame, PyTorch's blocks attributed, and its causes
// decided and each one's sentence said (kept as `message`).
OomEvent told_event(const RawOom& raw, const std::function<std::vector<uint64_t>(uint32_t stack_id)>& stack_of,
                    FrameResolver* resolver);

}  // namespace cudaleak::report
