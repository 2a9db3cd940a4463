// The names the report gives the model's enums (docs/report-format.md): one
// table per enum, used in both directions, by the JSON reader and writer, the
// text and HTML renderings and the command line. Nothing else spells them.
#pragma once
#include <string>
#include <string_view>

#include "common/kinds.h"

namespace cudaleak::report {

// Why a report was written.
enum class Reason : uint8_t {
  Exit,         // the process exited
  Signal,       // a snapshot asked for by a signal
  Termination,  // SIGTERM, SIGINT or SIGHUP ended it
  Crash,        // built afterwards from a crash capture
  Checkpoint,   // cudaleak_report
  Oom,          // an allocation failed with out-of-memory
  Merged,       // cudaleak merge / several reports read as one
};

// What an out-of-memory diagnosis blames (docs/oom.md).
enum class Cause : uint8_t {
  RequestTooLarge,
  AllocatorLimit,
  Fragmentation,
  LiveTensors,
  CachedFree,
  OtherProcesses,
  HeldByCache,
  AccumulatingLeak,
  HeldByProcess,
  CachedInPools,
  Untracked,
  ContextReservation,  // a limit the program set (device heap, thread stacks) reserves the memory
  PoolLimit,           // XLA's pool is limited to a share of the device the program outgrew
  CompiledPeak,        // a jitted function's own buffers do not fit at once
};

// What a note tells (docs/report-format.md#notes). In the order of their
// names: the tracker keeps notes in a map keyed by type first, and a report
// lists them in that map's order.
enum class NoteType : uint8_t {
  ContextMismatch,      // check_context: placed on another context than the driver's current one
  ContextUnseen,        // check_context: nothing learned named a context, the driver was asked
  DeviceHeapExhausted,  // device_heap: device-side mallocs that returned NULL
  DeviceMismatch,       // check_context: the right context, another device
  UnknownRelease,       // a release of a pointer or handle cudaleak never saw created
};

// A moment the program marked on the timeline (docs/report-format.md#timeline).
enum class MarkType : uint8_t {
  Checkpoint,  // cudaleak_checkpoint
  Report,      // cudaleak_report
  Snapshot,    // a report asked for by a signal
  Limit,       // a context limit the program set (cuCtxSetLimit, cudaDeviceSetLimit)
};

// A leak group against the baseline given (docs/ci.md#baselines).
enum class BaselineState : uint8_t {
  None,   // no baseline was given: not written, and no name the reader takes
  New,    // its site is not in the baseline
  Grown,  // more bytes or resources than the baseline holds for its site
  Known,  // in the baseline
};

// Whether a live resource was still referenced from the program's memory
// when the report was written (docs/ci.md#lost-or-still-reachable).
enum class Reachability : uint8_t {
  NotScanned,      // no scan (crash captures, reachability=false, older reports): not written
  DefinitelyLost,  // no reference left in globals, stacks or the memory they reach
  StillReachable,  // a reference found
  NotDetermined,   // the scan stopped early, or cannot see such references
};

// A leak site between two runs (cudaleak diff), in the order a diff lists them.
enum class Change : uint8_t { New, Grown, Gone, Shrunk, Same };

// When a framework's view of its allocator (PyTorch, CuPy) was taken.
enum class ViewMoment : uint8_t { Exit, Oom, Snapshot };

std::string_view name_of(Kind kind);
std::string_view name_of(Reason reason);
std::string_view name_of(Cause cause);
std::string_view name_of(NoteType type);
std::string_view name_of(MarkType type);
std::string_view name_of(BaselineState state);        // None: ""
std::string_view name_of(Reachability reachability);  // NotScanned: ""
std::string_view name_of(Change change);
std::string_view name_of(ViewMoment moment);
// What a value of the enum is called in an error ("unknown cause ...").
constexpr const char* noun_of(Kind) { return "kind"; }
constexpr const char* noun_of(Reason) { return "reason"; }
constexpr const char* noun_of(Cause) { return "cause"; }
constexpr const char* noun_of(NoteType) { return "note type"; }
constexpr const char* noun_of(MarkType) { return "mark type"; }
constexpr const char* noun_of(BaselineState) { return "baseline state"; }
constexpr const char* noun_of(Reachability) { return "reachability"; }
constexpr const char* noun_of(Change) { return "change"; }
constexpr const char* noun_of(ViewMoment) { return "view moment"; }
// The name as a std::string, for text built with +.
template <class E>
std::string text_of(E value) {
  return std::string(name_of(value));
}
bool parse_name(std::string_view name, Kind& kind);
bool parse_name(std::string_view name, Reason& reason);
bool parse_name(std::string_view name, Cause& cause);
bool parse_name(std::string_view name, NoteType& type);
bool parse_name(std::string_view name, MarkType& type);
bool parse_name(std::string_view name, BaselineState& state);        // never None
bool parse_name(std::string_view name, Reachability& reachability);  // never NotScanned
bool parse_name(std::string_view name, Change& change);
bool parse_name(std::string_view name, ViewMoment& moment);

}  // namespace cudaleak::report
