// Device globals of known sizes, compiled by the tests into a cubin and into
// fatbins of every compression nvcc offers (CMakeLists.txt here): the globals
// read from each must be the same.
__device__ int table[1024];                     // .nv.global, 4096 B
__device__ double weights[3] = {1.0, 2.0, 3.0};  // .nv.global.init, 24 B
__device__ unsigned char scratch[100000];       // .nv.global

__global__ void use_globals(int i) {
  table[i] += int(weights[i % 3]) + scratch[i];
  char* row = static_cast<char*>(malloc(i));  // the device heap: an undefined malloc in the cubin
  if (row) row[0] = 1;
}
