#include "interpose/runtime/reach_heap.h"

namespace cudaleak::reach {

namespace {

constexpr uint64_t kMinChunk = 32;
constexpr uint64_t kArenaHeapSize = uint64_t(64) << 20;  // glibc's HEAP_MAX_SIZE on 64-bit

// Counts (or, with `pieces`, appends) the chunks from `first`; returns where
// the walk stopped (== end: walked whole).
uint64_t walk(WindowReader& reader, uint64_t first, uint64_t end, MappedArray<uint64_t>* pieces, size_t max_pieces,
              size_t& walked) {
  uint64_t p = first;
  walked = 0;
  while (p + 16 <= end) {
    uint64_t head = 0;
    if (!reader.word(p + 8, head)) return p;
    if (walked && pieces && (head & 1)) pieces->back() |= kInUse;  // the previous chunk is in use
    const uint64_t size = head & ~uint64_t(7);
    if (size < kMinChunk || (size & 15) || (head & 2) || size > end - p) return p;
    if (walked >= max_pieces) return p;
    if (pieces && !pieces->push_back(p)) return p;
    ++walked;
    p += size;
  }
  return end;  // the last chunk is the top (free) or ends exactly here
}

}  // namespace

bool WindowReader::word(uint64_t address, uint64_t& value) {
  if (address < base_ || address + 8 > base_ + length_) {
    const uint64_t start = address & ~uint64_t(4095);
    length_ = read_own(start, buffer_, kWindow);
    base_ = start;
    read_ += length_;
    if (address + 8 > base_ + length_) {  // a page at the end of a mapping: that page alone
      length_ = read_own(start, buffer_, 4096);
      if (address + 8 > base_ + length_) return false;
    }
  }
  __builtin_memcpy(&value, buffer_ + (address - base_), 8);
  return true;
}

bool walk_heap(WindowReader& reader, uint64_t first, uint64_t end, MappedArray<uint64_t>& pieces,
               const WalkLimits& limits) {
  const size_t room = pieces.size() < limits.max_pieces ? limits.max_pieces - pieces.size() : 0;
  size_t walked = 0;
  const uint64_t stop = walk(reader, first, end, &pieces, room, walked);
  if (stop + kMinChunk * 2 >= end) return true;  // an abandoned heap's fence posts
  pieces.push_back(stop | kInUse | kWhole);
  return false;
}

bool walk_mmapped(WindowReader& reader, uint64_t begin, uint64_t end, MappedArray<uint64_t>& pieces) {
  uint64_t p = begin;
  size_t found = 0;
  while (p + 16 <= end) {
    uint64_t prev_size = 1, head = 0;
    if (!reader.word(p, prev_size) || !reader.word(p + 8, head)) break;
    const uint64_t size = head & ~uint64_t(7);
    if (prev_size != 0 || !(head & 2) || (size & 4095) || size == 0 || size > end - p) break;
    if (!pieces.push_back(p | kInUse | kMmapped)) return found != 0;
    ++found;
    p += size;
  }
  if (!found) return false;
  if (p < end) pieces.push_back(p | kInUse | kWhole);
  return true;
}

uint64_t arena_first_chunk(WindowReader& reader, uint64_t begin, uint64_t end, uint64_t& heap_end) {
  if (begin % kArenaHeapSize) return 0;
  uint64_t arena = 0, size = 0;
  if (!reader.word(begin, arena) || !reader.word(begin + 16, size)) return 0;
  // heap_info is 32 bytes, or 48 since glibc 2.35 added its page size.
  const uint64_t info_end = arena % kArenaHeapSize;
  if ((info_end != 32 && info_end != 48) || size < 4096 || size > kArenaHeapSize || size > end - begin) return 0;
  heap_end = begin + size;
  size_t walked = 0;
  if (arena != begin + info_end)  // a later heap of the arena: chunks right after heap_info
    return walk(reader, begin + info_end, heap_end, nullptr, SIZE_MAX, walked) == heap_end ? begin + info_end : 0;
  for (uint64_t offset = info_end + 2048; offset <= info_end + 4096; offset += 16) {
    uint64_t head = 0;
    if (!reader.word(begin + offset + 8, head) || !(head & 1)) continue;  // a first chunk has PREV_INUSE
    if (walk(reader, begin + offset, heap_end, nullptr, SIZE_MAX, walked) == heap_end) return begin + offset;
  }
  return 0;
}

bool looks_like_tcache(uint64_t chunk, uint64_t size) {
  // glibc 2.30 and later: uint16_t counts[64]; tcache_entry* entries[64].
  if (size != 16 + 64 * 2 + 64 * 8) return false;
  uint16_t counts[64];
  uint64_t entries[64];
  if (read_own(chunk + 16, counts, sizeof counts) != sizeof counts) return false;
  if (read_own(chunk + 16 + sizeof counts, entries, sizeof entries) != sizeof entries) return false;
  for (int i = 0; i < 64; ++i)
    if (counts[i] > 1024 || (counts[i] == 0) != (entries[i] == 0)) return false;
  return true;
}

}  // namespace cudaleak::reach
