// The pieces of writable anonymous memory the reachability scan follows
// pointers into: glibc malloc's chunks (the main arena's [heap], the heaps
// of other arenas, chunks mmapped on their own), or a whole mapping whose
// layout is not known (another allocator's arenas, Python's obmalloc).
//
// glibc's chunk: the size word at chunk + 8 holds the chunk's size with
// PREV_INUSE (1), IS_MMAPPED (2) and NON_MAIN_ARENA (4) in its low bits; the
// user's memory starts at chunk + 16; a chunk is in use when the next one's
// PREV_INUSE is set (tcache and fastbin chunks look in use: conservative).
// Every size is checked against the mapping; the walk stops at the first
// that makes no sense and leaves the rest as one piece of unknown layout.
#pragma once
#include <cstddef>
#include <cstdint>

#include "interpose/runtime/reach_memory.h"

namespace cudaleak::reach {

// A piece is its start address (16-aligned) with these flags in the low bits;
// it ends where the next piece of its region starts.
inline constexpr uint64_t kInUse = 1;    // may hold the program's data: followed
inline constexpr uint64_t kVisited = 2;  // already pushed, or never to be (the scan's own)
inline constexpr uint64_t kWhole = 4;    // no malloc header: its data starts at its start
inline constexpr uint64_t kMmapped = 8;  // a chunk mmapped on its own
inline constexpr uint64_t kPieceFlags = 15;

inline uint64_t piece_start(uint64_t piece) { return piece & ~kPieceFlags; }

// Reads the program's memory a window at a time, so that walking a heap's
// headers costs one system call per window rather than per chunk.
class WindowReader {
 public:
  bool word(uint64_t address, uint64_t& value);
  uint64_t bytes_read() const { return read_; }

 private:
  static constexpr size_t kWindow = 16384;
  uint64_t base_ = 0, length_ = 0, read_ = 0;
  alignas(16) unsigned char buffer_[kWindow];
};

struct WalkLimits {
  size_t max_pieces = 0;  // in all: past it, a heap's rest is one piece of unknown layout
};

// The chunks of a glibc heap from the chunk header at `first` to `end`,
// appended to `pieces`. False when the walk stopped early (a size that makes
// no sense, or max_pieces): the rest [stop, end) is then one kWhole piece.
bool walk_heap(WindowReader& reader, uint64_t first, uint64_t end, MappedArray<uint64_t>& pieces,
               const WalkLimits& limits);

// Whether [begin, end) starts with a chunk mmapped on its own (prev_size 0,
// IS_MMAPPED, a whole number of pages within the mapping); then its chunks
// (adjacent mappings read as one in /proc/self/maps) are appended, the rest
// of unknown layout as one kWhole piece.
bool walk_mmapped(WindowReader& reader, uint64_t begin, uint64_t end, MappedArray<uint64_t>& pieces);

// A heap of a non-main arena (aligned to its 64 MiB maximum, starting with
// heap_info: arena, previous heap, size, mprotect size): where its first
// chunk is and where its chunks end; 0 when [begin, end) is not one. The
// first heap of an arena holds the arena's state before its chunks, whose
// size depends on glibc's version: the first offset from which the chunks
// walk exactly to the heap's end is taken.
uint64_t arena_first_chunk(WindowReader& reader, uint64_t begin, uint64_t end, uint64_t& heap_end);

// tcache's per-thread table (a chunk of 64 two-byte counts and 64 pointers
// to free chunks): not followed, since what it points to is freed memory.
bool looks_like_tcache(uint64_t chunk, uint64_t size);

}  // namespace cudaleak::reach
