# `cmake --install build [--prefix DIR]` lays out the same relocatable tree as
# build/: bin/cudaleak, lib/libcudaleak.so with lib/cudaleak-deps, the
# simulated GPU in lib/cudaleak/simcuda, the Python hooks and the pytest plugin in
# lib/cudaleak/python, include/ (cudaleak.h, cudaleak_gtest.h, cudaleak_catch2.h), the CMake
# package in lib/cmake/cudaleak, the docs in share/doc/cudaleak, the man page
# and bash completion. The installed binaries carry no debug info: it is split
# into lib/debug/.build-id (cmake/SplitDebugInfo.cmake, the last install step).
# The package is also written into build/lib/cmake/cudaleak, so that
# find_package(cudaleak) works against a build tree as well.
include(CMakePackageConfigHelpers)
set(CUDALEAK_PACKAGE_DIR lib/cmake/cudaleak)

install(TARGETS cudaleak RUNTIME DESTINATION bin)
install(TARGETS cudaleak_preload LIBRARY DESTINATION lib)
install(DIRECTORY ${CUDALEAK_DEPS_DIR}/ DESTINATION lib/cudaleak-deps)
install(TARGETS simcuda_driver simcuda_runtime simcuda_nvml LIBRARY DESTINATION lib/cudaleak/simcuda)
set_target_properties(simcuda_nvml PROPERTIES INSTALL_RPATH "$ORIGIN")
install(DIRECTORY ${CMAKE_BINARY_DIR}/lib/cudaleak/python/ DESTINATION lib/cudaleak/python PATTERN __pycache__ EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/interpose/include/cudaleak.h ${CMAKE_SOURCE_DIR}/interpose/include/cudaleak_gtest.h
              ${CMAKE_SOURCE_DIR}/interpose/include/cudaleak_budget.h ${CMAKE_SOURCE_DIR}/interpose/include/cudaleak_catch2.h
        DESTINATION include)
# The references and their history; not the GPU sessions' raw output the history
# cites (docs/archive/gpu-sessions), which stays in the repository.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION share/doc/cudaleak PATTERN gpu-sessions EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/cudaleak)

# The man page, from the tool's own help (cmake/ManPage.cmake), and bash completion.
set(man_page ${CMAKE_BINARY_DIR}/share/man/man1/cudaleak.1)
add_custom_command(OUTPUT ${man_page}
                   COMMAND ${CMAKE_COMMAND} -DCUDALEAK=$<TARGET_FILE:cudaleak> -DOUT=${man_page}
                           -DVERSION=${PROJECT_VERSION} -P ${CMAKE_SOURCE_DIR}/cmake/ManPage.cmake
                   DEPENDS cudaleak ${CMAKE_SOURCE_DIR}/cmake/ManPage.cmake
                   COMMENT "Generating the man page from cudaleak's help")
add_custom_target(cudaleak_man_page ALL DEPENDS ${man_page})
install(FILES ${man_page} DESTINATION share/man/man1)
install(FILES ${CMAKE_SOURCE_DIR}/scripts/cudaleak.bash-completion DESTINATION share/bash-completion/completions
        RENAME cudaleak)

# Last of all: the debug info out of the installed binaries.
install(CODE "set(CUDALEAK_OBJCOPY \"${CMAKE_OBJCOPY}\")
set(CUDALEAK_READELF \"${CMAKE_READELF}\")
include(\"${CMAKE_SOURCE_DIR}/cmake/SplitDebugInfo.cmake\")")

# The package: the same files in the build tree and the install tree.
set(package_build_dir ${CMAKE_BINARY_DIR}/${CUDALEAK_PACKAGE_DIR})
configure_file(${CMAKE_SOURCE_DIR}/cmake/cudaleakConfig.cmake.in ${package_build_dir}/cudaleakConfig.cmake @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/CudaLeak.cmake ${package_build_dir}/CudaLeak.cmake COPYONLY)
write_basic_package_version_file(${package_build_dir}/cudaleakConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
foreach(header cudaleak.h cudaleak_gtest.h cudaleak_budget.h cudaleak_catch2.h)  # include/ beside the build tree's package, as installed
  configure_file(${CMAKE_SOURCE_DIR}/interpose/include/${header} ${CMAKE_BINARY_DIR}/include/${header} COPYONLY)
endforeach()
install(FILES ${package_build_dir}/cudaleakConfig.cmake ${package_build_dir}/cudaleakConfigVersion.cmake
              ${package_build_dir}/CudaLeak.cmake
        DESTINATION ${CUDALEAK_PACKAGE_DIR})

# Packages of that tree (scripts/package.sh): a .deb for Debian 12 and a
# .tar.gz for anywhere. Everything cudaleak runs on is inside; from the
# system it needs glibc only, and a CUDA driver to trace real programs.
set(CPACK_PACKAGE_NAME cudaleak)
set(CPACK_PACKAGE_VENDOR "cudaleak")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Finds CUDA resources a program never released, and why a GPU ran out of memory")
set(CPACK_PACKAGE_INSTALL_DIRECTORY cudaleak)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_FILE_NAME cudaleak-${PROJECT_VERSION}-Linux-x86_64)
# In /usr like any tool: cudaleak on PATH, `man cudaleak`, bash completion
# active and find_package(cudaleak) with no hint (/usr/lib/cmake/cudaleak).
# Everything else is private: lib/cudaleak/ and lib/cudaleak-deps/.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "cudaleak maintainers")
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.35)")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3, python3-pytest")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Finds CUDA resources a program never released, and why a GPU ran out of memory.\n An LD_PRELOAD library and the cudaleak command, installed in /usr.\n Tracing real programs needs an NVIDIA driver (libcuda.so.1, CUDA 13); the\n bundled simulated GPU (cudaleak run --simulated-gpu) needs none.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES TRUE)  # packages carry no debug info (cmake --install splits it out instead)
# What running leaves behind (Python's byte code of the hooks) goes with the package.
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian-prerm ${CMAKE_BINARY_DIR}/debian/prerm COPYONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/debian/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
include(CPack)
