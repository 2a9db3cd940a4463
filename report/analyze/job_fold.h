// A job of many ranks read as one: what the ranks have in common folded into
// one story with a list of ranks, and the ranks unlike the rest found first.
// The text report's job view (render/job_text.cpp) says what these find.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/analyze/job.h"
#include "report/model/report.h"

namespace cudaleak::report {

// A list of ranks that stays short however many: "0-3,5-7" while it has few
// runs, "1-1023 odd", "0-1020 every 4th", "1-1023 odd but 9,11,13,15", else
// its first and last runs around "..." (the caller says how many).
std::string rank_list(std::vector<int> ranks);
// Host names the same way: "a, b", "node[000-063,065-127]" (SLURM's hostlist
// notation for names that end in numbers), cut with "..." past a line's width.
std::string host_list(std::vector<std::string> hosts);

// The smallest, median and largest of some values.
struct Spread {
  uint64_t min = 0, median = 0, max = 0;
  size_t n = 0;
};
Spread spread_of(std::vector<uint64_t> values);

// Out-of-memory events (not recovered, of ranked processes) of the same call
// (API and the user's line) with the same causes in the same order: one story.
struct OomStory {
  std::vector<size_t> events;  // in oom_events, earliest first: events[0] is the story's first failure
  std::vector<int> ranks;      // sorted, each once
  std::vector<std::string> hosts;
};
// What makes two events one story: the API, the user's line and the causes in order.
std::string oom_story_key(const OomEvent& e);
// Stories in the order of their first failure.
std::vector<OomStory> oom_stories(const Report& merged);


// Ranks that held the same at that moment (bytes as text, so that ranks that
// print the same are one), and whether they ran out of memory themselves.
struct MomentBucket {
  uint64_t bytes = 0;  // the first member's
  bool known = true;
  bool failed = false;
  bool ended = false;  // their processes had ended before the moment
  std::vector<int> ranks;
};
// A rank's device in a job, as its report names it.
struct RankDevice {
  int64_t pid = 0;
  int rank = -1;
  int device = -1;
};
// How many GPUs the members are on: each is its host and the device's UUID
// where its report read one (ordinals are per process under
// CUDA_VISIBLE_DEVICES: eight ranks that each say "device 0" may be on two
// GPUs, or eight). Without UUIDs, ordinals that differ on a host are
// different GPUs, and ordinals that repeat there cannot be told apart:
// nullopt then, and the text says nothing of the devices.
std::optional<size_t> devices_among(const Report& merged, const std::vector<RankDevice>& members);

struct OthersSummary {
  std::vector<MomentBucket> buckets;     // most ranks first
  Spread held;                           // of the ranks whose timeline covers the moment
  std::vector<RankMoment> standing_out;  // far above the rest, highest first (at most 3)
};
OthersSummary summarize_others(const std::vector<RankMoment>& others);

// A framework's views of several ranks read alike: the same moment and the
// same live-tensor origins (PyTorch), the same moment (CuPy).
struct ViewFold {
  ViewMoment when = ViewMoment::Exit;
  std::vector<size_t> members;  // in pytorch.devices or cupy_processes
  std::vector<int> ranks;
};
// When a merged process's view was taken: at its out-of-memory when its
// report was written there, else as the merged view says.
ViewMoment moment_of(const Report& merged, int pid, int rank, ViewMoment stated);
// `origin(i)`: what makes member i's view alike another's beyond its moment.
std::vector<ViewFold> fold_pytorch(const Report& merged, std::string (*origin)(const AllocatorDevice&));
std::vector<ViewFold> fold_cupy(const Report& merged);
// JAX's devices (jax.devices) by the moment each was read.
std::vector<ViewFold> fold_jax(const Report& merged);

// A rank unlike the rest, with the numbers that show it.
struct OddRank {
  // HeldArrays: JAX's live arrays far above the other ranks' (a pool taken
  // whole up front keeps the timeline flat while the arrays in it grow).
  enum class Why { Grew, OtherProcess, OwnLeak, HeldArrays } why = Why::Grew;
  int rank = -1;
  int64_t pid = 0;
  std::string host;
  int device = -1;
  uint64_t bytes =
      0;  // its peak (Grew), the other process's (OtherProcess), the group's (OwnLeak), its arrays' (HeldArrays)
  uint64_t median_bytes = 0;                            // the median rank's peak (Grew) or arrays (HeldArrays)
  uint64_t first_bytes = 0, first_ns = 0, peak_ns = 0;  // Grew: where its timeline started and peaked
  std::vector<int> ranks;  // OtherProcess: the host's ranks that ran out of memory beside it
  std::string other_name;  // OtherProcess: its name; OwnLeak: unused
  int other_pid = 0;
  size_t group = 0;          // OwnLeak: in leaks; HeldArrays: in jax.devices
  size_t hosts_without = 0;  // OtherProcess: hosts whose ranks ran out of memory without one
};
// At most a few of each, most telling first; none in a job of fewer than 3 ranks.
std::vector<OddRank> odd_ranks(const Report& merged);

}  // namespace cudaleak::report
