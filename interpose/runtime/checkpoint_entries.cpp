// The checkpoint API behind include/cudaleak.h: named points in time, the
// resources created since one and still alive, and on-demand reports. The
// header finds these symbols with dlsym, so programs also run without cudaleak.
// Apart from checkpoints.cpp (the names, which the runtime object holds) as
// what a program calls: these reach the whole runtime.
#include <cstdio>
#include <string>

#include "interpose/base/entry_frame.h"
#include "interpose/include/cudaleak.h"
#include "interpose/runtime/initialize.h"
#include "interpose/runtime/reporter.h"
#include "interpose/runtime/runtime.h"
#include "interpose/track/tracker.h"

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_checkpoint(const char* name) {
  if (!name) return -1;
  cudaleak::ensure_initialized();
  cudaleak::Runtime& runtime = cudaleak::runtime();
  runtime.checkpoints.set(name, cudaleak::tracker::current_sequence());
  runtime.mark(cudaleak::report::MarkType::Checkpoint, name);
  cudaleak::observe_now();
  return 0;
}

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_leaks_since(const char* name, cudaleak_stats* out) {
  CUDALEAK_ENTRY_FRAME;
  uint64_t since = 0;
  if (!out || !cudaleak::runtime().checkpoints.sequence_of(name, since)) return -1;
  cudaleak::Totals alive = cudaleak::totals(cudaleak::snapshot_since(since));
  *out = cudaleak_stats{alive.count, alive.bytes};
  return 0;
}

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_sequence(unsigned long long* out) {
  if (!out) return -1;
  *out = cudaleak::tracker::current_sequence();
  return 0;
}

// Sequence numbers rather than checkpoints: no mark on the timeline and no
// observation for growth, for windows as frequent as a test suite's fixtures.
extern "C" __attribute__((visibility("default"))) int cudaleak_impl_gate_range(unsigned long long since,
                                                                               unsigned long long until,
                                                                               cudaleak_verdict* out, char* message,
                                                                               unsigned long size) {
  CUDALEAK_ENTRY_FRAME;
  if (!out) return -1;
  *out = cudaleak_verdict{};
  if (message && size) message[0] = '\0';
  if (until <= since) return 0;  // nothing created in between: no snapshot to take
  cudaleak::Verdict v = cudaleak::judge_since(since, until);
  *out = cudaleak_verdict{};
  out->alive = cudaleak_stats{v.alive.count, v.alive.bytes};
  out->failing = cudaleak_stats{v.failing.count, v.failing.bytes};
  std::snprintf(out->file, sizeof out->file, "%s", v.file.c_str());
  out->line = v.line;
  if (message && size) std::snprintf(message, size, "%s", v.failures.c_str());
  return 0;
}

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_gate_since(const char* name, cudaleak_verdict* out,
                                                                               char* message, unsigned long size) {
  uint64_t since = 0;
  if (!out || !cudaleak::runtime().checkpoints.sequence_of(name, since)) return -1;
  return cudaleak_impl_gate_range(since, UINT64_MAX, out, message, size);
}

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_report(const char* name) {
  CUDALEAK_ENTRY_FRAME;
  cudaleak::note_cuda_seen();  // asked for explicitly: write even before any CUDA call
  return cudaleak::write_report(cudaleak::Reason::Checkpoint, name ? name : "").written ? 0 : -1;
}

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_requests(unsigned long long n) {
  cudaleak::tracker::count_requests(n);
  return 0;
}
