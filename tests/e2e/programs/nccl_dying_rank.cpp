// A rank with one NCCL communicator (the stand-in library): the library maps
// its buffers on its proxy thread and inside ncclAllReduce, after
// ncclCommInitRank returned; the program also takes a buffer from
// ncclMemAlloc. `dying` ends with the communicator alive, as a rank that ran
// out of memory or was sent SIGTERM does, and the ncclMemAlloc buffer never
// freed; `clean` destroys and frees both.
#include <cuda.h>

#include <cstring>

#include "../../common/primary_context.h"

struct NcclId {
  char internal[128];
};
extern "C" int ncclGetUniqueId(NcclId* id);
extern "C" int ncclCommInitRank(void** comm, int nranks, NcclId id, int rank);
extern "C" int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op, void* comm, void* stream);
extern "C" int ncclMemAlloc(void** ptr, size_t bytes);
extern "C" int ncclMemFree(void* ptr);
extern "C" int ncclCommDestroy(void* comm);

int main(int argc, char** argv) {
  const bool clean = argc > 1 && std::strcmp(argv[1], "clean") == 0;
  use_primary_context();
  NcclId id;
  CHECK(ncclGetUniqueId(&id));
  void* comm = nullptr;
  CHECK(ncclCommInitRank(&comm, 1, id, 0));
  void* buffer = nullptr;
  CHECK(ncclMemAlloc(&buffer, 2 << 20));  // the program's: NCCL only hands it out
  for (int step = 0; step < 3; ++step) CHECK(ncclAllReduce(buffer, buffer, 1024, 7, 0, comm, nullptr));
  if (clean) {
    CHECK(ncclCommDestroy(comm));
    CHECK(ncclMemFree(buffer));
  }
  return 0;
}
