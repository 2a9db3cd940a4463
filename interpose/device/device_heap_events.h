// What the device-side malloc and free patches write for each call, read by
// the host after the launch (runtime/device_heap.cpp). Shared by the patches
// (nvcc), the preload and the simulated Sanitizer API: plain C layout.
#pragma once
#include <stdint.h>

#define CUDALEAK_DEVICE_HEAP_MALLOC 1u
#define CUDALEAK_DEVICE_HEAP_FREE 2u

struct CudaleakDeviceHeapEvent {
  uint64_t address;  // returned by malloc (0: the heap was exhausted); passed to free
  uint64_t bytes;    // malloc only
  uint64_t pc;       // of the call, in the patched kernel
  uint32_t type;     // CUDALEAK_DEVICE_HEAP_MALLOC or _FREE
  uint32_t thread;   // linear thread index in the grid (blocks x threads)
};

struct CudaleakDeviceHeapBuffer {
  uint32_t next;  // events claimed; those past capacity are dropped
  uint32_t capacity;
  uint32_t reserved[2];
  struct CudaleakDeviceHeapEvent events[1];  // capacity of them
};
