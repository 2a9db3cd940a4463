// External semaphores on a real GPU: Vulkan exports two semaphores (a binary
// and a timeline one) as opaque file descriptors, CUDA imports them with
// cuImportExternalSemaphore, signals and waits on them once from a stream,
// and in `clean` mode destroys them with cuDestroyExternalSemaphore. In
// `leak` mode both imports stay alive: cudaleak must report 2
// external_semaphore resources, created in import_semaphore().
//
// The Vulkan loader is opened with dlopen, so the program builds with only
// Vulkan's headers and needs libvulkan.so.1 (and NVIDIA's Vulkan driver)
// only when it runs. Exit status: 0 done, 1 a call failed, 2 usage,
// 77 no Vulkan device that can export a semaphore.
// Build: g++ -std=c++17 vulkan_semaphore.cpp -I$CUDA/include -L$CUDA/lib64/stubs -lcuda -ldl
#include <cuda.h>
#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

PFN_vkGetInstanceProcAddr get_instance_proc = nullptr;

[[noreturn]] void fail(const char* what, long code) {
  std::fprintf(stderr, "vulkan_semaphore: %s failed (%ld)\n", what, code);
  std::exit(1);
}
[[noreturn]] void unavailable(const char* why) {
  std::fprintf(stderr, "vulkan_semaphore: %s\n", why);
  std::exit(77);
}
void check_vk(VkResult r, const char* what) {
  if (r != VK_SUCCESS) fail(what, r);
}
void check_cu(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) fail(what, r);
}

template <typename Fn>
Fn instance_fn(VkInstance instance, const char* name) {
  auto fn = reinterpret_cast<Fn>(get_instance_proc(instance, name));
  if (!fn) unavailable(name);
  return fn;
}

struct Vulkan {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkDestroyInstance destroy_instance = nullptr;
  PFN_vkDestroyDevice destroy_device = nullptr;
  PFN_vkCreateSemaphore create_semaphore = nullptr;
  PFN_vkDestroySemaphore destroy_semaphore = nullptr;
  PFN_vkGetSemaphoreFdKHR get_semaphore_fd = nullptr;
  std::vector<VkSemaphore> exported;  // destroyed at the end, after CUDA used them
};

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  for (const auto& e : list)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// The Vulkan device of the same GPU as CUDA device 0 (by UUID), with
// VK_KHR_external_semaphore_fd.
Vulkan open_vulkan(const CUuuid& cuda_uuid) {
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!loader) unavailable("libvulkan.so.1 not found");
  get_instance_proc = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(loader, "vkGetInstanceProcAddr"));
  if (!get_instance_proc) unavailable("vkGetInstanceProcAddr not found");

  Vulkan vk;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "cudaleak vulkan_semaphore";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  auto create_instance = instance_fn<PFN_vkCreateInstance>(VK_NULL_HANDLE, "vkCreateInstance");
  if (VkResult r = create_instance(&instance_info, nullptr, &vk.instance); r != VK_SUCCESS)
    unavailable("vkCreateInstance failed: no Vulkan driver");
  vk.destroy_instance = instance_fn<PFN_vkDestroyInstance>(vk.instance, "vkDestroyInstance");

  auto enumerate = instance_fn<PFN_vkEnumeratePhysicalDevices>(vk.instance, "vkEnumeratePhysicalDevices");
  auto properties2 = instance_fn<PFN_vkGetPhysicalDeviceProperties2>(vk.instance, "vkGetPhysicalDeviceProperties2");
  auto extensions = instance_fn<PFN_vkEnumerateDeviceExtensionProperties>(vk.instance,
                                                                          "vkEnumerateDeviceExtensionProperties");
  uint32_t count = 0;
  check_vk(enumerate(vk.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check_vk(enumerate(vk.instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  VkPhysicalDevice chosen = VK_NULL_HANDLE;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
    properties2(d, &props);
    uint32_t n = 0;
    extensions(d, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> list(n);
    extensions(d, nullptr, &n, list.data());
    std::printf("vulkan device: %s, same GPU as CUDA device 0: %s\n", props.properties.deviceName,
                std::memcmp(id.deviceUUID, cuda_uuid.bytes, VK_UUID_SIZE) == 0 ? "yes" : "no");
    if (std::memcmp(id.deviceUUID, cuda_uuid.bytes, VK_UUID_SIZE) == 0 &&
        has_extension(list, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
      chosen = d;
  }
  if (!chosen) unavailable("no Vulkan device of CUDA device 0 with VK_KHR_external_semaphore_fd");

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = 0;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* device_extensions[] = {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
  VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  features12.timelineSemaphore = VK_TRUE;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features12};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue;
  device_info.enabledExtensionCount = 1;
  device_info.ppEnabledExtensionNames = device_extensions;
  auto create_device = instance_fn<PFN_vkCreateDevice>(vk.instance, "vkCreateDevice");
  check_vk(create_device(chosen, &device_info, nullptr, &vk.device), "vkCreateDevice");
  vk.destroy_device = instance_fn<PFN_vkDestroyDevice>(vk.instance, "vkDestroyDevice");
  vk.create_semaphore = instance_fn<PFN_vkCreateSemaphore>(vk.instance, "vkCreateSemaphore");
  vk.destroy_semaphore = instance_fn<PFN_vkDestroySemaphore>(vk.instance, "vkDestroySemaphore");
  vk.get_semaphore_fd = instance_fn<PFN_vkGetSemaphoreFdKHR>(vk.instance, "vkGetSemaphoreFdKHR");
  return vk;
}

// A Vulkan semaphore exported as an opaque fd and imported into CUDA.
__attribute__((noinline)) CUexternalSemaphore import_semaphore(Vulkan& vk, bool timeline) {
  VkExportSemaphoreCreateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  exportable.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, &exportable};
  type.semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  check_vk(vk.create_semaphore(vk.device, &info, nullptr, &semaphore), "vkCreateSemaphore");
  VkSemaphoreGetFdInfoKHR get{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  get.semaphore = semaphore;
  get.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check_vk(vk.get_semaphore_fd(vk.device, &get, &fd), "vkGetSemaphoreFdKHR");

  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = timeline ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                       : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fd;  // owned by CUDA once imported
  CUexternalSemaphore imported = nullptr;
  check_cu(cuImportExternalSemaphore(&imported, &desc), "cuImportExternalSemaphore");
  vk.exported.push_back(semaphore);
  return imported;
}

// One signal from a stream, and for the timeline semaphore the wait for it:
// the imports are used, not only made.
void use(CUexternalSemaphore semaphore, bool timeline, CUstream stream) {
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal{};
  signal.params.fence.value = 1;
  check_cu(cuSignalExternalSemaphoresAsync(&semaphore, &signal, 1, stream), "cuSignalExternalSemaphoresAsync");
  if (timeline) {
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait{};
    wait.params.fence.value = 1;
    check_cu(cuWaitExternalSemaphoresAsync(&semaphore, &wait, 1, stream), "cuWaitExternalSemaphoresAsync");
  }
  check_cu(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

}  // namespace

int main(int argc, char** argv) {
  const bool leak = argc == 2 && std::strcmp(argv[1], "leak") == 0;
  if (argc != 2 || (!leak && std::strcmp(argv[1], "clean") != 0)) {
    std::fprintf(stderr, "usage: vulkan_semaphore leak|clean\n");
    return 2;
  }
  check_cu(cuInit(0), "cuInit");
  CUdevice device;
  check_cu(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUuuid uuid;
  check_cu(cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid");
  CUcontext context;
  check_cu(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check_cu(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  CUstream stream;
  check_cu(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");

  Vulkan vk = open_vulkan(uuid);
  CUexternalSemaphore binary = import_semaphore(vk, false);
  CUexternalSemaphore timeline = import_semaphore(vk, true);
  use(binary, false, stream);
  use(timeline, true, stream);
  if (!leak) {
    check_cu(cuDestroyExternalSemaphore(binary), "cuDestroyExternalSemaphore");
    check_cu(cuDestroyExternalSemaphore(timeline), "cuDestroyExternalSemaphore");
  }
  check_cu(cuStreamDestroy(stream), "cuStreamDestroy");
  for (VkSemaphore s : vk.exported) vk.destroy_semaphore(vk.device, s, nullptr);
  vk.destroy_device(vk.device, nullptr);
  vk.destroy_instance(vk.instance, nullptr);
  // In leak mode the context stays, as in a program that just exits: its
  // release would tear the imports down with it.
  if (!leak) check_cu(cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease");
  std::printf("imported 2 external semaphores, %s\n", leak ? "never destroyed" : "destroyed");
  return 0;
}
