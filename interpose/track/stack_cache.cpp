#include "interpose/track/stack_cache.h"

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "interpose/track/libunwind_api.h"
#include "interpose/base/self_module.h"
#include "interpose/base/hot_path.h"

namespace cudaleak {

#if defined(__x86_64__)

namespace {

constexpr int kMaxSlots = kMaxCachedDepth + 8;  // the frames recorded plus ours above them
constexpr size_t kSets = 16, kWays = 4;

struct Entry {  // its anchor, depth and library flag are its set's Tag
  uint16_t slots = 0;
  StackMemo memo;            // the stack's interned id, kept by the caller
  uint64_t emitted[2] = {};  // bit i: slot i's value is a recorded frame
  // When the recorded frames are one run of slots (no own frames among
  // them), they are value[first, first + frames): copied in one go.
  bool contiguous = false;
  uint16_t first = 0, frames = 0;
  uint32_t offset[kMaxSlots];  // slot address - anchor
  uint64_t value[kMaxSlots];   // the return address it holds
};

// What picks a way, copied out of each entry into the set's first cache
// line: a lookup reads the one entry that can match, not the head of each.
struct Tag {
  uintptr_t anchor = 0;  // 0: no entry
  int depth = 0;
  bool library = false;
};

struct alignas(64) Set {
  Tag tags[kWays];
  uint64_t seen_once[kWays] = {};  // stacks missed once, by fingerprint
  uint64_t refused[kWays] = {};    // stacks whose walk did not check out
  uint8_t next_way = 0, next_seen = 0, next_refused = 0;
  Entry ways[kWays];
};

struct ThreadCache {
  Set sets[kSets];
  uintptr_t stack_low = 0, stack_high = 0;  // this thread's own stack
  StackCacheStats stats;
};

__attribute__((tls_model("initial-exec"))) thread_local ThreadCache* t_cache = nullptr;

pthread_key_t g_key;
void free_cache(void* cache) {
  std::free(cache);
  t_cache = nullptr;
}
bool make_key() { return pthread_key_create(&g_key, free_cache) == 0; }

ThreadCache* thread_cache() {
  if (t_cache) return t_cache;
  static const bool have_key = make_key();
  if (!have_key) return nullptr;
  // Sets start on a cache line (their tags share one): aligned to 64.
  void* memory = std::aligned_alloc(alignof(ThreadCache), (sizeof(ThreadCache) + 63) / 64 * 64);
  if (!memory) return nullptr;
  auto* cache = new (memory) ThreadCache();
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) {
      cache->stack_low = reinterpret_cast<uintptr_t>(low);
      cache->stack_high = cache->stack_low + size;
    }
    pthread_attr_destroy(&attr);
  }
  pthread_setspecific(g_key, cache);
  t_cache = cache;
  return cache;
}

// The set for a capture: by anchor and the return address just above it
// (which hook and tracker path made the capture).
CUDALEAK_HOT_PATH Set& set_for(ThreadCache& c, uintptr_t anchor) {
  uint64_t above = *reinterpret_cast<const uint64_t*>(anchor + 8);
  uint64_t h = (anchor ^ (above * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
  return c.sets[(h >> 40) % kSets];
}

uint64_t fingerprint(uintptr_t anchor, int depth, bool library, const uint64_t* ips, size_t n) {
  uint64_t h = anchor * 0x9e3779b97f4a7c15ull ^ (uint64_t(depth) << 1 | library) ^ n;
  for (size_t i = 0; i < n; ++i) h = (h ^ ips[i]) * 0xff51afd7ed558ccdull;
  return h | 1;  // never 0, which marks an empty place
}

bool contains(const uint64_t* list, uint64_t h) {
  for (size_t i = 0; i < kWays; ++i)
    if (list[i] == h) return true;
  return false;
}

CUDALEAK_HOT_PATH bool matches(const Entry& e, uintptr_t anchor) {
  auto word = [anchor](uint32_t offset) { return *reinterpret_cast<const uint64_t*>(anchor + offset); };
  // The program's innermost frame tells twin paths apart most often: tested
  // first, then every slot without a branch per slot.
  if (word(e.offset[e.first]) != e.value[e.first]) return false;
  // Four slots per step into two accumulators: the loads, not the loop, set
  // the pace.
  uint64_t differ = 0, differ2 = 0;
  const size_t slots = e.slots;
  size_t i = 0;
  for (; i + 4 <= slots; i += 4) {
    differ |= (word(e.offset[i]) ^ e.value[i]) | (word(e.offset[i + 1]) ^ e.value[i + 1]);
    differ2 |= (word(e.offset[i + 2]) ^ e.value[i + 2]) | (word(e.offset[i + 3]) ^ e.value[i + 3]);
  }
  for (; i < slots; ++i) differ |= word(e.offset[i]) ^ e.value[i];
  return (differ | differ2) == 0;
}

// One full walk from here: every frame's return address and the slot that
// holds it. Succeeds only when it yields exactly `ips` and every slot checks.
bool walk(Entry& e, const ThreadCache& c, uintptr_t anchor, bool library, const uint64_t* ips, size_t n) {
  const LibUnwind& api = libunwind();
  unw_context_t context;
  unw_cursor_t cursor;
  if (api.getcontext(&context) != 0 || api.init_local(&cursor, &context) != 0) return false;
  uint16_t slots = 0;
  size_t out = 0;
  bool past_own = false;
  e.emitted[0] = e.emitted[1] = 0;
  while (out < n) {
    if (api.is_signal_frame(&cursor) > 0) return false;  // the next frame's address comes from a sigcontext
    if (api.step(&cursor) <= 0) break;
    unw_word_t ip = 0, sp = 0;
    if (api.get_reg(&cursor, UNW_REG_IP, &ip) != 0 || api.get_reg(&cursor, UNW_REG_SP, &sp) != 0) return false;
    uintptr_t slot = sp - 8;
    if (slot <= anchor) continue;  // the walk's own frames, inside the capturing function
    if (slot + 8 > c.stack_high || slots == kMaxSlots) return false;
    if (*reinterpret_cast<const uint64_t*>(slot) != ip) return false;  // not where the ABI puts it
    bool own = is_own_code(reinterpret_cast<const void*>(ip));
    past_own = past_own || !own;
    bool emit = past_own && !(library && own);
    if (emit) {
      if (ips[out] != ip) return false;  // unw_backtrace saw another path
      e.emitted[slots / 64] |= 1ull << (slots % 64);
      ++out;
    }
    e.offset[slots] = uint32_t(slot - anchor);
    e.value[slots] = ip;
    ++slots;
  }
  if (out != n) return false;
  e.slots = slots;
  e.frames = uint16_t(n);
  e.first = 0;
  while (!(e.emitted[e.first / 64] >> (e.first % 64) & 1)) ++e.first;
  e.contiguous = e.first + n == slots;
  e.memo = StackMemo{};
  return true;
}

}  // namespace

CUDALEAK_HOT_PATH size_t stack_cache_lookup(uintptr_t anchor, int depth, bool library, uint64_t* ips, StackMemo** memo,
                                            uint32_t memo_epoch) {
  *memo = nullptr;
  ThreadCache* c = t_cache;
  if (!c || anchor < c->stack_low || anchor >= c->stack_high) {
    if (c) ++c->stats.misses;
    return SIZE_MAX;
  }
  Set& set = set_for(*c, anchor);
  for (size_t way = 0; way < kWays; ++way) {
    const Tag& t = set.tags[way];
    if (t.anchor != anchor || t.depth != depth || t.library != library) continue;
    Entry& e = set.ways[way];
    if (!matches(e, anchor)) continue;
    *memo = &e.memo;
    ++c->stats.hits;
    if (e.memo.epoch == memo_epoch) return 0;
    size_t n = 0;
    if (e.contiguous) {
      std::memcpy(ips, e.value + e.first, e.frames * sizeof(uint64_t));
      n = e.frames;
    } else {
      for (uint16_t i = 0; i < e.slots; ++i)
        if (e.emitted[i / 64] >> (i % 64) & 1) ips[n++] = e.value[i];
    }
    return n;
  }
  ++c->stats.misses;
  return SIZE_MAX;
}

void stack_cache_learn(uintptr_t anchor, int depth, bool library, const uint64_t* ips, size_t n) {
  if (depth > kMaxCachedDepth || n == 0 || !libunwind().can_walk()) return;
  ThreadCache* c = thread_cache();
  if (!c || anchor < c->stack_low || anchor >= c->stack_high) return;
  Set& set = set_for(*c, anchor);
  uint64_t h = fingerprint(anchor, depth, library, ips, n);
  if (contains(set.refused, h)) return;
  if (!contains(set.seen_once, h)) {
    set.seen_once[set.next_seen++ % kWays] = h;
    return;
  }
  const size_t way = set.next_way % kWays;
  Entry& e = set.ways[way];
  set.tags[way] = Tag{};  // the entry is rewritten: no lookup may take it meanwhile
  if (walk(e, *c, anchor, library, ips, n)) {
    set.tags[way] = Tag{anchor, depth, library};
    ++set.next_way;
    ++c->stats.learned;
  } else {
    set.refused[set.next_refused++ % kWays] = h;
    ++c->stats.refused;
  }
  for (auto& seen : set.seen_once)
    if (seen == h) seen = 0;
}

StackCacheStats stack_cache_thread_stats() { return t_cache ? t_cache->stats : StackCacheStats{}; }

#else  // no cache: every capture unwinds

size_t stack_cache_lookup(uintptr_t, int, bool, uint64_t*, StackMemo** memo, uint32_t) {
  *memo = nullptr;
  return SIZE_MAX;
}
void stack_cache_learn(uintptr_t, int, bool, const uint64_t*, size_t) {}
StackCacheStats stack_cache_thread_stats() { return {}; }

#endif

}  // namespace cudaleak
