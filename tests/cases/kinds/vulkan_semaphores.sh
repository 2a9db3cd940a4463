# External semaphores on a real GPU (issue 12): Vulkan exports a binary and
# a timeline semaphore as opaque file descriptors, CUDA imports both
# (tests/gpu/kinds/vulkan_semaphore.cpp). `leak` never destroys the imports,
# `clean` does; each runs through alone and traced (status 77: no Vulkan
# device here can export a semaphore). cudaleak reports exactly those 2
# external_semaphore resources, imported in import_semaphore(), nothing else
# and no note; nothing in the clean run. The GPU machine has no Vulkan
# loader or headers: their .deb files in .gl are unpacked into the case's
# folder (apt-get download libvulkan1 libvulkan-dev; scripts/gpu-test.sh).
# REQUIRES: gpu, vulkan
# BUILD: mkdir -p %t/vk && for f in %root/.gl/libvulkan*.deb; do [ -e "$f" ] && dpkg -x "$f" %t/vk; done; g++ -std=c++17 -O2 -g %root/tests/gpu/kinds/vulkan_semaphore.cpp -I%t/vk/usr/include -I${CUDA_ROOT:-/usr/local/cuda}/include -L${CUDA_ROOT:-/usr/local/cuda}/lib64/stubs -lcuda -ldl -o %t/vulkan_semaphore
# RUN: export LD_LIBRARY_PATH=%t/vk/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -n "${VK_DRIVER_FILES:-}" ] || { [ -f $icd ] && export VK_DRIVER_FILES=$icd; }; for mode in leak clean; do %t/vulkan_semaphore $mode > %t/plain.$mode.out 2>&1; echo "$mode alone: status $?"; %run -o %t/$mode/r.%p.json -- %t/vulkan_semaphore $mode > %t/$mode.out 2> %t/$mode.err; echo "$mode traced: status $?"; done
# CHECK: leak alone: status 0
# CHECK: leak traced: status 0
# CHECK: clean alone: status 0
# CHECK: clean traced: status 0
# RUN: %expr %t/leak \
# RUN:   'len(reports) == 1' \
# RUN:   'sum(g["count"] for g in leaks("external_semaphore")) == 2' \
# RUN:   'sorted(set(g["api"] for g in leaks("external_semaphore"))) == ["cuImportExternalSemaphore"]' \
# RUN:   'leaks("external_semaphore") != [] and all(any("import_semaphore" in f.get("function", "") for f in g["stack"]) for g in leaks("external_semaphore"))' \
# RUN:   'sorted(set(g["kind"] for g in r["leaks"]) - {"external_semaphore"}) == []' \
# RUN:   'len(r.get("notes", [])) == 0'
# CHECK-COUNT(6): holds:
# RUN: %expr %t/clean 'len(reports) == 1 and summary["leaked_count"] == 0 and len(r.get("notes", [])) == 0'
# CHECK: holds:
