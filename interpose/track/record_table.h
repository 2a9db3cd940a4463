// The live records of one registry shard, found by (handle, space).
//
// Records live in chunks that never move: chunk c holds 16 << c records, so
// a table of n records has at most n + 16 slots, and the big chunks come from
// malloc's mmap path, where capacity not yet written costs no memory. An
// open-addressing index (linear probing, deletion by backward shift, so no
// tombstones) finds a record by its handle; each index entry holds the
// record's number and the low 32 bits of its key's hash, which both filter a
// probe (a record is read only when they match) and give the entry's home
// slot, so erasing and growing never read a record to move an entry. Freed
// records are chained for reuse through their `handle` field and marked by
// refcount 0, which no live record has. Once warm, insert and erase allocate
// nothing; 72 bytes per live record plus 10.7-21 for the index.
//
// Not thread-safe: the shard's lock guards it.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "common/record/record.h"

namespace cudaleak {

// The key's bits, well mixed (splitmix64's finalizer): device pointers come
// in arithmetic runs, which a plain multiply leaves clustered in the low bits.
inline uint64_t mix_key(uint64_t handle, Space space) {
  uint64_t h = handle ^ (uint64_t(space) << 59);
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

class RecordTable {
 public:
  RecordTable() = default;
  RecordTable(const RecordTable&) = delete;
  RecordTable& operator=(const RecordTable&) = delete;
  ~RecordTable();

  // The live record of this key, or nullptr. Valid until it is erased.
  Record* find(uint64_t handle, Space space);
  // Adds `record`. When its key is present, the old record is replaced:
  // returns true and copies it to *replaced.
  bool insert(const Record& record, Record* replaced = nullptr);
  // Removes the record of this key into *removed; false when absent.
  bool erase(uint64_t handle, Space space, Record* removed);

  // f(record) for every live record.
  template <typename F>
  void for_each(F&& f) const {
    for (uint32_t n = 0; n < used_; ++n)
      if (const Record& r = at(n); r.refcount != 0) f(r);
  }
  size_t size() const { return live_; }
  // Drops every record; keeps the memory.
  void clear();

 private:
  static constexpr uint32_t kFirstChunk = 16;
  static constexpr int kChunks = 27;  // 16 << 27 records: beyond any 32-bit count

  static int chunk_of(uint32_t n) { return std::bit_width(n + kFirstChunk) - 5; }
  Record& at(uint32_t n) const {
    int c = chunk_of(n);
    return chunks_[c][n + kFirstChunk - (kFirstChunk << c)];
  }
  // An index entry: record number + 1 (0: empty) and the hash's low 32 bits,
  // which hold its home slot (the index never outgrows 2^32 slots).
  static uint64_t entry(uint32_t number, uint64_t mixed) { return uint64_t(number + 1) | (mixed << 32); }
  static uint32_t number_of(uint64_t entry) { return uint32_t(entry) - 1; }
  static size_t home_of(uint64_t entry, size_t mask) { return size_t(entry >> 32) & mask; }
  // The index slot holding this key, or the empty slot where it would go.
  size_t probe(uint64_t handle, Space space, uint64_t mixed) const;
  uint32_t allocate_record();
  void grow_index();

  // What every insert and erase reads first, so that it shares the cache
  // line of the shard's lock (registry.h) with the first chunks' addresses.
  std::vector<uint64_t> index_;  // entry(); 0: empty
  uint32_t live_ = 0;
  uint32_t free_head_ = 0;  // record number + 1 of the first free record; 0: none
  uint32_t used_ = 0;       // records handed out so far, free or live
  Record* chunks_[kChunks] = {};
};

}  // namespace cudaleak
