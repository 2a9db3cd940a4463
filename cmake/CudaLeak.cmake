# CudaLeak.cmake: run CTest tests under cudaleak, one report per test, the
# test failing when it leaks (the leak gate: docs/ci.md).
#
#   find_package(cudaleak REQUIRED)   # CMAKE_PREFIX_PATH: an install or build tree
#   (or: list(APPEND CMAKE_MODULE_PATH /path/to/cudaleak/cmake) and include(CudaLeak))
#   cudaleak_add_test(NAME gemm_test COMMAND gemm_test --small
#                     [RUN_OPTIONS --suppressions ${CMAKE_SOURCE_DIR}/cudaleak.supp ...]
#                     [LIMIT_MEMORY 24MB] [LIMIT_LEAKS 1MB])
#   add_test(NAME other COMMAND other_test)
#   cudaleak_wrap_tests(TESTS other [OPTIONS fail_on=device,pinned ...] [LIMIT_MEMORY size] [LIMIT_LEAKS size])
#   gtest_discover_tests(unit_tests)   # or catch_discover_tests
#   cudaleak_wrap_discovered_tests(TARGET unit_tests [TEST_LIST var] [OPTIONS ...] [LIMIT_MEMORY size] [LIMIT_LEAKS size])
#
# Budgets, per test (a test is one process here): LIMIT_MEMORY fails a test
# whose device memory peaks more than that above its start on some device
# (option limit_memory), naming the sites that grew; LIMIT_LEAKS lets it leak
# up to that many bytes (option min_bytes, one more). Sizes: bytes, or with
# KB, MB, GB (powers of 1024, as pytest-memray and the pytest plugin read them).
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

# "24MB", "512 KiB", "1048576" -> bytes in *out.
function(_cudaleak_bytes out size)
  string(TOUPPER "${size}" upper)
  string(REPLACE " " "" upper "${upper}")
  if(NOT upper MATCHES "^([0-9]+)(B|K|KB|KIB|M|MB|MIB|G|GB|GIB)?$")
    message(FATAL_ERROR "CudaLeak: '${size}' is not a size (e.g. 24MB, 512KiB, 1048576)")
  endif()
  set(number ${CMAKE_MATCH_1})
  string(SUBSTRING "${CMAKE_MATCH_2}B" 0 1 unit)  # each MATCHES below resets CMAKE_MATCH_*
  set(scale 1)
  if(unit STREQUAL "K")
    set(scale 1024)
  elseif(unit STREQUAL "M")
    set(scale 1048576)
  elseif(unit STREQUAL "G")
    set(scale 1073741824)
  endif()
  math(EXPR bytes "${number} * ${scale}")
  set(${out} ${bytes} PARENT_SCOPE)
endfunction()

# The budgets as CUDALEAK_OPTIONS entries (limit_memory=N, min_bytes=N+1) in *out.
function(_cudaleak_budget_options out limit_memory limit_leaks)
  set(options "")
  if(limit_memory)
    _cudaleak_bytes(bytes "${limit_memory}")
    list(APPEND options "limit_memory=${bytes}")
  endif()
  if(NOT "${limit_leaks}" STREQUAL "")
    _cudaleak_bytes(bytes "${limit_leaks}")
    math(EXPR bytes "${bytes} + 1")  # the gate fails from min_bytes on: up to the budget passes
    list(APPEND options "min_bytes=${bytes}")
  endif()
  set(${out} "${options}" PARENT_SCOPE)
endfunction()

function(cudaleak_add_test)
  cmake_parse_arguments(ARG "" "NAME;WORKING_DIRECTORY;LIMIT_MEMORY;LIMIT_LEAKS" "COMMAND;RUN_OPTIONS" ${ARGN})
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
  _cudaleak_budget_options(budget "${ARG_LIMIT_MEMORY}" "${ARG_LIMIT_LEAKS}")
  set(budget_flags "")
  foreach(option ${budget})
    string(REPLACE "=" ";" pair "${option}")
    list(GET pair 0 key)
    list(GET pair 1 value)
    string(REPLACE "_" "-" key "${key}")
    list(APPEND budget_flags --${key} ${value})
  endforeach()
  add_test(NAME ${ARG_NAME} WORKING_DIRECTORY ${wd}
           COMMAND ${CUDALEAK_EXECUTABLE} run ${simulated}
                   --error-exitcode ${CUDALEAK_ERROR_EXITCODE}
                   -o ${CUDALEAK_REPORT_DIR}/${ARG_NAME}.%p.json
                   ${budget_flags} ${ARG_RUN_OPTIONS} -- ${program_path} ${ARG_COMMAND})
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
  cmake_parse_arguments(ARG "" "LIMIT_MEMORY;LIMIT_LEAKS" "TESTS;OPTIONS" ${ARGN})
  _cudaleak_budget_options(budget "${ARG_LIMIT_MEMORY}" "${ARG_LIMIT_LEAKS}")
  list(APPEND ARG_OPTIONS ${budget})
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
  cmake_parse_arguments(ARG "" "TARGET;TEST_LIST;LIMIT_MEMORY;LIMIT_LEAKS" "OPTIONS" ${ARGN})
  _cudaleak_budget_options(budget "${ARG_LIMIT_MEMORY}" "${ARG_LIMIT_LEAKS}")
  list(APPEND ARG_OPTIONS ${budget})
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
