# cmake -DBUILD=<build dir> -DSOURCE=<tests/install> -DOUT=<scratch> -DSAMPLES=<build/samples> -P run_install_test.cmake
# Installs the build into a scratch prefix, checks the layout, runs the
# installed launcher once under the simulated GPU, then builds and tests a
# project of its own that uses find_package(cudaleak).
file(REMOVE_RECURSE ${OUT})
set(prefix ${OUT}/prefix)
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
foreach(f bin/cudaleak lib/libcudaleak.so lib/cudaleak-deps/libdw.so.1 lib/cudaleak-deps/libunwind.so.8
          lib/cudaleak/simcuda/libcuda.so.1 lib/cudaleak/simcuda/libcudart.so.13 lib/cudaleak/simcuda/libnvidia-ml.so.1
          lib/cudaleak/python/sitecustomize.py lib/cudaleak/python/pytest_cudaleak.py
          lib/cudaleak/python/pyproject.toml
          include/cudaleak.h include/cudaleak_gtest.h include/cudaleak_budget.h include/cudaleak_catch2.h
          lib/cmake/cudaleak/cudaleakConfig.cmake lib/cmake/cudaleak/cudaleakConfigVersion.cmake
          lib/cmake/cudaleak/CudaLeak.cmake share/doc/cudaleak/usage.md
          share/man/man1/cudaleak.1 share/bash-completion/completions/cudaleak)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# Stripped, the debug info split out by build id (cmake/SplitDebugInfo.cmake).
foreach(f bin/cudaleak lib/libcudaleak.so lib/cudaleak/simcuda/libcudart.so.13)
  execute_process(COMMAND readelf -S -n ${prefix}/${f} OUTPUT_VARIABLE elf)
  if(elf MATCHES "\\.debug_info")
    message(FATAL_ERROR "installed with its debug info: ${f}")
  endif()
  if(NOT elf MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
    message(FATAL_ERROR "no build id in ${f}")
  endif()
  if(NOT EXISTS ${prefix}/lib/debug/.build-id/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}.debug)
    message(FATAL_ERROR "no split debug info for ${f} in lib/debug/.build-id")
  endif()
endforeach()

file(GLOB wheel ${prefix}/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl)
if(NOT wheel)
  message(FATAL_ERROR "not installed: the pytest plugin's wheel")
endif()

# The man page has every command and every option (it is made from their help).
file(READ ${prefix}/share/man/man1/cudaleak.1 man)
execute_process(COMMAND ${prefix}/bin/cudaleak options OUTPUT_VARIABLE options)
string(REGEX MATCHALL "\n  [a-z_]+ +--[a-z-]+" rows "${options}")
list(LENGTH rows option_count)
if(option_count LESS 20)
  message(FATAL_ERROR "cudaleak options listed only ${option_count} options")
endif()
foreach(row ${rows})
  string(REGEX REPLACE ".* (--[a-z-]+)$" "\\1" flag "${row}")
  if(NOT man MATCHES "${flag}")
    message(FATAL_ERROR "the man page lacks ${flag}")
  endif()
endforeach()
foreach(command run report diff merge baseline symbolize)
  if(NOT man MATCHES "SH \"cudaleak ${command}\"")
    message(FATAL_ERROR "the man page lacks the ${command} command")
  endif()
endforeach()

# Bash completion: the run command's options, from its own help.
execute_process(COMMAND bash -c "source '${prefix}/share/bash-completion/completions/cudaleak'; COMP_WORDS=('${prefix}/bin/cudaleak' run --out); COMP_CWORD=2; _cudaleak; echo \"\${COMPREPLY[*]}\""
                OUTPUT_VARIABLE completion OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT completion STREQUAL "--output")
  message(FATAL_ERROR "bash completion of 'cudaleak run --out' gave '${completion}'")
endif()

# The installed launcher on its own: it finds its library and the simulated GPU beside itself.
execute_process(COMMAND ${prefix}/bin/cudaleak run --simulated-gpu -o ${OUT}/r.%p.json -- ${SAMPLES}/sample_pinned_leak_shared
                RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT status EQUAL 0 OR NOT err MATCHES "2.1 MiB leaked in 2 resources")
  message(FATAL_ERROR "the installed cudaleak run gave status ${status}:\n${err}")
endif()

run_step("configuring a project with find_package(cudaleak)"
         ${CMAKE_COMMAND} -S ${SOURCE}/consumer -B ${OUT}/consumer -DCMAKE_PREFIX_PATH=${prefix}
         -DSAMPLE_CLEAN=${SAMPLES}/sample_clean_shared -DSAMPLE_LEAKING=${SAMPLES}/sample_loop_leak_shared)
run_step("building it" ${CMAKE_COMMAND} --build ${OUT}/consumer)
# Two discovered tests leak (one per framework) and must fail; every other passes.
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${OUT}/consumer
                OUTPUT_VARIABLE step_output ERROR_VARIABLE err)
foreach(expected "83% tests passed, 2 tests failed out of 12" "Buffers.ForgetsItsBuffer \\(Failed\\)"
                 "catch2:event is created and kept \\(Failed\\)")
  if(NOT step_output MATCHES "${expected}")
    message(FATAL_ERROR "the project's tests (expected '${expected}'):\n${step_output}\n${err}")
  endif()
endforeach()
# One report per discovered test, named after it.
foreach(report Buffers_ForgetsItsBuffer Buffers_ReleasesItsBuffer catch2_event_is_created_and_kept)
  file(GLOB found ${OUT}/consumer/cudaleak-reports/${report}.*.json)
  if(NOT found)
    message(FATAL_ERROR "no report ${report}.<pid>.json in ${OUT}/consumer/cudaleak-reports")
  endif()
endforeach()
message(STATUS "installed, found and used: ${step_output}")
