# Makes a merged report from three samples, a run with checkpoints and an
# out-of-memory run under the simulated GPU, renders it as HTML, and checks it
# in Chromium; then does the same with a real H100 report of a PyTorch program
# whose cache fragmented (tests/fixtures), and a merge of processes with no
# rank, and a job of ranks; a JAX program's report and a 64-rank JAX job.
# Leaves report.html, pytorch.html, norank.html, job.html, jax.html,
# jaxjob.html and screenshots in OUT.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(reports)
set(rank 0)
# The last sample's run asks for a leak gate: the merged page shows it, the
# page of the two processes without ranks (no gate asked) does not.
foreach(sample driver_context_leak loop_leak stream_event_leak)
  set(gate)
  if(sample STREQUAL "stream_event_leak")
    set(gate --error-exitcode 9)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env RANK=${rank}
                  ${CUDALEAK} run --simulated-gpu ${gate} -o ${OUT}/${sample}.json -- ${SAMPLES}/sample_${sample}_shared
                  OUTPUT_QUIET ERROR_QUIET)
  list(APPEND reports ${OUT}/${sample}.json)
  math(EXPR rank "${rank} + 1")
endforeach()
# A run with checkpoints: marks on the timeline.
execute_process(COMMAND ${CUDALEAK} run --simulated-gpu -o ${OUT}/checkpoints.%n.json -- ${PROGRAMS}/checkpoints
                OUTPUT_QUIET ERROR_QUIET)
list(APPEND reports ${OUT}/checkpoints.1.json)
# A run that ends in out-of-memory errors: the OOM section and the marks.
execute_process(COMMAND ${CUDALEAK} run --simulated-gpu --simulated-gpu-memory 512MiB -o ${OUT}/oom.%n.json
                        -- ${PROGRAMS}/oom_scenarios leak 32
                OUTPUT_QUIET ERROR_QUIET)
file(GLOB oom_reports ${OUT}/oom.*.json)
list(SORT oom_reports)
list(GET oom_reports -1 oom_exit)  # the exit report carries every OOM event
list(APPEND reports ${oom_exit})
execute_process(COMMAND ${CUDALEAK} merge ${reports} -o ${OUT}/merged.json RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cudaleak merge failed")
endif()
# cudaleak report INPUT --format FORMAT -o OUTPUT, stopping the test if it fails.
function(render input format output)
  execute_process(COMMAND ${CUDALEAK} report ${input} --format ${format} -o ${output} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "cudaleak report ${input} --format ${format} failed")
  endif()
endfunction()
render(${OUT}/merged.json html ${OUT}/report.html)
# Processes with no rank: the page has no rank column.
execute_process(COMMAND ${CUDALEAK} merge ${OUT}/checkpoints.1.json ${oom_exit} -o ${OUT}/norank.json RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cudaleak merge failed")
endif()
render(${OUT}/norank.json html ${OUT}/norank.html)
# A job of four ranks where rank 3 wrote no report, each leaking at the same
# site: one group of ranks 0-2 on the page.
set(job_reports)
foreach(rank 0 1 2)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env RANK=${rank} LOCAL_RANK=${rank} WORLD_SIZE=4
                  ${CUDALEAK} run --simulated-gpu -o ${OUT}/job.${rank}.json -- ${SAMPLES}/sample_loop_leak_shared
                  OUTPUT_QUIET ERROR_QUIET)
  list(APPEND job_reports ${OUT}/job.${rank}.json)
endforeach()
execute_process(COMMAND ${CUDALEAK} merge ${job_reports} -o ${OUT}/job.json RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cudaleak merge failed")
endif()
render(${OUT}/job.json html ${OUT}/job.html)
# A JAX program (tests/e2e/programs/fake_jax stands in for JAX) whose
# arrays filled XLA's pool: its report at exit, and a job of 64 ranks cloned
# from it (scripts/make-job.py; rank 4's arrays 8x the others').
get_filename_component(SOURCE ${FIXTURES}/../.. ABSOLUTE)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${SOURCE}/tests/e2e/programs/fake_jax
                        ${CUDALEAK} run --simulated-gpu --simulated-gpu-memory 256MiB -o ${OUT}/jax.%n.json
                        -- /usr/bin/python3 ${SOURCE}/tests/e2e/programs/jax_list_oom.py uncaught
                OUTPUT_QUIET ERROR_QUIET)
file(GLOB jax_reports ${OUT}/jax.*.json)
list(SORT jax_reports)
list(GET jax_reports -1 jax_exit)  # the exit report carries XLA's out-of-memory and the view at exit
render(${jax_exit} html ${OUT}/jax.html)
render(${jax_exit} json ${OUT}/jax-report.json)
execute_process(COMMAND /usr/bin/python3 ${SOURCE}/scripts/make-job.py ${OUT}/jaxjob --ranks 64 --hosts 8
                        --failing ${jax_exit} --surviving same --grow-arrays 4 RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "make-job.py failed")
endif()
render(${OUT}/jaxjob html ${OUT}/jaxjob.html)
render(${FIXTURES}/h100/python/scenario_fragmentation.470.0.json html ${OUT}/pytorch.html)
render(${FIXTURES}/h100/python/scenario_exceptions.segments.1870.0.json html ${OUT}/segments.html)
# Growth by line: fake_torch's server loop whose one line keeps a tensor in
# an allocator segment that never grows (tests/cases/growth): the chart of
# allocations draws the line's history, though nothing of it leaked.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${FIXTURES}/../e2e/programs/fake_torch
                ${CUDALEAK} run --simulated-gpu --pytorch-stacks true --growth-interval-ms 200 --view-interval-ms 100
                -o ${OUT}/growth.json -- /usr/bin/python3 ${FIXTURES}/../cases/growth/torch_line_growth.py leak
                OUTPUT_QUIET ERROR_QUIET)
render(${OUT}/growth.json html ${OUT}/growth.html)
# The page shows the report as cudaleak reads it (a version 1 report's failed
# calls folded into PyTorch's event): the checks read the same.
render(${FIXTURES}/h100/python/scenario_fragmentation.470.0.json json ${OUT}/pytorch.json)
execute_process(COMMAND ${CMAKE_COMMAND} -E env CHROMIUM=${CHROMIUM}
                ${NODE} ${TEST} ${OUT} ${OUT}/merged.json ${OUT}/pytorch.json
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "browser checks failed")
endif()
