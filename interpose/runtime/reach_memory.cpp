#include "interpose/runtime/reach_memory.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

namespace cudaleak::reach {

namespace {

// Page-rounded, so that what the scan registers is what the kernel maps.
size_t page_round(size_t bytes) {
  const size_t page = 4096;
  return (bytes + page - 1) / page * page;
}

// The scan runs under the report lock: one scan at a time, no lock needed.
constexpr int kMaxBlocks = 64;
struct Block {
  uint64_t begin = 0, end = 0;
};
Block g_blocks[kMaxBlocks];
size_t g_mapped = 0;
size_t g_limit = size_t(512) << 20;

void forget(void* block) {
  for (Block& b : g_blocks)
    if (b.begin == uint64_t(block)) b = Block{};
}

bool remember(void* block, size_t bytes) {
  for (Block& b : g_blocks)
    if (!b.begin) {
      b = Block{uint64_t(block), uint64_t(block) + bytes};
      return true;
    }
  return false;
}

int g_mem = -1;  // /proc/self/mem while a scan runs

}  // namespace

void open_reads() {
  if (g_mem < 0) g_mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
}

void close_reads() {
  if (g_mem >= 0) close(g_mem);
  g_mem = -1;
}

size_t read_own(uint64_t address, void* out, size_t bytes) {
  if (!bytes) return 0;
  if (g_mem >= 0 && address < (uint64_t(1) << 63)) {
    ssize_t n;
    do n = pread(g_mem, out, bytes, off_t(address));
    while (n < 0 && errno == EINTR);
    if (n >= 0) return size_t(n);
  }
  iovec local{out, bytes};
  iovec remote{reinterpret_cast<void*>(address), bytes};
  ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  return n < 0 ? 0 : size_t(n);
}

bool owned_by_scan(uint64_t address) {
  for (const Block& b : g_blocks)
    if (address >= b.begin && address < b.end) return true;
  return false;
}

namespace detail {

void set_limit(size_t bytes) { g_limit = bytes; }

void* remap(void* old, size_t old_bytes, size_t new_bytes) {
  old_bytes = page_round(old_bytes);
  new_bytes = page_round(new_bytes);
  if (g_mapped - old_bytes + new_bytes > g_limit) return nullptr;
  void* block = old ? mremap(old, old_bytes, new_bytes, MREMAP_MAYMOVE)
                    : mmap(nullptr, new_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) return nullptr;
  if (old) forget(old);
  if (!remember(block, new_bytes)) {  // never scan what cannot be told apart
    munmap(block, new_bytes);
    g_mapped -= old_bytes;
    return nullptr;
  }
  g_mapped = g_mapped - old_bytes + new_bytes;
  return block;
}

void unmap(void* block, size_t bytes) {
  bytes = page_round(bytes);
  forget(block);
  munmap(block, bytes);
  g_mapped -= bytes;
}

}  // namespace detail

bool read_whole_file(const char* path, MappedArray<char>& out, size_t max) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out.clear();
  bool ok = true;
  for (;;) {
    const size_t have = out.size();
    if (have + 65536 > max || !out.resize(have + 65536)) {
      ok = false;
      break;
    }
    ssize_t n = read(fd, out.begin() + have, 65536);
    if (n < 0 && errno == EINTR) {
      out.resize(have);
      continue;
    }
    out.resize(have + size_t(n > 0 ? n : 0));
    if (n <= 0) {
      ok = n == 0;
      break;
    }
  }
  close(fd);
  return ok;
}

}  // namespace cudaleak::reach
