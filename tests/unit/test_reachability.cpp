// The reachability scan's parts against crafted memory: the maps parser,
// glibc's chunk walker and the flood fill (interpose/runtime/reach_*.h).
#include <catch2/catch.hpp>

#include <sys/mman.h>

#include <cstring>
#include <string>

#include "interpose/runtime/reach_heap.h"
#include "interpose/runtime/reach_maps.h"
#include "interpose/runtime/reach_scan.h"
#include "interpose/runtime/reach_static_runtime.h"
#include "interpose/runtime/library_threads.h"
#include "interpose/runtime/reachability.h"
#include "report/gate/gate.h"

using namespace cudaleak::reach;

namespace {

// A page-aligned mapping of `bytes` that the test lays chunks into.
struct Memory {
  explicit Memory(size_t n) : bytes(n) {
    base = static_cast<unsigned char*>(mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    REQUIRE(base != MAP_FAILED);
  }
  ~Memory() { munmap(base, bytes); }
  uint64_t at(size_t offset) const { return uint64_t(base + offset); }
  void word(size_t offset, uint64_t value) { std::memcpy(base + offset, &value, 8); }
  // A chunk header: prev_size 0 and the size word (with its flag bits).
  void chunk(size_t offset, uint64_t size_word) { word(offset + 8, size_word); }
  unsigned char* base;
  size_t bytes;
};

// The whole of `heap` as the scan's one heap region, its chunks walked as
// the reporter walks malloc's.
void add_heap_region(Scan& scan, const Memory& heap) {
  scan.regions.push_back(Region{heap.at(0), heap.at(heap.bytes), 0, 0, false});
  WindowReader reader;
  REQUIRE(walk_heap(reader, heap.at(0), heap.at(heap.bytes), scan.pieces, WalkLimits{100}));
  scan.regions.back().count = uint32_t(scan.pieces.size());
}

}  // namespace

TEST_CASE("reachability maps: anonymous memory, the heap, stacks and files told apart", "[reachability]") {
  const std::string text =
      "55d0c0000000-55d0c0001000 r--p 00000000 08:01 1234      /usr/bin/prog\n"
      "55d0c0201000-55d0c0202000 rw-p 00001000 08:01 1234      /usr/bin/prog\n"
      "55d0c1000000-55d0c1400000 rw-p 00000000 00:00 0         [heap]\n"
      "7f0000000000-7f0000021000 rw-p 00000000 00:00 0 \n"
      "7f0000100000-7f0000101000 ---p 00000000 00:00 0\n"
      "7f0000101000-7f0000901000 rw-p 00000000 00:00 0         [anon:glibc: malloc arena]\n"
      "7f0001000000-7f0001001000 rw-s 00000000 00:05 77        /dev/shm/x (deleted)\n"
      "not a line at all\n"
      "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0         [stack]\n"
      "7ffc00100000-7ffc00102000 r--p 00000000 00:00 0         [vvar]";
  MappedArray<Mapping> maps;
  REQUIRE(parse_maps(text.data(), text.size(), maps));
  REQUIRE(maps.size() == 9);
  CHECK(maps[0].type == MapType::File);
  CHECK_FALSE(maps[0].writable);
  CHECK(maps[1].writable);
  CHECK(maps[2].type == MapType::Heap);
  CHECK(maps[2].begin == 0x55d0c1000000);
  CHECK(maps[2].end == 0x55d0c1400000);
  CHECK(maps[3].type == MapType::Anonymous);
  CHECK_FALSE(maps[4].readable);
  CHECK(maps[5].type == MapType::Anonymous);
  CHECK(maps[6].shared);
  CHECK(maps[6].type == MapType::File);
  CHECK(maps[7].type == MapType::Stack);
  CHECK(maps[8].type == MapType::Special);
  CHECK(mapping_at(maps, 0x55d0c1000010) == &maps[2]);
  CHECK(mapping_at(maps, 0x55d0c1400000) == nullptr);
  CHECK(mapping_at(maps, 0x7ffc00000008) == &maps[7]);
}

TEST_CASE("reachability heap: chunks walked, in use told by the next chunk, nonsense stops the walk",
          "[reachability]") {
  Memory m(4096);
  m.chunk(0x000, 0x30 | 1);  // in use: the next chunk's PREV_INUSE is set
  m.chunk(0x030, 0x40 | 1);  // free: the next one's PREV_INUSE is clear
  m.chunk(0x070, 0x20 | 0);
  m.chunk(0x090, 4096 - 0x90 | 1);  // the top, to the end
  WindowReader reader;
  MappedArray<uint64_t> pieces;
  REQUIRE(walk_heap(reader, m.at(0), m.at(4096), pieces, WalkLimits{1000}));
  REQUIRE(pieces.size() == 4);
  CHECK(piece_start(pieces[0]) == m.at(0));
  CHECK((pieces[0] & kInUse));
  CHECK_FALSE((pieces[1] & kInUse));
  CHECK((pieces[2] & kInUse));
  CHECK_FALSE((pieces[3] & kInUse));  // the top is never in use

  SECTION("a size past the mapping leaves the rest as one piece of unknown layout") {
    m.chunk(0x070, 0x100000 | 1);
    WindowReader fresh;  // a reader keeps the window it read: the memory changed
    MappedArray<uint64_t> cut;
    CHECK_FALSE(walk_heap(fresh, m.at(0), m.at(4096), cut, WalkLimits{1000}));
    REQUIRE(cut.size() == 3);
    CHECK(piece_start(cut[2]) == m.at(0x70));
    CHECK((cut[2] & kWhole));
  }
  SECTION("a size that is not a multiple of 16, or an mmapped bit inside a heap, too") {
    m.chunk(0x030, 0x48 | 1);
    WindowReader fresh;
    MappedArray<uint64_t> cut;
    CHECK_FALSE(walk_heap(fresh, m.at(0), m.at(4096), cut, WalkLimits{1000}));
    CHECK(cut.size() == 2);
    m.chunk(0x030, 0x40 | 2);
    WindowReader again;
    MappedArray<uint64_t> mmapped;
    CHECK_FALSE(walk_heap(again, m.at(0), m.at(4096), mmapped, WalkLimits{1000}));
  }
  SECTION("past max_pieces the rest is one piece") {
    MappedArray<uint64_t> few;
    CHECK_FALSE(walk_heap(reader, m.at(0), m.at(4096), few, WalkLimits{2}));
    CHECK(few.size() == 3);
  }
}

TEST_CASE("reachability heap: chunks mmapped on their own, adjacent ones read as one mapping", "[reachability]") {
  Memory m(3 * 4096);
  m.chunk(0, 2 * 4096 | 2);
  m.chunk(2 * 4096, 4096 | 2);
  WindowReader reader;
  MappedArray<uint64_t> pieces;
  REQUIRE(walk_mmapped(reader, m.at(0), m.at(3 * 4096), pieces));
  REQUIRE(pieces.size() == 2);
  CHECK(piece_start(pieces[1]) == m.at(2 * 4096));
  CHECK((pieces[1] & kMmapped));
  Memory plain(4096);
  MappedArray<uint64_t> none;
  CHECK_FALSE(walk_mmapped(reader, plain.at(0), plain.at(4096), none));
  CHECK(none.empty());
}

TEST_CASE("reachability scan: a global, a heap block reached from it, a handle, and what nothing holds",
          "[reachability]") {
  Memory heap(4096);
  heap.chunk(0x000, 0x40 | 1);  // holds the device pointer; in use
  heap.chunk(0x040, 0x40 | 1);  // another, overlapping a target: never followed
  heap.chunk(0x080, 4096 - 0x80 | 1);
  const uint64_t device = 0x7e0000000000, lost = 0x7e0000800000, stream = 0x7e0001000000;
  heap.word(0x010 + 8, device + 64);  // an interior pointer, in the first chunk's data
  alignas(8) static uint64_t globals[4];
  globals[0] = heap.at(0x10);  // points at the first chunk's data
  globals[1] = stream;         // a handle, exactly
  globals[2] = 12345;          // a number
  globals[3] = 0;

  Scan scan;
  scan.targets.push_back(Target{device, device + (1 << 20), 0, false});
  scan.targets.push_back(Target{lost, lost + (1 << 20), 1, false});
  scan.targets.push_back(Target{stream, stream + 1, 2, true});
  scan.targets.push_back(Target{heap.at(0x50), heap.at(0x58), 3, false});  // pinned memory inside the second chunk
  REQUIRE(scan.findings.resize(4));
  scan.roots.push_back(Root{uint64_t(globals), uint64_t(globals + 4), 7});
  add_heap_region(scan, heap);
  REQUIRE(scan.prepare());
  scan.run();
  CHECK(scan.complete);
  CHECK(scan.findings[0].found);
  CHECK(scan.findings[0].via_heap);
  CHECK(scan.findings[0].interior);
  CHECK(scan.findings[0].root == 7);
  CHECK(scan.findings[0].root_word == uint64_t(&globals[0]));
  CHECK_FALSE(scan.findings[1].found);
  CHECK(scan.findings[2].found);
  CHECK_FALSE(scan.findings[2].via_heap);
  CHECK_FALSE(scan.findings[2].interior);
  CHECK_FALSE(scan.findings[3].found);
  CHECK(scan.pieces_followed == 1);

  SECTION("a byte limit stops the scan: not complete") {
    Scan limited;
    limited.targets.push_back(Target{lost, lost + 1, 0, true});
    REQUIRE(limited.findings.resize(1));
    limited.roots.push_back(Root{uint64_t(globals), uint64_t(globals + 4), 0});
    limited.byte_limit = 8;
    REQUIRE(limited.prepare());
    limited.run();
    CHECK_FALSE(limited.complete);
  }
  SECTION("memory unmapped under the scan is passed over, never faulted on") {
    Scan gone;
    Memory doomed(2 * 4096);
    std::memcpy(doomed.base, &stream, 8);
    gone.targets.push_back(Target{stream, stream + 1, 0, true});
    REQUIRE(gone.findings.resize(1));
    gone.roots.push_back(Root{doomed.at(0), doomed.at(2 * 4096), 0});
    REQUIRE(gone.prepare());
    REQUIRE(munmap(doomed.base + 4096, 4096) == 0);  // the second page vanishes, after the scan's own mappings
    gone.run();
    CHECK(gone.findings[0].found);
    CHECK(gone.bytes_scanned == 4096);
    doomed.bytes = 4096;
  }
}

// A std::vector in a global whose destructor freed its buffer still holds
// its end pointer: one past the freed chunk's end, which is the next chunk's
// header. The next chunk is not reached through it.
TEST_CASE("reachability scan: a pointer at a chunk's header reaches nothing", "[reachability]") {
  Memory heap(4096);
  heap.chunk(0x000, 0x40 | 1);  // the vector's buffer, now freed (its words are stale)
  heap.chunk(0x040, 0x40 | 1);  // the next chunk, holding the device pointer
  heap.chunk(0x080, 4096 - 0x80 | 1);
  const uint64_t device = 0x7e0000000000;
  heap.word(0x050, device);  // in the next chunk's data
  alignas(8) static uint64_t globals[2];
  Scan scan;
  scan.targets.push_back(Target{device, device + 4096, 0, false});
  REQUIRE(scan.findings.resize(1));
  scan.roots.push_back(Root{uint64_t(globals), uint64_t(globals + 2), 0});
  add_heap_region(scan, heap);
  SECTION("one past the end of the chunk before: not followed") {
    globals[0] = heap.at(0x040);  // the vector's end: the next chunk's prev_size word
    globals[1] = heap.at(0x048);  // inside the header
    REQUIRE(scan.prepare());
    scan.run();
    CHECK_FALSE(scan.findings[0].found);
    CHECK(scan.pieces_followed == 0);
  }
  SECTION("a pointer to the chunk's memory: followed") {
    globals[0] = heap.at(0x050);
    globals[1] = 0;
    REQUIRE(scan.prepare());
    scan.run();
    CHECK(scan.findings[0].found);
  }
}

TEST_CASE("reachability: what is searched for, and whose globals are no roots", "[reachability]") {
  using cudaleak::Kind;
  using cudaleak::reachability::excluded_object;
  using cudaleak::reachability::Search;
  using cudaleak::reachability::search_of;
  CHECK(search_of(Kind::Device) == Search::Range);
  CHECK(search_of(Kind::Pinned) == Search::Range);
  CHECK(search_of(Kind::Stream) == Search::Exact);
  CHECK(search_of(Kind::LibraryHandle) == Search::Exact);
  CHECK(search_of(Kind::Context) == Search::NotSearched);
  CHECK(excluded_object("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
  CHECK(excluded_object("/opt/torch/lib/libcudart.so.12"));
  CHECK(excluded_object("/build/lib/cudaleak/simcuda/libcuda.so.1"));
  CHECK(excluded_object("libcublasLt.so.13"));
  CHECK(excluded_object("/lib/x86_64-linux-gnu/libc.so.6"));
  CHECK(excluded_object("/lib64/ld-linux-x86-64.so.2"));
  CHECK_FALSE(excluded_object("/opt/torch/lib/libc10_cuda.so"));
  CHECK_FALSE(excluded_object("/usr/lib/libcustom.so"));
  CHECK(is_static_runtime_symbol("libcudart_static_4d8b33a106dceb3c"));
  CHECK_FALSE(is_static_runtime_symbol("g_cache"));
}

// Who started a thread (runtime/library_threads.h): the first frame of its
// creator outside the runtimes that pass the call on.
TEST_CASE("reachability: CUDA's libraries and the code that only passes a call on", "[reachability]") {
  using cudaleak::reachability::cuda_library;
  using cudaleak::reachability::go_between;
  CHECK(cuda_library("/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04"));
  CHECK(cuda_library("/opt/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2"));
  CHECK(cuda_library("libcublasLt.so.13"));
  CHECK_FALSE(cuda_library("/lib/x86_64-linux-gnu/libstdc++.so.6"));
  CHECK_FALSE(cuda_library("/opt/torch/lib/libc10_cuda.so"));
  CHECK_FALSE(cuda_library("/home/me/prog"));
  CHECK(go_between("/lib/x86_64-linux-gnu/libstdc++.so.6"));
  CHECK(go_between("/lib/x86_64-linux-gnu/libc.so.6"));
  CHECK(go_between("/usr/lib/x86_64-linux-gnu/libtsan.so.2"));
  CHECK(go_between("/usr/lib/llvm-17/lib/clang/17/lib/linux/libclang_rt.asan-x86_64.so"));
  CHECK_FALSE(go_between("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
  CHECK_FALSE(go_between("/home/me/prog"));
}

TEST_CASE("reachability: the names CUDA's, NCCL's and cudaleak's threads have", "[reachability]") {
  using cudaleak::reachability::library_thread_name;
  CHECK(library_thread_name("cuda-EvtHandlr"));
  CHECK(library_thread_name("cuda00001c00008"));
  CHECK(library_thread_name("cudaleak-live"));
  CHECK(library_thread_name("NCCL Progress  0"));
  CHECK_FALSE(library_thread_name("cuda"));
  CHECK_FALSE(library_thread_name("cuda0"));
  CHECK_FALSE(library_thread_name("cudabeef"));
  CHECK_FALSE(library_thread_name("cudaWorker"));
  CHECK_FALSE(library_thread_name("cuda_loader"));
  CHECK_FALSE(library_thread_name("python3"));
}

TEST_CASE("reachability: a note of a CUDA library's thread holds while its descriptor does", "[reachability]") {
  using cudaleak::note_cuda_thread;
  using cudaleak::started_by_cuda_library;
  // A stand-in for a thread's descriptor: the start routine and argument side by side, as glibc keeps them.
  alignas(64) static uintptr_t descriptor[512] = {};
  const uintptr_t start = 0x401000, arg = 0x7fff1234;
  descriptor[199] = start, descriptor[200] = arg;
  const auto at = reinterpret_cast<uintptr_t>(descriptor);
  note_cuda_thread(at, start, arg);
  CHECK(started_by_cuda_library(at - 4096, at + 4096));
  CHECK_FALSE(started_by_cuda_library(at + 4096, at + 8192));
  // Reused by a thread of the program's: another start routine there.
  descriptor[199] = 0x402000;
  CHECK_FALSE(started_by_cuda_library(at - 4096, at + 4096));
  descriptor[199] = start;
  CHECK(started_by_cuda_library(at - 4096, at + 4096));
  descriptor[199] = descriptor[200] = 0;  // later tests see no note that holds
}

// A PyTorch process on an H200: a raw cudaMalloc whose pointer was dropped
// read as still reachable through a stale copy in the interpreter's heap,
// and passed the gate. leak_kinds=auto counts still reachable resources in a
// Python process and leaves them out in a native one.
TEST_CASE("reachability gate: auto counts still reachable resources in a Python process only", "[reachability]") {
  using namespace cudaleak;
  auto verdict_of = [](const std::string& kinds, bool python) {
    report::Report r;
    report::LeakGroup g;
    g.kind = Kind::Device;
    g.bytes = 8 << 20;
    g.count = 1;
    g.reachability = report::Reachability::StillReachable;
    r.leaks = {g};
    if (python) r.python.version = "3.12.3";
    gate::GateSettings s;
    s.default_suppressions = false;
    s.leak_kinds = kinds;
    gate::GateConfig c = gate::make_gate_config(s, [](const std::string&) {});
    REQUIRE(c.config_error.empty());
    return gate::judge(r, c).failing_groups;
  };
  CHECK(verdict_of("auto", true) == 1);
  CHECK(verdict_of("auto", false) == 0);
  CHECK(verdict_of("definite", true) == 0);
  CHECK(verdict_of("all", false) == 1);
}
