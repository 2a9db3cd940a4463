// Device code with globals of known size, compiled to a cubin and to an
// uncompressed fatbin for module_globals: 1 MiB zero-initialised, 4 KiB
// initialised; the constant bank is not device globals.
__device__ float table[1 << 18];
__device__ int counters[1024] = {1, 2, 3};
__constant__ float coefficients[256];
extern "C" __global__ void touch(int i) { table[i] = float(counters[i % 1024]) + coefficients[i % 256]; }
