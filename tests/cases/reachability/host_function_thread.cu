// BUILD: %nvcc %s -o %t/prog
// RUN: %run -o %t/lost.json -- %t/prog
// CHECK: host function ran 1 time
// CHECK: definitely lost: 1 stream never destroyed, created by
// CHECK: serve_once
// CHECK-NONE: Still reachable
// RUN(exit=9): %run --error-exitcode 9 -o %t/gate.json -- %t/prog
// CHECK: leak gate failed
// A thread of the program's own that keeps the stream is a reference.
// RUN: %run -o %t/held.json -- %t/prog held
// CHECK: Still reachable at exit
// CHECK-RE: 1 stream, created by cudaStreamCreate(WithFlags)? at serve_once \(host_function_thread\.cu:\d+\) on device 0, referenced from a heap block reached from a thread's stack
// CHECK: definitely lost: 0 resources; still reachable: 1 resource
// --verbose says which stacks were read and where the reference was found.
// RUN: %run --verbose -o %t/verbose.json -- %t/prog held 2>&1 | grep 'reachability:'
// (The program's own thread, asleep or just awake, is read from its stack
// pointer or, while it runs, with every mapping that looks like a stack.)
// CHECK-RE: reachability: thread [0-9]+ \(prog\) not scanned from 0x[0-9a-f]+
// CHECK-RE: reachability: stream #[0-9]+ still reachable: root word at 0x[0-9a-f]+ \(mapping 0x[0-9a-f]+\.\.0x[0-9a-f]+\), through a heap block
//
// The CUDA driver runs host functions (cudaLaunchHostFunc, a graph's host
// node) on a thread it starts without a name of its own, and that thread
// keeps the driver's structure naming the stream it served. NVIDIA's
// simpleCudaGraphs on an H200 showed its dropped stream3 and an event as
// "still reachable" through that thread's stack, which kept them out of the
// gate. A thread a CUDA library started is not the program's: the stream
// dropped in serve_once is definitely lost, and fails the gate. With `held`,
// a thread the program starts (std::thread), named "cudaWorker" as a
// program may name one, keeps the stream in a heap object while main waits
// for it at exit: its stack is read (only the names the driver, NCCL and
// cudaleak give their threads keep a stack out by name).
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <thread>

#include <cuda_runtime.h>

static void CUDART_CB note(void* data) { ++*static_cast<int*>(data); }
static int runs = 0;

__attribute__((noinline)) cudaStream_t serve_once() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaLaunchHostFunc(stream, note, &runs);
  cudaStreamSynchronize(stream);
  return stream;
}

struct Box {
  cudaStream_t stream;
};
std::mutex g_mutex;
std::condition_variable g_ready;
bool g_holding = false;

__attribute__((noinline)) void clear_stack() {
  volatile char pad[256 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main(int argc, char** argv) {
  const bool held = argc > 1 && std::strcmp(argv[1], "held") == 0;
  if (!held) {
    serve_once();
  } else {
    auto* box = new Box{serve_once()};
    std::thread([box] {
      Box* volatile mine = box;  // this thread's reference, on its stack while it sleeps
      pthread_setname_np(pthread_self(), "cudaWorker");  // a program's name, not the driver's
      {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_holding = true;
      }
      g_ready.notify_all();
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(mine ? 1 : 2));
    }).detach();
    std::unique_lock<std::mutex> lock(g_mutex);
    g_ready.wait(lock, [] { return g_holding; });
    box = nullptr;
  }
  clear_stack();
  std::printf("host function ran %d time(s)\n", runs);
  return 0;
}
