#include <algorithm>

#include "common/quantities.h"
#include <cstring>
#include <map>
#include <tuple>
#include <unordered_map>

#include "report/model/cuda_frames.h"
#include "report/model/library_handles.h"
#include "report/model/builder.h"
#include "report/model/summary.h"

namespace cudaleak::report {

namespace {

class FrameCache {
 public:
  FrameCache(FrameResolver* resolver) : resolver_(resolver) {}
  std::vector<Frame> frames(std::span<const uint64_t> ips) {
    std::vector<Frame> out;
    out.reserve(ips.size());
    for (size_t i = 0; i < ips.size(); ++i) {
      // Every captured frame is a return address: capture starts inside
      // cudaleak, whose own frames are dropped.
      auto key = std::make_pair(ips[i], true);
      auto it = cache_.find(key);
      if (it == cache_.end()) {
        std::vector<Frame> resolved = resolver_ ? resolver_->resolve(ips[i], true) : std::vector<Frame>{};
        if (resolved.empty()) resolved.emplace_back();
        for (Frame& f : resolved) f.ip = ips[i];
        it = cache_.emplace(key, std::move(resolved)).first;
      }
      out.insert(out.end(), it->second.begin(), it->second.end());
    }
    return out;
  }

 private:
  FrameResolver* resolver_;
  std::map<std::pair<uint64_t, bool>, std::vector<Frame>> cache_;
};

const char* released_or_empty(const RawSnapshot& snapshot, const Record& r) {
  const char* by = snapshot.released_by(r);
  return by ? by : "";
}

// (kind, stack, device, teardown reason, API that created the owning library
// handle, reachability): a group is lost or still reachable as a whole, as
// Valgrind's loss records are.
using GroupKey = std::tuple<Kind, uint32_t, int, std::string, std::string, Reachability>;

std::string file_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "g_cache (app)", "a heap block reached from g_cache (app)", "a thread's stack".
std::string describe_reference(const RawReach& reach, FrameResolver* resolver) {
  std::string root;
  if (reach.root == ReachRoot::Global) {
    std::vector<Frame> frames = resolver ? resolver->resolve(reach.root_address, false) : std::vector<Frame>{};
    std::string module = file_name(!frames.empty() && !frames.back().module.empty() ? frames.back().module.str()
                                                                                    : reach.module);
    std::string symbol = frames.empty() ? "" : frames.back().function.str();
    root = symbol.empty() ? "a global variable of " + module : symbol + " (" + module + ")";
  } else if (reach.root == ReachRoot::Stack) {
    root = "a thread's stack";
  } else if (reach.root == ReachRoot::ThreadLocal) {
    root = "thread-local storage";
  }
  if (root.empty()) return "";
  return (reach.via_heap ? "a heap block reached from " + root : root) +
         (reach.interior ? " (a pointer inside it)" : "");
}

// Each library-handle group's `holds`: what the driver made for its handles.
template <typename OwnerOf, typename Skip>
void add_holdings(Report& report, const RawSnapshot& snapshot, const OwnerOf& owner_of, const Skip& skip) {
  std::map<std::tuple<uint32_t, int, std::string>, LeakGroup*> handle_groups;  // (stack, device, teardown)
  for (LeakGroup& g : report.leaks)
    if (g.kind == Kind::LibraryHandle) handle_groups[{g.stack_id, g.device, g.released_by}] = &g;
  for (const Record& r : snapshot.resources) {
    const Record* owner = owner_of(r);
    if (!owner || skip(r)) continue;
    auto it = handle_groups.find({owner->stack_id, owner->device, released_or_empty(snapshot, *owner)});
    if (it == handle_groups.end()) continue;
    KindTotal& t = it->second->holds[r.kind];
    add_saturating(t.bytes, r.bytes);
    ++t.count;
  }
}

// Handles of statically linked libraries (cuBLAS, cuFFT, ... linked with
// their _static archives): their create functions are part of the program and
// never reach cudaleak's exports, so the driver resources made inside one
// are found by the outermost frame of a create function in their stack
// (library_handles.h). Each becomes a member of one library-handle group
// per (create function, the stack that called it, device, teardown), which
// holds them; the handle's stack starts at that caller, as an interposed
// handle's does.
void attribute_by_stack(std::vector<LeakGroup>& leaks) {
  using HandleKey = std::tuple<std::string, std::vector<uint64_t>, int, std::string>;
  std::map<HandleKey, LeakGroup> handles;
  for (LeakGroup& g : leaks) {
    if (g.kind == Kind::LibraryHandle || !g.owner.empty()) continue;
    size_t create = g.stack.size();
    for (size_t i = 0; i < g.stack.size(); ++i)
      if (!g.stack[i].python && is_library_create(plain_name(g.stack[i].function))) create = i;
    if (create == g.stack.size()) continue;
    g.owner = plain_name(g.stack[create].function);
    std::vector<Frame> outward(g.stack.begin() + long(create) + 1, g.stack.end());
    std::vector<uint64_t> ips;
    for (const Frame& f : outward) ips.push_back(f.ip);
    LeakGroup& handle = handles[HandleKey{g.owner, ips, g.device, g.released_by}];
    if (!handle.attributed_by_stack) {
      handle.kind = Kind::LibraryHandle;
      handle.api = g.owner;
      handle.device = g.device;
      handle.released_by = g.released_by;
      handle.stack = std::move(outward);
      handle.attributed_by_stack = true;
    }
    KindTotal& t = handle.holds[g.kind];
    add_saturating(t.bytes, g.bytes);
    t.count += g.count;
  }
  for (auto& [key, handle] : handles) leaks.push_back(std::move(handle));
}

// Memory and handles a library makes later for its live handles, inside
// calls that take a handle (cublasSgemm's workspace, cuFFT's execution) or on
// threads of its own (NCCL's proxy service mapping a communicator's
// buffers), outside any scope a create or use hook opened: found by the
// outermost frame of the library's object in their stack, and held by a live
// handle of that library (on their device when one is), as what its create
// made. Without a live handle of the library they stay leaks of their own.
void attribute_library_work(std::vector<LeakGroup>& leaks) {
  for (LeakGroup& g : leaks) {
    if (g.kind == Kind::LibraryHandle || !g.owner.empty()) continue;
    std::string_view library;
    bool to_caller = false;
    for (const Frame& f : g.stack) {
      if (f.python) continue;
      if (std::string_view l = library_of_module(f.module); !l.empty()) library = l;
      to_caller = to_caller || gives_memory_to_caller(plain_name(f.function));
    }
    if (library.empty() || to_caller) continue;
    LeakGroup* holder = nullptr;
    for (LeakGroup& h : leaks)
      if (h.kind == Kind::LibraryHandle && h.released_by.empty() && handle_of_library(h.api, library) &&
          (!holder || (holder->device != g.device && h.device == g.device)))
        holder = &h;
    if (!holder) continue;
    g.owner = holder->api;
    KindTotal& t = holder->holds[g.kind];
    add_saturating(t.bytes, g.bytes);
    t.count += g.count;
  }
}

// What a group of live pools keeps (PoolHolding says how it is reckoned),
// from what the tracker counted for each.
void add_pool_holding(LeakGroup& g, const Record& r, const RawSnapshot& snapshot, const StackLookup& stacks,
                      FrameCache& cache) {
  for (const RawPool& p : snapshot.pools) {
    if (p.handle != r.handle) continue;
    PoolHolding& h = g.pool;
    g.has_pool = true;
    const uint64_t kept = p.threshold_set ? std::max(p.used, std::min(p.high, p.threshold)) : p.used;
    add_saturating(h.reserved, kept);
    add_saturating(h.used, p.used);
    add_saturating(h.high_water, p.high);
    if (p.threshold_set && !h.threshold_set) {  // the first pool's, as the group's stack is its first member's
      h.threshold_set = true;
      h.release_threshold = p.threshold;
      h.threshold_stack = cache.frames(stacks(p.threshold_stack));
      h.threshold_api = outermost_api(h.threshold_stack, p.threshold_hook);
    }
    return;
  }
}

}  // namespace

std::vector<Frame> resolve_stack(std::span<const uint64_t> ips, FrameResolver* resolver) {
  return FrameCache(resolver).frames(ips);
}

std::string limit_name(int limit) {
  switch (limit) {
    case 0: return "stack_size";
    case 1: return "printf_fifo_size";
    case 2: return "malloc_heap_size";
    case 3: return "dev_runtime_sync_depth";
    case 4: return "dev_runtime_pending_launch_count";
    default: return "limit_" + std::to_string(limit);
  }
}

Reservation resolve_reservation(const RawReservation& raw, std::vector<Frame> stack) {
  Reservation v;
  v.limit = limit_name(raw.limit);
  v.value = raw.value;
  v.bytes = raw.bytes;
  v.threads = raw.threads;
  v.device = raw.device;
  v.context = raw.context;
  v.time_ns = raw.time_ns;
  v.stack = std::move(stack);
  v.api = outermost_api(v.stack, raw.hook);
  return v;
}

std::string outermost_api(const std::vector<Frame>& stack, const std::string& hook) {
  std::string api;
  for (const Frame& frame : stack) {
    if (is_cuda_api_name(frame.function)) {
      api = plain_name(frame.function);
    } else if (!api.empty() && !in_cuda_library(frame.module)) {
      break;  // first frame of the program after the API block
    }
  }
  return api.empty() ? hook : api;
}

Report build_report(const RawSnapshot& snapshot, const StackLookup& stacks, FrameResolver* resolver,
                    const BuildOptions& options) {
  Report report;
  FrameCache cache(resolver);

  // Library handles still alive, by the scope their creation opened: what
  // the driver made inside that scope is theirs.
  std::unordered_map<uint32_t, const Record*> handle_of_scope;
  for (const Record& r : snapshot.resources)
    if (r.kind == Kind::LibraryHandle && r.scope) handle_of_scope.emplace(r.scope, &r);
  auto owner_of = [&](const Record& r) -> const Record* {
    if (r.kind == Kind::LibraryHandle || !r.scope) return nullptr;
    auto it = handle_of_scope.find(r.scope);
    return it == handle_of_scope.end() ? nullptr : it->second;
  };

  // Modules and libraries the CUDA runtime loaded for its own device code
  // are not the program's to unload (cuda_frames.h).
  std::map<uint32_t, bool> runtime_loads;  // by stack
  auto runtime_load = [&](const Record& r) {
    if (r.kind != Kind::Module && r.kind != Kind::Library) return false;
    auto [it, fresh] = runtime_loads.emplace(r.stack_id, false);
    if (fresh) it->second = is_runtime_own_load(cache.frames(stacks(r.stack_id)));
    return it->second;
  };

  // One group per (kind, stack, device, teardown reason, owner), members in creation order.
  std::map<GroupKey, std::vector<const Record*>> groups;
  for (const Record& r : snapshot.resources) {
    if (runtime_load(r)) continue;
    const Record* owner = owner_of(r);
    const RawReach* reach = snapshot.reach_of(r);
    groups[GroupKey{r.kind, r.stack_id, r.device, released_or_empty(snapshot, r), owner ? snapshot.hook_of(*owner) : "",
                    reach ? reach->state : Reachability::NotScanned}]
        .push_back(&r);
  }

  for (auto& [key, members] : groups) {
    std::sort(members.begin(), members.end(),
              [](const Record* a, const Record* b) { return a->sequence < b->sequence; });
    LeakGroup g;
    g.kind = std::get<0>(key);
    g.device = std::get<2>(key);
    g.released_by = std::get<3>(key);
    g.stack_id = std::get<1>(key);
    g.stack = cache.frames(stacks(std::get<1>(key)));
    g.api = outermost_api(g.stack, snapshot.hook_of(*members.front()));
    g.owner = std::get<4>(key);
    g.reachability = std::get<5>(key);
    if (g.reachability == Reachability::StillReachable)
      if (const RawReach* reach = snapshot.reach_of(*members.front()))
        g.referenced_from = describe_reference(*reach, resolver);
    for (const Record* r : members) {
      add_saturating(g.bytes, r->bytes);
      ++g.count;
      const Record* owner = owner_of(*r);
      if (options.max_allocations == 0 || g.allocations.size() < options.max_allocations)
        g.allocations.push_back(Allocation{*r, owner ? owner->handle : 0});
      if (g.kind == Kind::Pool && !r->torn_down()) add_pool_holding(g, *r, snapshot, stacks, cache);
    }
    report.leaks.push_back(std::move(g));
  }
  add_holdings(report, snapshot, owner_of, runtime_load);
  if (resolver) attribute_by_stack(report.leaks);
  attribute_library_work(report.leaks);
  report.summary = summarize(report.leaks);
  // Biggest first; resources without bytes (streams, events) by count.
  // A library handle weighs what it holds.
  auto weight = [](const LeakGroup& g) {
    uint64_t bytes = g.bytes;
    for (const auto& [kind, t] : g.holds)
      if (kind_holds_memory(kind)) bytes += t.bytes;
    return std::make_pair(bytes, g.count);
  };
  std::stable_sort(report.leaks.begin(), report.leaks.end(),
                   [&](const LeakGroup& a, const LeakGroup& b) { return weight(a) > weight(b); });

  for (const RawNote& n : snapshot.notes) {
    Note note{n.type, "", n.handle, n.result, n.count, cache.frames(stacks(n.stack_id))};
    note.api = outermost_api(note.stack, n.hook);
    report.notes.push_back(std::move(note));
  }
  report.notes_total = snapshot.notes_total;
  report.primary_contexts = snapshot.primary_contexts;
  for (const RawReservation& raw : snapshot.reservations)
    report.reservations.push_back(resolve_reservation(raw, cache.frames(stacks(raw.stack_id))));
  report.device_malloc_modules = snapshot.device_malloc_modules;
  report.has_reachability = snapshot.reach_scanned;
  report.reachability = snapshot.reach_scan;
  report.symbolized = resolver != nullptr;
  return report;
}

}  // namespace cudaleak::report
