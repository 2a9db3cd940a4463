// The one shape of every hook, driver entry point or library function alike:
//   Hook<HookId::x> hook;                  // re-entrancy guard, lazy init
//   auto r = hook.real(args...);           // the real call, outside any lock
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
#include <optional>
#include <type_traits>

#include "interpose/base/inside_hook.h"
#include "interpose/base/phase_timer.h"
#include "interpose/driver/hook_table.h"
#include "interpose/runtime/lifecycle.h"
#include "interpose/track/tracker.h"

namespace cudaleak {

namespace detail {
template <typename Fn>
struct ResultOf;
template <typename R, typename... Args>
struct ResultOf<R (*)(Args...)> {
  using type = R;
};

// What each library returns for "not initialized" (its headers' values).
constexpr libapi::Status missing_library_status(Space space) {
  switch (space) {
    case Space::Cudnn: return 1001;  // CUDNN_STATUS_NOT_INITIALIZED
    case Space::Cufft: return 5;     // CUFFT_INTERNAL_ERROR
    case Space::Curand: return 203;  // CURAND_STATUS_INITIALIZATION_FAILED
    case Space::Nccl: return 3;      // ncclInternalError
    default: return 1;               // CUBLAS/CUSPARSE/CUSOLVER_STATUS_NOT_INITIALIZED
  }
}
// Says once per row that the library behind an export is not loaded (our
// export was reached without it, e.g. through a stale function pointer).
void say_library_missing(HookId id);

// Where a hook's real function comes from and how it knows it is nested.
template <HookId id, bool library = HookTraits<id>::from_library>
class Entry;

// A driver entry point: nested when reached from inside another driver hook.
// The real function is read at the call (hook_table.h resolves it lazily).
template <HookId id>
class Entry<id, false> {
 protected:
  using Fn = typename HookTraits<id>::Fn;
  static constexpr CUresult kMissing = CUDA_ERROR_NOT_INITIALIZED;  // no driver loaded behind this export

  Entry() : nested_(t_hook_depth++ > 0) {
    PhaseScope timed(Phase::HookEntry);
    ensure_initialized();
    note_cuda_seen();
  }
  ~Entry() {
    --t_hook_depth;
    leaving_hook();
  }
  Fn function() const { return reinterpret_cast<Fn>(real_function(id)); }
  bool outermost() const { return !nested_; }
  [[no_unique_address]] mutable HookTimer timer_{int(id)};  // first: constructed first, destroyed last

 private:
  bool nested_;
};

// A library function: its call opens a library scope (tracker::LibraryCall),
// so that what the library makes through the driver for the handle is the
// handle's, and a library call made by another library call (cuSOLVER creating
// its cuBLAS handle) is nested in the outer one. Driver hooks inside it stay
// tracked. No scope is opened when the library is not loaded.
template <HookId id>
class Entry<id, true> {
 protected:
  using Fn = typename HookTraits<id>::Fn;
  static constexpr libapi::Status kMissing = missing_library_status(HookTraits<id>::space);

  Entry() {
    ++t_library_hooks;
    PhaseScope timed(Phase::HookEntry);
    ensure_initialized();
    note_cuda_seen();
    fn_ = reinterpret_cast<Fn>(real_function(id));
    if (fn_) call_.emplace();
    else say_library_missing(id);
  }
  ~Entry() {
    call_.reset();  // the library scope closes before this thread may wait
    --t_library_hooks;
    leaving_hook();
  }
  Fn function() const { return fn_; }
  bool outermost() const { return call_ && call_->outermost(); }
  void on_behalf_of(uint64_t handle) const {
    if (call_) call_->on_behalf_of(HookTraits<id>::space, handle);
  }
  [[no_unique_address]] mutable HookTimer timer_{int(id)};

 private:
  Fn fn_;
  mutable std::optional<tracker::LibraryCall> call_;
};

}  // namespace detail

template <HookId id>
class Hook : detail::Entry<id> {
  using Row = HookTraits<id>;

 public:
  using Fn = typename Row::Fn;
  using Result = typename detail::ResultOf<Fn>::type;  // CUresult, or a library's status (0: success)
  static constexpr Kind kind = Row::kind;
  static constexpr Space space = Row::space;

  Hook() = default;
  // errno is left exactly as the real call left it, whatever bookkeeping did since.
  ~Hook() {
    if (called_) errno = errno_after_call_;
  }
  Hook(const Hook&) = delete;
  Hook& operator=(const Hook&) = delete;

  static bool succeeded(Result r) { return r == Result{}; }

  template <typename... Args>
  Result real(Args... args) const {
    Fn fn = this->function();
    if (!fn) return this->kMissing;
#if defined(CUDALEAK_PHASE_TIMING) && defined(__x86_64__)
    const uint64_t start = phase_timing::cycles();
    Result r = fn(args...);
    const uint64_t spent = phase_timing::cycles() - start;
    phase_timing::add(Phase::RealCall, spent);
    this->timer_.real(spent);
#else
    Result r = fn(args...);
#endif
    errno_after_call_ = errno;
    called_ = true;
    return r;
  }

  bool tracking() const { return this->outermost() && tracking_enabled() && !CUDALEAK_PHASE_SKIP(track); }

  // A call on a live handle's behalf: its scope becomes the handle's.
  void use(uint64_t handle) const requires(Row::role == HookRole::Use) { this->on_behalf_of(handle); }

  // What a successful create made: a record of the row's kind in its space.
  void created(uint64_t handle, uint64_t bytes, tracker::Placement where, uint64_t stream = 0) const
      requires(!Row::from_library) {
    static_assert(Row::role == HookRole::Create);
    tracker::created(id, kind, space, handle, bytes, where, stream);
  }
  // A library may hand out the same handle again while it is alive (cuBLASLt
  // returns one reference-counted context): a second create is a reference,
  // and the handle lives until as many destroys.
  void created(uint64_t handle) const requires(Row::from_library) {
    static_assert(Row::role == HookRole::Create);
    tracker::reference_or_create(id, kind, space, handle);
  }
  // Memory of a graph allocation node: added by the row's call, or allocated
  // by a stream-ordered allocation on a stream being captured into `graph`.
  void created_graph_memory(uint64_t dptr, uint64_t bytes, tracker::Placement where, uint64_t graph) const {
    static_assert(Row::role == HookRole::Create && space == Space::DevicePtr &&
                  (kind == Kind::GraphMemory || kind == Kind::Async));
    tracker::created(id, Kind::GraphMemory, space, dptr, bytes, where, graph);
    tracker::graph_memory_added(graph);
  }

  // The real release of `handle` in the row's space. A driver handle's record
  // is taken out before the call (tracker::begin_release says why); a library
  // handle, which may carry references, loses one once the call succeeded.
  // Returns the real result.
  template <typename... Args>
  Result release(uint64_t handle, Args... args) const {
    static_assert(space != space_column::NoSpace);
    if (!handle || !tracking()) return real(args...);
    if constexpr (Row::from_library) {
      Result r = real(args...);
      if (succeeded(r)) tracker::reference_dropped(id, space, handle, CUDA_SUCCESS);
      return r;
    } else {
      tracker::PendingRelease pending = tracker::begin_release(space, handle);
      CUresult r = real(args...);
      tracker::end_release(id, pending, r);
      return r;
    }
  }

 private:
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
typename Hook<id>::Result create_into_first_sized(Out* out, Bytes bytes, Args... args) {
  Hook<id> hook;
  auto r = hook.real(out, args...);
  if (hook.succeeded(r) && hook.tracking() && out) {
    if constexpr (HookTraits<id>::from_library) hook.created(as_handle(*out));
    else hook.created(as_handle(*out), bytes(), tracker::current_placement());
  }
  return r;
}
template <HookId id, typename Out, typename... Args>
typename Hook<id>::Result create_into_first(Out* out, Args... args) {
  return create_into_first_sized<id>(
      out, [] { return uint64_t(0); }, args...);
}
// A library call on a live handle (HookRole::Use), passed first: what the
// library makes inside it is the handle's.
template <HookId id, typename... Args>
typename Hook<id>::Result use_first(void* handle, Args... args) {
  static_assert(HookTraits<id>::role == HookRole::Use && HookTraits<id>::from_library);
  Hook<id> hook;
  if (hook.tracking()) hook.use(as_handle(handle));
  return hook.real(handle, args...);
}
template <HookId id, typename Handle, typename... Args>
typename Hook<id>::Result release_first(Handle handle, Args... args) {
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
