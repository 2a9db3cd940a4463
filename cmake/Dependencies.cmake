# Third-party dependencies, all from Debian packages (scripts/setup.sh installs them).
# The preload library and the launcher must run on machines that have none of
# them (a GPU box without libunwind or spdlog): libstdc++ is linked statically
# with hidden symbols, spdlog/fmt are compiled in header-only, and libunwind and
# libdw are bundled beside the library and loaded privately.
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 REQUIRED)

# libunwind and libdw: their Debian static archives are not position
# independent, so the preload library loads the shared ones privately at run
# time (report/symbols/bundled_library.h), from the system or from copies
# placed in build/lib/cudaleak-deps below. Headers only at build time.
find_path(LIBUNWIND_INCLUDE_DIR libunwind.h REQUIRED)
find_path(LIBDW_INCLUDE_DIR elfutils/libdwfl.h REQUIRED)

# spdlog and fmt compiled into each user, so no libspdlog.so/libfmt.so is needed at run time.
add_library(cudaleak_spdlog INTERFACE)
target_compile_definitions(cudaleak_spdlog INTERFACE SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY)

add_library(cudaleak_cuda_headers INTERFACE)
target_include_directories(cudaleak_cuda_headers SYSTEM INTERFACE ${CUDA_INCLUDE_DIR})

# Self-contained binaries: libstdc++ and libgcc inside, their symbols hidden.
set(CUDALEAK_SELF_CONTAINED_LINK -static-libstdc++ -static-libgcc -Wl,--exclude-libs,ALL)

# libunwind, libdw and their dependencies, copied beside the preload library.
set(CUDALEAK_DEPS_DIR ${CMAKE_BINARY_DIR}/lib/cudaleak-deps)
file(MAKE_DIRECTORY ${CUDALEAK_DEPS_DIR})
foreach(soname libunwind.so.8 libdw.so.1 libelf.so.1 libz.so.1 liblzma.so.5 libbz2.so.1.0 libzstd.so.1)
  find_file(DEP_${soname} ${soname} PATHS /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu NO_DEFAULT_PATH)
  if(DEP_${soname})
    file(REAL_PATH ${DEP_${soname}} real)
    configure_file(${real} ${CUDALEAK_DEPS_DIR}/${soname} COPYONLY)
  endif()
endforeach()
