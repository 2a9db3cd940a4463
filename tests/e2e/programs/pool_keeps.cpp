// Memory pools that keep memory the program no longer uses (issue 50): a
// pool with an unlimited release threshold, 64 MiB allocated from it and
// freed again, never destroyed, keeps those 64 MiB reserved while no byte
// of it leaks. `trimmed` trims it to 16 MiB first; `in_use` leaves one 8 MiB
// allocation of a second pool, with no threshold, alive.
#include <cuda.h>

#include <cstdint>
#include <cstring>

#include "../../common/primary_context.h"

namespace {

CUmemoryPool make_pool(CUdevice dev) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  CUmemoryPool pool;
  CHECK(cuMemPoolCreate(&pool, &props));
  return pool;
}

void keep_everything(CUmemoryPool pool) {
  cuuint64_t unlimited = UINT64_MAX;
  CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &unlimited));
}

void allocate_and_free(CUmemoryPool pool, size_t bytes) {
  CUdeviceptr p;
  CHECK(cuMemAllocFromPoolAsync(&p, bytes, pool, nullptr));
  CHECK(cuMemFreeAsync(p, nullptr));
  CHECK(cuStreamSynchronize(nullptr));
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "kept";
  CUdevice dev = use_primary_context();
  CUmemoryPool pool = make_pool(dev);
  keep_everything(pool);
  allocate_and_free(pool, size_t(64) << 20);
  if (std::strcmp(mode, "trimmed") == 0) CHECK(cuMemPoolTrimTo(pool, size_t(16) << 20));
  if (std::strcmp(mode, "in_use") == 0) {
    CUmemoryPool second = make_pool(dev);
    CUdeviceptr p;
    CHECK(cuMemAllocFromPoolAsync(&p, size_t(8) << 20, second, nullptr));
  }
  return 0;  // the pools are never destroyed
}
