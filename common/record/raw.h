// What the tracker hands to the report builder: resources as recorded, with
// stacks as interned ids. Grouping, API attribution and symbolization happen in
// the builder (report/model/builder.h), so that policy lives in one place and
// is testable without a GPU. On the floor under both halves: recording fills
// these and needs nothing of the report model above.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/enum_names.h"
#include "common/kinds.h"
#include "common/record/frame.h"
#include "common/record/primary_context.h"
#include "common/record/reachability_scan.h"
#include "common/record/record.h"

namespace cudaleak::report {

struct RawNote {
  NoteType type = NoteType::UnknownRelease;
  const char* hook = "";
  uint64_t handle = 0;
  int result = 0;
  uint32_t stack_id = 0;
  uint64_t count = 1;
};

// A context limit the program set (cuCtxSetLimit), as the tracker keeps it:
// the latest per context and limit.
struct RawReservation {
  int limit = 0;  // CUlimit
  uint64_t value = 0, bytes = 0, threads = 0;
  uint64_t context = 0;
  uint64_t time_ns = 0;
  int device = -1;
  uint32_t stack_id = 0;
  const char* hook = "";
};

// A memory pool the program created, as the tracker counts it
// (interpose/track/pool_ledger.h): its live stream-ordered bytes, their most
// since creation or the last trim, and the release threshold the program set.
struct RawPool {
  uint64_t handle = 0;
  uint64_t used = 0, high = 0;
  uint64_t threshold = 0;
  bool threshold_set = false;
  uint32_t threshold_stack = 0;
  const char* threshold_hook = "";
};

// A site of the timeline: the kind and the interned stack that created it,
// named in the report as leak groups are.
struct RawSite {
  Kind kind;
  uint32_t stack_id;
};
// A group live at a device's peak, by (kind, stack id).
struct RawPeakGroup {
  Kind kind;
  uint32_t stack_id;
  uint64_t bytes, count;
};

// Where the reachability scan found the first reference to a resource.
enum class ReachRoot : uint8_t { None, Global, Stack, ThreadLocal };
struct RawReach {
  uint64_t sequence = 0;  // the record's
  Reachability state = Reachability::NotScanned;
  ReachRoot root = ReachRoot::None;
  uint64_t root_address = 0;  // the global's word that held the reference, or led to the heap block that did
  std::string module;         // a global's module, as the loader names it (the executable: its path)
  bool via_heap = false;
  bool interior = false;  // a pointer inside the range, not to its start
};

struct RawSnapshot {
  // Every resource alive, and those torn down with their context (Record::teardown).
  std::vector<Record> resources;
  // What a record's api and teardown name, by index: the entry points of
  // the process's hook table, "malloc" (a kernel's), how contexts were torn down.
  std::vector<const char*> names;
  std::vector<RawNote> notes;
  uint64_t notes_total = 0;
  std::vector<PrimaryContext> primary_contexts;
  std::vector<RawReservation> reservations;
  std::vector<RawPool> pools;                      // pools alive, by what the tracker counted
  std::vector<std::string> device_malloc_modules;  // Report::device_malloc_modules
  // The reachability scan's findings, by record sequence (sorted), when it ran.
  std::vector<RawReach> reach;
  bool reach_scanned = false;
  ReachabilityScan reach_scan;
  const RawReach* reach_of(const Record& r) const;

  const char* name(uint16_t index) const { return index < names.size() ? names[index] : ""; }
  // The entry point that created `r`, or "".
  const char* hook_of(const Record& r) const { return name(r.api); }
  // What tore `r` down with its context; nullptr while it lives.
  const char* released_by(const Record& r) const { return r.torn_down() ? name(r.teardown) : nullptr; }
  // The index of `text` in names, added when new.
  uint16_t intern(const char* text);
};

// Raw instruction pointers of an interned stack, innermost first.
using StackLookup = std::function<std::span<const uint64_t>(uint32_t stack_id)>;

class FrameResolver {
 public:
  virtual ~FrameResolver() = default;
  // return_address: ip is a return address (every frame but the innermost), so
  // the call instruction is at ip - 1. One ip gives several frames where
  // functions were inlined: innermost first, all but the last marked inlined.
  virtual std::vector<Frame> resolve(uint64_t ip, bool return_address) = 0;
};

}  // namespace cudaleak::report
