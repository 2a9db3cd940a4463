#include "interpose/track/record_table.h"
#include "interpose/base/hot_path.h"

#include <cstdlib>
#include <new>

namespace cudaleak {

RecordTable::~RecordTable() {
  for (Record* chunk : chunks_) std::free(chunk);
}

CUDALEAK_HOT_PATH size_t RecordTable::probe(uint64_t handle, Space space, uint64_t mixed) const {
  const size_t mask = index_.size() - 1;
  const uint64_t tag = entry(0, mixed) >> 32;
  for (size_t i = size_t(mixed) & mask;;
       i = (i + 1) & mask) {  // home: the low bits; the registry shards by the high ones
    uint64_t e = index_[i];
    if (e == 0) return i;
    if (e >> 32 != tag) continue;
    const Record& r = at(number_of(e));
    if (r.handle == handle && r.space == space) return i;
  }
}

CUDALEAK_HOT_PATH Record* RecordTable::find(uint64_t handle, Space space) {
  if (live_ == 0) return nullptr;
  uint64_t e = index_[probe(handle, space, mix_key(handle, space))];
  return e ? &at(number_of(e)) : nullptr;
}

CUDALEAK_HOT_PATH uint32_t RecordTable::allocate_record() {
  if (free_head_) {
    uint32_t n = free_head_ - 1;
    free_head_ = uint32_t(at(n).handle);
    return n;
  }
  int c = chunk_of(used_);
  if (!chunks_[c]) {
    chunks_[c] = static_cast<Record*>(std::malloc(sizeof(Record) * (size_t(kFirstChunk) << c)));
    if (!chunks_[c]) throw std::bad_alloc();
  }
  return used_++;
}

void RecordTable::grow_index() {
  std::vector<uint64_t> old;
  old.swap(index_);
  index_.assign(old.empty() ? 16 : old.size() * 2, 0);
  const size_t mask = index_.size() - 1;
  for (uint64_t e : old)
    if (e) {
      size_t i = home_of(e, mask);
      while (index_[i] != 0) i = (i + 1) & mask;
      index_[i] = e;
    }
}

CUDALEAK_HOT_PATH bool RecordTable::insert(const Record& record, Record* replaced) {
  if ((size_t(live_) + 1) * 4 > index_.size() * 3) grow_index();  // load factor stays under 3/4
  uint64_t mixed = mix_key(record.handle, record.space);
  size_t i = probe(record.handle, record.space, mixed);
  const bool present = index_[i] != 0;
  uint32_t n = present ? number_of(index_[i]) : allocate_record();
  if (present && replaced) *replaced = at(n);
  Record& r = *new (&at(n)) Record(record);
  if (r.refcount == 0) r.refcount = 1;  // 0 marks a free record
  if (!present) {
    index_[i] = entry(n, mixed);
    ++live_;
  }
  return present;
}

CUDALEAK_HOT_PATH bool RecordTable::erase(uint64_t handle, Space space, Record* removed) {
  if (live_ == 0) return false;
  size_t i = probe(handle, space, mix_key(handle, space));
  uint64_t e = index_[i];
  if (e == 0) return false;
  uint32_t n = number_of(e);
  Record& r = at(n);
  if (removed) *removed = r;
  r.refcount = 0;
  r.handle = free_head_;
  free_head_ = n + 1;
  --live_;
  // Backward shift: later entries of the same probe run move up into the
  // hole when their home slot is not between the hole and where they are.
  const size_t mask = index_.size() - 1;
  index_[i] = 0;
  for (size_t j = (i + 1) & mask; index_[j] != 0; j = (j + 1) & mask) {
    size_t k = home_of(index_[j], mask);
    bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (stays) continue;
    index_[i] = index_[j];
    index_[j] = 0;
    i = j;
  }
  return true;
}

void RecordTable::clear() {
  used_ = 0;
  free_head_ = 0;
  live_ = 0;
  std::fill(index_.begin(), index_.end(), uint64_t(0));
}

}  // namespace cudaleak
