// Device-side mallocs at known lines, for the line table of a cubin built
// with -lineinfo (test_device_lines.cpp reads the lines marked LINE: below).
__device__ __noinline__ void* helper(int n) {
  return malloc(n * 2);  // LINE: helper
}

__global__ void two_sites(int n) {
  char* kept = static_cast<char*>(malloc(n));  // LINE: first
  if (kept) kept[0] = 1;
  void* more = helper(n);
  if (n > 3) {
    char* late = static_cast<char*>(malloc(n + 7));  // LINE: second
    if (late) late[0] = 2;
  }
  free(more);
}

#ifndef ONE_KERNEL  // the readelf oracle (decoded_lines.py) reads a cubin of two_sites alone
__global__ void no_malloc(int* out) { out[threadIdx.x] = int(threadIdx.x); }
#endif
