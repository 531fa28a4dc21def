# End-to-end check of one OpenMP sample (samples/openmp/): build it once with firstrace-cc
# -fopenmp, then record and check it (check_sample.cmake: the `// RACE` markers) with teams of
# 1, 2, 4 and 8 threads (OMP_NUM_THREADS), each run on its own copy of the executable so that
# the traces do not collide.
# Usage: cmake -DSAMPLE=x.c -DBIN=build/bin -DWORK=dir -DCOMPILER=gcc|clang
#              [-DTHREADS="1;2;4;8"] [-DREPORT_CHECK=checker] -P check_openmp_sample.cmake
# With REPORT_CHECK, every run's report is checked too (race site instances share a byte).
cmake_minimum_required(VERSION 3.25)
get_filename_component(name ${SAMPLE} NAME_WE)
if(NOT DEFINED THREADS)
  set(THREADS 1 2 4 8)
endif()
file(MAKE_DIRECTORY ${WORK})
set(exe ${WORK}/${name}-${COMPILER})
set(ENV{FIRSTRACE_CC} ${COMPILER})
execute_process(COMMAND ${BIN}/firstrace-cc -g -O0 -fopenmp ${SAMPLE} -o ${exe}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "building ${SAMPLE} with firstrace-cc -fopenmp (${COMPILER}) failed:\n${err}")
endif()
set(report_check)
if(DEFINED REPORT_CHECK)
  set(report_check -DREPORT_CHECK=${REPORT_CHECK})
endif()
set(failed)
foreach(n IN LISTS THREADS)
  file(REMOVE_RECURSE ${exe}-t${n}.trace)
  file(COPY_FILE ${exe} ${exe}-t${n})
  set(ENV{OMP_NUM_THREADS} ${n})
  execute_process(COMMAND ${CMAKE_COMMAND} -DSAMPLE=${SAMPLE} -DBIN=${BIN} -DWORK=${WORK}
                          -DCOMPILER=${COMPILER} -DPREBUILT=${exe}-t${n} -DCHECK=${CHECK}
                          ${report_check}
                          -P ${CMAKE_CURRENT_LIST_DIR}/check_sample.cmake
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message(STATUS "${n} thread(s): ${out}")
  if(rc)
    list(APPEND failed ${n})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "${name} (${COMPILER}) fails with ${failed} thread(s)")
endif()
if(NOT DEFINED ENV{FIRSTRACE_KEEP_TEST_WORK})  # the runs removed their own files (check_sample.cmake)
  file(REMOVE ${exe})
endif()
