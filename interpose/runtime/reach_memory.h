// What the reachability scan (reachability.h) reads and keeps its work in.
// Every read of the program's memory goes through /proc/self/mem (or
// process_vm_readv) of this process: a mapping another thread unmaps
// meanwhile makes the read fail, never the program fault. The scan's own memory comes from mmap, never from
// malloc, whose heap is what it walks; it stays out of the scan (owns()).
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cudaleak::reach {

// Reads [address, address + bytes) into out; the bytes read (0: unreadable).
// Between open_reads() and close_reads(), through /proc/self/mem: pinning a
// page, as process_vm_readv does, copies it when it is shared copy-on-write
// with a parent (a forked child would copy every page it reads); a plain
// read of /proc/self/mem does not. Without the file, process_vm_readv.
size_t read_own(uint64_t address, void* out, size_t bytes);
void open_reads();
void close_reads();

// The scan's own mappings, so that the scan never follows a pointer into
// them: every MappedArray registers its current block.
bool owned_by_scan(uint64_t address);

// A growable array in a mapping of its own (moved by mremap), for the
// maps, the heap's chunks and the work list.
template <class T>
class MappedArray {
 public:
  MappedArray() = default;
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;
  ~MappedArray() { release(); }
  // False when the mapping cannot grow or would pass `limit` bytes.
  bool push_back(const T& value) {
    if (size_ == capacity_ && !grow(capacity_ ? capacity_ * 2 : 4096 / sizeof(T) + 1)) return false;
    data_[size_++] = value;
    return true;
  }
  bool resize(size_t n) {
    if (n > capacity_ && !grow(n)) return false;
    if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
    size_ = n;
    return true;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t bytes_mapped() const { return capacity_ * sizeof(T); }
  static void set_limit(size_t bytes);  // all arrays together; over it, push_back fails

 private:
  bool grow(size_t capacity);
  void release();
  T* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

// Bookkeeping of the mappings MappedArray makes (reach_memory.cpp).
namespace detail {
void* remap(void* old, size_t old_bytes, size_t new_bytes);  // nullptr: failed or over the limit
void unmap(void* block, size_t bytes);
void set_limit(size_t bytes);
}  // namespace detail

template <class T>
void MappedArray<T>::set_limit(size_t bytes) {
  detail::set_limit(bytes);
}

template <class T>
bool MappedArray<T>::grow(size_t capacity) {
  void* block = detail::remap(data_, capacity_ * sizeof(T), capacity * sizeof(T));
  if (!block) return false;
  data_ = static_cast<T*>(block);
  capacity_ = capacity;
  return true;
}

template <class T>
void MappedArray<T>::release() {
  if (data_) detail::unmap(data_, capacity_ * sizeof(T));
  data_ = nullptr;
  size_ = capacity_ = 0;
}

// Reads a file whole (/proc/self/maps) into `out`, up to `max` bytes.
bool read_whole_file(const char* path, MappedArray<char>& out, size_t max);

}  // namespace cudaleak::reach
