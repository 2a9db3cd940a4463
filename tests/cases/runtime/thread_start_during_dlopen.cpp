// BUILD: ${CXX:-g++} -O1 -g -pthread -rdynamic %s -o %t/prog -ldl
// BUILD: ${CXX:-g++} -O1 -g -DAS_LIBRARY -shared -fPIC %s -o %t/libwaits.so
// RUN: %t/prog %t/libwaits.so; echo "alone: $?"
// CHECK: loaded: yes
// CHECK: alone: 0
// RUN: timeout 60 %run -o %t/r.json -- %t/prog %t/libwaits.so; echo "traced: $?"
// CHECK: loaded: yes
// CHECK: traced: 0
//
// A library's constructor runs inside dlopen, with the loader's lock held,
// and may wait for another thread that starts a thread of its own. That
// thread's pthread_create reaches cudaleak's, which must not take the
// loader's lock (dladdr does) to tell who created the thread: the program
// would hang where it runs alone.
#include <atomic>
#include <thread>

#ifdef AS_LIBRARY
extern std::atomic<int> g_step;
__attribute__((constructor)) static void wait_for_a_thread_start() {
  g_step = 1;  // asks the worker to start a thread
  while (g_step != 2) std::this_thread::yield();
}
#else
#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>

std::atomic<int> g_step{0};
static void* nothing(void*) { return nullptr; }

int main(int, char** argv) {
  std::thread worker([] {
    while (g_step != 1) std::this_thread::yield();
    pthread_t thread;
    if (pthread_create(&thread, nullptr, nothing, nullptr) == 0) pthread_join(thread, nullptr);
    g_step = 2;
  });
  void* library = dlopen(argv[1], RTLD_NOW);
  worker.join();
  std::printf("loaded: %s\n", library ? "yes" : dlerror());
  return 0;
}
#endif
