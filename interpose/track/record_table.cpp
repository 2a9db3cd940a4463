#include "record_table.h"

#include <cstdlib>
#include <new>

namespace cudaleak {

RecordTable::~RecordTable() {
  for (Record* chunk : chunks_) std::free(chunk);
}

size_t RecordTable::home(uint64_t handle, Space space, size_t mask) {
  uint64_t h = (handle ^ (uint64_t(space) << 59)) * 0x9e3779b97f4a7c15ull;
  return size_t(h ^ (h >> 29)) & mask;
}

size_t RecordTable::probe(uint64_t handle, Space space) const {
  const size_t mask = index_.size() - 1;
  for (size_t i = home(handle, space, mask);; i = (i + 1) & mask) {
    uint32_t slot = index_[i];
    if (slot == 0) return i;
    const Record& r = at(slot - 1);
    if (r.handle == handle && r.space == space) return i;
  }
}

Record* RecordTable::find(uint64_t handle, Space space) {
  if (live_ == 0) return nullptr;
  uint32_t slot = index_[probe(handle, space)];
  return slot ? &at(slot - 1) : nullptr;
}

uint32_t RecordTable::allocate_record() {
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
  std::vector<uint32_t> old;
  old.swap(index_);
  index_.assign(old.empty() ? 16 : old.size() * 2, 0);
  for (uint32_t slot : old)
    if (slot) {
      const Record& r = at(slot - 1);
      index_[probe(r.handle, r.space)] = slot;
    }
}

void RecordTable::insert(const Record& record) {
  if ((size_t(live_) + 1) * 4 > index_.size() * 3) grow_index();  // load factor stays under 3/4
  size_t i = probe(record.handle, record.space);
  uint32_t n = allocate_record();
  Record& r = *new (&at(n)) Record(record);
  if (r.refcount == 0) r.refcount = 1;  // 0 marks a free record
  index_[i] = n + 1;
  ++live_;
}

bool RecordTable::erase(uint64_t handle, Space space, Record* removed) {
  if (live_ == 0) return false;
  size_t i = probe(handle, space);
  uint32_t slot = index_[i];
  if (slot == 0) return false;
  Record& r = at(slot - 1);
  if (removed) *removed = r;
  r.refcount = 0;
  r.handle = free_head_;
  free_head_ = slot;
  --live_;
  // Backward shift: later entries of the same probe run move up into the
  // hole when their home slot is not between the hole and where they are.
  const size_t mask = index_.size() - 1;
  index_[i] = 0;
  for (size_t j = (i + 1) & mask; index_[j] != 0; j = (j + 1) & mask) {
    const Record& moved = at(index_[j] - 1);
    size_t k = home(moved.handle, moved.space, mask);
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
  std::fill(index_.begin(), index_.end(), 0);
}

}  // namespace cudaleak
