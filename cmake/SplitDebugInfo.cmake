# Run by `cmake --install` after everything is in place (cmake/Install.cmake):
# the installed binaries keep their symbol tables (stacks through cudaleak stay
# named) but lose their debug info, which moves to
# lib/debug/.build-id/xx/yyyy.debug, where gdb and debuginfod-style tools look it
# up by build id (/usr/lib/debug is gdb's default for an install in /usr).
# Packages are left alone: CPack strips them (CPACK_STRIP_FILES).
# Inputs: CUDALEAK_OBJCOPY, CUDALEAK_READELF.
set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
if(root MATCHES "/_CPack_Packages/")
  return()
endif()
file(GLOB candidates LIST_DIRECTORIES false ${root}/bin/cudaleak ${root}/lib/libcudaleak.so
     ${root}/lib/cudaleak/simcuda/*.so* ${root}/lib/cudaleak-deps/*)
foreach(f ${candidates})
  if(IS_SYMLINK ${f})
    continue()
  endif()
  execute_process(COMMAND ${CUDALEAK_READELF} -S -n ${f} OUTPUT_VARIABLE elf ERROR_QUIET RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT elf MATCHES "\\.debug_info" OR NOT elf MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
    continue()  # not ELF, already stripped, or no build id to find it by
  endif()
  set(debug ${root}/lib/debug/.build-id/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}.debug)
  get_filename_component(dir ${debug} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  execute_process(COMMAND ${CUDALEAK_OBJCOPY} --only-keep-debug --compress-debug-sections ${f} ${debug} RESULT_VARIABLE s1)
  execute_process(COMMAND ${CUDALEAK_OBJCOPY} --strip-debug ${f} RESULT_VARIABLE s2)
  if(NOT s1 EQUAL 0 OR NOT s2 EQUAL 0)
    message(FATAL_ERROR "cudaleak: could not split the debug info of ${f}")
  endif()
  message(STATUS "Debug info split: ${f} -> ${debug}")
endforeach()
