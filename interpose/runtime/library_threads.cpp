#include "interpose/runtime/library_threads.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace cudaleak {

namespace {
constexpr int kSlots = 64;  // the driver starts a handful per context
// glibc's descriptor is about 2.3 KiB (the pair at 1,592 bytes in 2.36):
// the pair is looked for in its first 4 KiB.
constexpr size_t kDescriptorBytes = 4096;

constexpr uintptr_t kClaimed = ~uintptr_t(0);  // a slot being written: above every address

struct Note {
  std::atomic<uintptr_t> descriptor{0};  // published last: 0 is an empty slot
  std::atomic<uintptr_t> start{0}, arg{0};
};
Note g_notes[kSlots];

// Whether the memory at `descriptor` still holds the pair {start, arg},
// read through the kernel: the stack may be unmapped since.
bool still_holds(uintptr_t descriptor, uintptr_t start, uintptr_t arg) {
  alignas(8) unsigned char bytes[kDescriptorBytes];
  iovec local{bytes, sizeof bytes}, remote{reinterpret_cast<void*>(descriptor), sizeof bytes};
  ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  if (n < 0 && errno != EFAULT) {  // refused (a seccomp profile): the same read through /proc/self/mem
    int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    n = fd < 0 ? -1 : pread(fd, bytes, sizeof bytes, off_t(descriptor));
    if (fd >= 0) close(fd);
  }
  const uintptr_t pair[2] = {start, arg};
  for (ssize_t at = 0; at + ssize_t(sizeof pair) <= n; at += sizeof(uintptr_t))
    if (std::memcmp(bytes + at, pair, sizeof pair) == 0) return true;
  return false;
}

bool holds(const Note& note, uintptr_t descriptor) {
  return still_holds(descriptor, note.start.load(std::memory_order_relaxed), note.arg.load(std::memory_order_relaxed));
}
}  // namespace

bool started_by_cuda_library(uint64_t begin, uint64_t end) {
  for (const Note& note : g_notes) {
    const uintptr_t descriptor = note.descriptor.load(std::memory_order_acquire);
    if (descriptor && descriptor >= begin && descriptor < end && holds(note, descriptor)) return true;
  }
  return false;
}

void note_cuda_thread(uintptr_t descriptor, uintptr_t start, uintptr_t arg) {
  for (int pass = 0; pass < 2; ++pass)
    for (Note& note : g_notes) {
      uintptr_t seen = note.descriptor.load(std::memory_order_acquire);
      // The second pass takes a slot whose note no longer holds; a slot
      // being written (kClaimed) is another thread's.
      if (seen == kClaimed || (seen && (pass == 0 || holds(note, seen)))) continue;
      if (!note.descriptor.compare_exchange_strong(seen, kClaimed)) continue;
      note.start.store(start, std::memory_order_relaxed);
      note.arg.store(arg, std::memory_order_relaxed);
      note.descriptor.store(descriptor, std::memory_order_release);
      return;
    }
  // 64 live threads of CUDA's: this one stays a root (at worst a reference
  // of the driver's reads as still reachable).
}

}  // namespace cudaleak
