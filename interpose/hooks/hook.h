// The one shape of every hook:
//   Hook<HookId::x> hook;                  // re-entrancy guard, lazy init
//   CUresult r = hook.real(args...);       // the real driver call, outside any lock
//   if (r == CUDA_SUCCESS && hook.tracking()) hook.created(handle, bytes, where);
//   return r;                              // always the real result
// and of every release:
//   return hook.release(handle, args...);
// What a hook records is of its row's kind, in its row's space
// (driver/hook_table.h): Hook<id> reads both from HookTraits<id> at compile
// time, so no hook body names them and none can say otherwise than its row.
#pragma once
#include <atomic>
#include <cerrno>
#include <type_traits>

#include "interpose/driver/hook_table.h"
#include "interpose/runtime/lifecycle.h"
#include "interpose/track/tracker.h"

namespace cudaleak {

namespace detail {
// Depth of hook calls on this thread: a hook reached from inside another hook
// (a driver that calls its own public entry points, the tracker's own lookups)
// passes through untracked.
inline __attribute__((tls_model("initial-exec"))) thread_local int t_hook_depth = 0;
}  // namespace detail

template <HookId id>
class Hook {
  using Row = HookTraits<id>;

 public:
  using Fn = typename Row::Fn;
  static constexpr Kind kind = Row::kind;
  static constexpr Space space = Row::space;

  Hook() : nested_(detail::t_hook_depth++ > 0) {
    ensure_initialized();
    note_cuda_seen();
  }
  // errno is left exactly as the real call left it, whatever bookkeeping did since.
  ~Hook() {
    --detail::t_hook_depth;
    if (called_) errno = errno_after_call_;
  }
  Hook(const Hook&) = delete;
  Hook& operator=(const Hook&) = delete;

  template <typename... Args>
  CUresult real(Args... args) const {
    auto fn = reinterpret_cast<Fn>(real_function(id));
    if (!fn) return CUDA_ERROR_NOT_INITIALIZED;  // no driver loaded behind this exported symbol
    CUresult r = fn(args...);
    errno_after_call_ = errno;
    called_ = true;
    return r;
  }

  bool tracking() const { return !nested_ && tracking_enabled(); }

  // What a successful create made: a record of the row's kind in its space.
  void created(uint64_t handle, uint64_t bytes, tracker::Placement where, uint64_t stream = 0) const {
    static_assert(Row::role == HookRole::Create);
    tracker::created(id, kind, space, handle, bytes, where, stream);
  }
  // Memory of a graph allocation node: added by the row's call, or allocated
  // by a stream-ordered allocation on a stream being captured into `graph`.
  void created_graph_memory(uint64_t dptr, uint64_t bytes, tracker::Placement where, uint64_t graph) const {
    static_assert(Row::role == HookRole::Create && space == Space::DevicePtr &&
                  (kind == Kind::GraphMemory || kind == Kind::Async));
    tracker::created(id, Kind::GraphMemory, space, dptr, bytes, where, graph);
    tracker::graph_memory_added(graph);
  }

  // The real release of `handle` in the row's space, with its record taken
  // out before the call (tracker::begin_release says why). Returns the real
  // result.
  template <typename... Args>
  CUresult release(uint64_t handle, Args... args) const {
    static_assert(space != space_column::NoSpace);
    if (!handle || !tracking()) return real(args...);
    tracker::PendingRelease pending = tracker::begin_release(space, handle);
    CUresult r = real(args...);
    tracker::end_release(id, pending, r);
    return r;
  }

 private:
  bool nested_;
  mutable bool called_ = false;
  mutable int errno_after_call_ = 0;
};

inline uint64_t as_handle(const void* p) { return reinterpret_cast<uint64_t>(p); }
template <typename H>
inline uint64_t as_handle(H h) requires std::is_integral_v<H> {
  return static_cast<uint64_t>(h);
}

// The hooks that the table describes completely: a create whose first
// argument receives the new handle, and a release of the handle passed first.
// `bytes` is asked only once the create succeeded and is tracked (a module's
// device globals, read from its image); create_into_first records none.
template <HookId id, typename Out, typename Bytes, typename... Args>
CUresult create_into_first_sized(Out* out, Bytes bytes, Args... args) {
  Hook<id> hook;
  CUresult r = hook.real(out, args...);
  if (r == CUDA_SUCCESS && hook.tracking() && out)
    hook.created(as_handle(*out), bytes(), tracker::current_placement());
  return r;
}
template <HookId id, typename Out, typename... Args>
CUresult create_into_first(Out* out, Args... args) {
  return create_into_first_sized<id>(out, [] { return uint64_t(0); }, args...);
}
template <HookId id, typename Handle, typename... Args>
CUresult release_first(Handle handle, Args... args) {
  static_assert(HookTraits<id>::role == HookRole::Release);
  Hook<id> hook;
  return hook.release(as_handle(handle), handle, args...);
}

// Bytes of a (mipmapped) array from its descriptor, summed over `levels`.
uint64_t array3d_bytes(const CUDA_ARRAY3D_DESCRIPTOR& desc, unsigned levels);

// A failed allocation: out-of-memory gets explained (runtime/oom.h).
void out_of_memory(HookId api, uint64_t bytes, tracker::Placement where, uint64_t stream);
// Failed calls of caching allocators held back for their retry (runtime/oom.h):
// while there are any, a successful allocation may be the retry that recovered.
extern std::atomic<int> g_oom_retries_pending;
void out_of_memory_recovered(uint64_t bytes, tracker::Placement where);
template <HookId id>
inline void check_out_of_memory(const Hook<id>& hook, CUresult r, uint64_t bytes, uint64_t stream = 0) {
  if (r == CUDA_ERROR_OUT_OF_MEMORY && hook.tracking()) out_of_memory(id, bytes, tracker::current_placement(), stream);
  else if (r == CUDA_SUCCESS && g_oom_retries_pending.load(std::memory_order_relaxed) > 0 && hook.tracking())
    out_of_memory_recovered(bytes, tracker::current_placement());
}

}  // namespace cudaleak
