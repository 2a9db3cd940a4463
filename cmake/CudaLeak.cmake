# CudaLeak.cmake: run CTest tests under cudaleak, one report per test, the
# test failing when it leaks (the leak gate: docs/ci.md).
#
#   find_package(cudaleak REQUIRED)   # CMAKE_PREFIX_PATH: an install or build tree
#   (or: list(APPEND CMAKE_MODULE_PATH /path/to/cudaleak/cmake) and include(CudaLeak))
#   cudaleak_add_test(NAME gemm_test COMMAND gemm_test --small
#                     [RUN_OPTIONS --suppressions ${CMAKE_SOURCE_DIR}/cudaleak.supp ...])
#   add_test(NAME other COMMAND other_test)
#   cudaleak_wrap_tests(TESTS other [OPTIONS fail_on=device,pinned ...])
#   gtest_discover_tests(unit_tests)   # or catch_discover_tests
#   cudaleak_wrap_discovered_tests(TARGET unit_tests [TEST_LIST var] [OPTIONS ...])
#
# cudaleak_add_test runs the command through `cudaleak run`; cudaleak_wrap_tests
# adds LD_PRELOAD and CUDALEAK_OPTIONS to existing tests, and
# cudaleak_wrap_discovered_tests to the tests a discovery step makes when
# CTest runs (gtest_discover_tests, catch_discover_tests). Reports go to
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

# LD_PRELOAD, CUDALEAK_OPTIONS (report `report_name`.%p.json, the status, the
# extra options) and, for the simulated GPU, the library path: as
# `name=value` for ENVIRONMENT in *env_out and for ENVIRONMENT_MODIFICATION
# in *modification_out.
function(_cudaleak_environment env_out modification_out report_name options)
  set(joined "output=${CUDALEAK_REPORT_DIR}/${report_name}.%p.json:error_exitcode=${CUDALEAK_ERROR_EXITCODE}")
  foreach(option ${options})
    string(APPEND joined ":${option}")
  endforeach()
  set(${env_out} "LD_PRELOAD=${CUDALEAK_LIBRARY}" "CUDALEAK_OPTIONS=${joined}" PARENT_SCOPE)
  set(${modification_out} "" PARENT_SCOPE)
  if(CUDALEAK_SIMULATED_GPU)
    get_filename_component(lib_dir ${CUDALEAK_LIBRARY} DIRECTORY)
    set(${modification_out} "LD_LIBRARY_PATH=path_list_prepend:${lib_dir}/cudaleak/simcuda" PARENT_SCOPE)
  endif()
endfunction()

function(cudaleak_wrap_tests)
  cmake_parse_arguments(ARG "" "" "TESTS;OPTIONS" ${ARGN})
  foreach(test ${ARG_TESTS})
    if(NOT TEST ${test})
      message(FATAL_ERROR "cudaleak_wrap_tests: there is no test '${test}' (yet). Tests made when CTest runs, by "
                          "gtest_discover_tests or catch_discover_tests, are wrapped with "
                          "cudaleak_wrap_discovered_tests(TARGET <target>) after the discovery call.")
    endif()
    _cudaleak_environment(env modification ${test} "${ARG_OPTIONS}")
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT ${env})
    if(modification)
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT_MODIFICATION ${modification})
    endif()
  endforeach()
endfunction()

# Tests that exist only once CTest runs, made by a discovery step
# (gtest_discover_tests, catch_discover_tests): call this after that step,
# with the same TEST_LIST when it was given one (default <target>_TESTS). When
# CTest reads the discovered tests it runs the file written here, which wraps
# each of them as cudaleak_wrap_tests does (one report per test, named after
# it). It sets their ENVIRONMENT: give other variables through OPTIONS' file,
# not the discovery step's PROPERTIES ENVIRONMENT.
function(cudaleak_wrap_discovered_tests)
  cmake_parse_arguments(ARG "" "TARGET;TEST_LIST" "OPTIONS" ${ARGN})
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "cudaleak_wrap_discovered_tests: TARGET is required")
  endif()
  if(NOT ARG_TEST_LIST)
    set(ARG_TEST_LIST ${ARG_TARGET}_TESTS)
  endif()
  _cudaleak_environment(env modification "{test}" "${ARG_OPTIONS}")
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_cudaleak_wrap.cmake")
  set(more "")
  if(modification)
    set(more " ENVIRONMENT_MODIFICATION [=[${modification}]=]")
  endif()
  string(CONCAT content
    "# Written by cudaleak_wrap_discovered_tests(${ARG_TARGET}); run by CTest after discovery.\n"
    "foreach(test IN LISTS ${ARG_TEST_LIST})\n"
    "  string(MAKE_C_IDENTIFIER \"\${test}\" name)\n"
    "  string(REPLACE \"{test}\" \"\${name}\" env [=[${env}]=])\n"
    "  set_tests_properties(\"\${test}\" PROPERTIES ENVIRONMENT \"\${env}\"${more})\n"
    "endforeach()\n")
  file(WRITE ${script} "${content}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
