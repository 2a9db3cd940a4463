# CudaLeak.cmake: run CTest tests under cudaleak, one report per test, the
# test failing when it leaks (the leak gate: docs/ci.md).
#
#   find_package(cudaleak REQUIRED)   # CMAKE_PREFIX_PATH: an install or build tree
#   (or: list(APPEND CMAKE_MODULE_PATH /path/to/cudaleak/cmake) and include(CudaLeak))
#   cudaleak_add_test(NAME gemm_test COMMAND gemm_test --small
#                     [RUN_OPTIONS --suppressions ${CMAKE_SOURCE_DIR}/cudaleak.supp ...])
#   add_test(NAME other COMMAND other_test)
#   cudaleak_wrap_tests(TESTS other [OPTIONS fail_on=device,pinned ...])
#
# cudaleak_add_test runs the command through `cudaleak run`; cudaleak_wrap_tests
# adds LD_PRELOAD and CUDALEAK_OPTIONS to existing tests (GoogleTest's
# gtest_discover_tests, catch_discover_tests, ...). Reports go to
# CUDALEAK_REPORT_DIR/<test>.<pid>.json.
#
# Variables (set before include to override the search):
#   CUDALEAK_EXECUTABLE   the cudaleak launcher (searched in CUDALEAK_ROOT/bin and PATH)
#   CUDALEAK_LIBRARY      libcudaleak.so (default: ../lib beside the launcher)
#   CUDALEAK_REPORT_DIR   where reports go (default: <build>/cudaleak-reports)
#   CUDALEAK_ERROR_EXITCODE  status of a leaking test (default 1)
#   CUDALEAK_SIMULATED_GPU   ON: the tests run against cudaleak's simulated CUDA
#                            (no GPU needed; programs using the shared cudart)

if(NOT CUDALEAK_EXECUTABLE)
  find_program(CUDALEAK_EXECUTABLE cudaleak HINTS ${CUDALEAK_ROOT}/bin ENV CUDALEAK_ROOT PATH_SUFFIXES bin)
endif()
if(NOT CUDALEAK_EXECUTABLE)
  message(FATAL_ERROR "CudaLeak: the cudaleak launcher was not found; set CUDALEAK_ROOT or CUDALEAK_EXECUTABLE")
endif()
if(NOT CUDALEAK_LIBRARY)
  get_filename_component(_cudaleak_bin ${CUDALEAK_EXECUTABLE} DIRECTORY)
  set(CUDALEAK_LIBRARY ${_cudaleak_bin}/../lib/libcudaleak.so)
endif()
set(CUDALEAK_REPORT_DIR ${CMAKE_BINARY_DIR}/cudaleak-reports CACHE PATH "Where cudaleak writes one report per test")
set(CUDALEAK_ERROR_EXITCODE 1 CACHE STRING "Exit status of a test that leaks CUDA resources")
option(CUDALEAK_SIMULATED_GPU "Run the tests against cudaleak's simulated CUDA (no GPU needed)" OFF)
file(MAKE_DIRECTORY ${CUDALEAK_REPORT_DIR})

function(_cudaleak_command_path out cmd)
  if(TARGET ${cmd})
    set(${out} $<TARGET_FILE:${cmd}> PARENT_SCOPE)
  else()
    set(${out} ${cmd} PARENT_SCOPE)
  endif()
endfunction()

function(cudaleak_add_test)
  cmake_parse_arguments(ARG "" "NAME;WORKING_DIRECTORY" "COMMAND;RUN_OPTIONS" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_COMMAND)
    message(FATAL_ERROR "cudaleak_add_test: NAME and COMMAND are required")
  endif()
  list(POP_FRONT ARG_COMMAND program)
  _cudaleak_command_path(program_path ${program})
  set(wd ${CMAKE_CURRENT_BINARY_DIR})
  if(ARG_WORKING_DIRECTORY)
    set(wd ${ARG_WORKING_DIRECTORY})
  endif()
  set(simulated)
  if(CUDALEAK_SIMULATED_GPU)
    set(simulated --simulated-gpu)
  endif()
  add_test(NAME ${ARG_NAME} WORKING_DIRECTORY ${wd}
           COMMAND ${CUDALEAK_EXECUTABLE} run ${simulated}
                   --error-exitcode ${CUDALEAK_ERROR_EXITCODE}
                   -o ${CUDALEAK_REPORT_DIR}/${ARG_NAME}.%p.json
                   ${ARG_RUN_OPTIONS} -- ${program_path} ${ARG_COMMAND})
endfunction()

function(cudaleak_wrap_tests)
  cmake_parse_arguments(ARG "" "" "TESTS;OPTIONS" ${ARGN})
  foreach(test ${ARG_TESTS})
    set(options "output=${CUDALEAK_REPORT_DIR}/${test}.%p.json:error_exitcode=${CUDALEAK_ERROR_EXITCODE}")
    foreach(option ${ARG_OPTIONS})
      string(APPEND options ":${option}")
    endforeach()
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "LD_PRELOAD=${CUDALEAK_LIBRARY}" "CUDALEAK_OPTIONS=${options}")
    if(CUDALEAK_SIMULATED_GPU)
      get_filename_component(lib_dir ${CUDALEAK_LIBRARY} DIRECTORY)
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT_MODIFICATION "LD_LIBRARY_PATH=path_list_prepend:${lib_dir}/simcuda")
    endif()
  endforeach()
endfunction()
