// Memory shared between two processes on a real GPU. The parent exports a
// legacy IPC handle, a pool and a pointer from it, and a VMM allocation (two
// file descriptors: one for cuMemImportFromShareableHandle, one for
// cuImportExternalMemory); a child started with exec imports each of them.
// In `leak` the child releases nothing; in `clean` everything. The parent
// releases what it made in both modes, after the child has ended.
// tests/cases/kinds/real_sharing.sh asserts the child's and the parent's reports.
#include <cuda.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../../common/primary_context.h"

namespace {

struct Exports {
  CUipcMemHandle ipc;
  CUmemPoolPtrExportData pool_pointer;
  size_t vmm_bytes;
};
constexpr int kFds = 3;  // pool, VMM allocation, VMM allocation again (external memory)

// One message: the exports as data, the descriptors as SCM_RIGHTS.
struct Message {
  iovec iov;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kFds)] = {};
  msghdr msg{};
  explicit Message(Exports& exports) : iov{&exports, sizeof exports} {
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
};

void send_exports(int sock, Exports exports, const int (&fds)[kFds]) {
  Message m(exports);
  cmsghdr* c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof fds);
  std::memcpy(CMSG_DATA(c), fds, sizeof fds);
  if (sendmsg(sock, &m.msg, 0) != ssize_t(sizeof exports)) std::exit(4);
}

void receive_exports(int sock, Exports& exports, int (&fds)[kFds]) {
  Message m(exports);
  if (recvmsg(sock, &m.msg, MSG_WAITALL) != ssize_t(sizeof exports)) std::exit(4);
  cmsghdr* c = CMSG_FIRSTHDR(&m.msg);
  if (!c || c->cmsg_type != SCM_RIGHTS) std::exit(4);
  std::memcpy(fds, CMSG_DATA(c), sizeof fds);
}

void* as_os_handle(int fd) { return reinterpret_cast<void*>(intptr_t(fd)); }

int child(int sock, bool leak) {
  Exports exports;
  int fds[kFds];
  receive_exports(sock, exports, fds);
  use_primary_context();

  CUdeviceptr opened;
  CHECK(cuIpcOpenMemHandle(&opened, exports.ipc, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  CUmemoryPool pool;
  CHECK(cuMemPoolImportFromShareableHandle(&pool, as_os_handle(fds[0]), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUdeviceptr imported;
  CHECK(cuMemPoolImportPointer(&imported, pool, &exports.pool_pointer));
  CUmemGenericAllocationHandle vmm;
  CHECK(cuMemImportFromShareableHandle(&vmm, as_os_handle(fds[1]), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));

  // The same allocation as external memory (an opaque file descriptor);
  // the driver owns the descriptor once the import succeeds.
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fds[2];
  desc.size = exports.vmm_bytes;
  CUexternalMemory external = nullptr;
  CUdeviceptr mapped = 0;
  CUresult r = cuImportExternalMemory(&external, &desc);
  if (r == CUDA_SUCCESS) {
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC buffer{};
    buffer.size = exports.vmm_bytes;
    CHECK(cuExternalMemoryGetMappedBuffer(&mapped, external, &buffer));
    std::printf("external memory imported\n");
  } else {
    std::printf("external memory not imported: %d\n", int(r));
  }
  CHECK(cuMemsetD8(opened, 1, 1 << 20));
  CHECK(cuCtxSynchronize());

  if (!leak) {
    if (external) {
      CHECK(cuMemFree(mapped));
      CHECK(cuDestroyExternalMemory(external));
    }
    CHECK(cuMemRelease(vmm));
    CHECK(cuMemFree(imported));
    CHECK(cuMemPoolDestroy(pool));
    CHECK(cuIpcCloseMemHandle(opened));
  }
  char done = 1;
  if (write(sock, &done, 1) != 1) return 4;
  std::printf("child: %s\n", leak ? "nothing released" : "everything released");
  return 0;
}

int parent(const char* self, bool leak) {
  CUdevice dev = use_primary_context();

  Exports exports{};
  CUdeviceptr legacy;
  CHECK(cuMemAlloc(&legacy, 1 << 20));
  CHECK(cuIpcGetMemHandle(&exports.ipc, legacy));

  CUmemPoolProps pool_props{};
  pool_props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  pool_props.location = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  pool_props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemoryPool pool;
  CHECK(cuMemPoolCreate(&pool, &pool_props));
  CUdeviceptr pooled;
  CHECK(cuMemAllocFromPoolAsync(&pooled, 2 << 20, pool, nullptr));
  CHECK(cuStreamSynchronize(nullptr));
  int fds[kFds];
  // A pointer is exported from a pool already shared.
  CHECK(cuMemPoolExportToShareableHandle(&fds[0], pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuMemPoolExportPointer(&exports.pool_pointer, pooled));

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CHECK(cuMemGetAllocationGranularity(&exports.vmm_bytes, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle vmm;
  CHECK(cuMemCreate(&vmm, exports.vmm_bytes, &prop, 0));

  CHECK(cuMemExportToShareableHandle(&fds[1], vmm, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuMemExportToShareableHandle(&fds[2], vmm, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));

  int socks[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, socks) != 0) return 4;
  pid_t pid = fork();
  if (pid == 0) {
    close(socks[0]);
    std::string fd = std::to_string(socks[1]);
    execl("/proc/self/exe", self, leak ? "child-leak" : "child-clean", fd.c_str(), nullptr);
    _exit(127);
  }
  close(socks[1]);
  send_exports(socks[0], exports, fds);
  char done = 0;
  if (read(socks[0], &done, 1) != 1) std::fprintf(stderr, "the child ended without answering\n");
  int status = 0;
  waitpid(pid, &status, 0);

  for (int fd : fds) close(fd);
  CHECK(cuMemRelease(vmm));
  CHECK(cuMemFreeAsync(pooled, nullptr));
  CHECK(cuStreamSynchronize(nullptr));
  CHECK(cuMemPoolDestroy(pool));
  CHECK(cuMemFree(legacy));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  std::printf("parent: child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "leak";
  if (mode.rfind("child-", 0) == 0 && argc > 2) return child(std::atoi(argv[2]), mode == "child-leak");
  return parent(argv[0], mode == "leak");
}
