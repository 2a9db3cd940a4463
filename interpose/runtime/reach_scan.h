// The reachability scan's flood fill, as LeakSanitizer's: from the roots
// (globals, stacks), every aligned word that points into a piece of memory
// (reach_heap.h) pushes that piece once, and every word that points into a
// live allocation's range, or equals a handle's value, marks that resource
// reachable. Neither an allocation's own memory nor what a handle points to
// is followed: the driver's structures behind a stream hold every address.
#pragma once
#include <cstddef>
#include <cstdint>

#include "interpose/runtime/reach_heap.h"
#include "interpose/runtime/reach_memory.h"

namespace cudaleak::reach {

// A resource to look for: a range (device memory, pinned host memory; a
// pointer anywhere inside counts) or a handle's exact value.
struct Target {
  uint64_t begin = 0, end = 0;  // exact: end = begin + 1
  uint32_t index = 0;           // the caller's (the record's place in its snapshot)
  bool exact = false;
};

// Where scanning starts; `label` is the caller's (which global, which stack).
struct Root {
  uint64_t begin = 0, end = 0;
  uint32_t label = 0;
};

// Writable anonymous memory a pointer can lead into: its pieces are
// pieces[first, first + count). excluded: never followed (roots, the scan's
// own memory, threads of cudaleak's own).
struct Region {
  uint64_t begin = 0, end = 0;
  uint32_t first = 0, count = 0;
  bool excluded = false;
};

// The first reference found to a target.
struct Finding {
  bool found = false;
  bool interior = false;   // it points inside the range, not at its start
  bool via_heap = false;   // found in memory reached from the root, not in the root itself
  uint32_t root = 0;       // the root's label
  uint64_t root_word = 0;  // the root's word that pointed at it, or at the first piece on the way
};

class Scan {
 public:
  MappedArray<Target> targets;  // filled by the caller, then sorted by prepare()
  MappedArray<Root> roots;
  MappedArray<Region> regions;  // sorted, not overlapping
  MappedArray<uint64_t> pieces;
  MappedArray<Finding> findings;  // by Target::index: sized by the caller
  uint64_t byte_limit = 0;        // 0: none
  // glibc's tcache_key (2.34 and later; the main thread's tcache before):
  // the second word of every chunk freed into a tcache, which still looks in
  // use. Such a chunk is freed memory and is not followed. 0: unknown.
  uint64_t tcache_key = 0;

  // Sorts the targets and builds the filters; false when out of memory.
  bool prepare();
  // Marks the piece holding `address` as never to be followed.
  void exclude_piece(uint64_t address);
  void run();

  uint64_t bytes_scanned = 0;
  uint64_t pieces_followed = 0;
  bool complete = true;  // false: stopped at byte_limit or out of memory

 private:
  struct Work {
    uint64_t begin, end, root_word;
    uint32_t root;
    bool chunk;  // a malloc chunk's data: its second word tells a tcache-freed one
  };
  bool maybe(uint64_t word) const;
  void mark_granules(uint64_t begin, uint64_t end);
  // Calls found(target) for each target holding `word`; the number found.
  template <class F>
  size_t match_targets(uint64_t word, const F& found) const;
  bool overlaps_target(uint64_t begin, uint64_t end) const;
  uint64_t* piece_at(uint64_t address, const Region** region);
  uint64_t piece_end(const Region& region, const uint64_t* piece) const;
  void scan_range(uint64_t begin, uint64_t end, uint32_t root, uint64_t root_word, bool via_heap, bool chunk = false);
  void follow(uint64_t word, uint64_t at, uint32_t root, uint64_t root_word, bool via_heap);

  MappedArray<uint64_t> max_end_;   // of targets[0..i]
  MappedArray<uint64_t> granules_;  // one bit per 2 MiB of the address space that may hold a piece or a target
  MappedArray<Work> work_;
  bool stopped_ = false;
};

}  // namespace cudaleak::reach
