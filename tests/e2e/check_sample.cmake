# End-to-end check of one sample: build it with the wrapper, record it, analyze the trace and
# compare the races with the `// RACE` markers in the source (firstrace_sample_check, see
# sample_check.cpp for the markers). -DOPT=-O1/-O2 (the `e2e.opt.*` matrix) checks the markers
# the same way, with the checker's rules for optimized line attribution (--opt).
# Usage: cmake -DSAMPLE=x.c -DBIN=build/bin -DWORK=dir -DCOMPILER=gcc|clang -DCHECK=checker
#              [-DREPORT_CHECK=checker] [-DOPT=-O0|-O1|-O2] [-DEXTRA_FLAGS=flags] -P check_sample.cmake
cmake_minimum_required(VERSION 3.25)
get_filename_component(name ${SAMPLE} NAME_WE)
get_filename_component(sample_file ${SAMPLE} NAME)
if(NOT DEFINED OPT)
  set(OPT -O0)
endif()
set(exe ${WORK}/${name}-${COMPILER}${OPT})
file(MAKE_DIRECTORY ${WORK})

if(DEFINED PREBUILT)  # built by the caller (check_openmp_sample.cmake: once for all runs)
  set(exe ${PREBUILT})
else()
  set(wrapper firstrace-cc)
  if(SAMPLE MATCHES "\\.cpp$")
    set(wrapper firstrace-c++)
    if(COMPILER STREQUAL "gcc")
      set(ENV{FIRSTRACE_CXX} g++)
    else()
      set(ENV{FIRSTRACE_CXX} ${COMPILER}++)
    endif()
  endif()
  set(ENV{FIRSTRACE_CC} ${COMPILER})
  # `// BUILD-FLAGS: -std=c++20` in the sample: flags it needs (the C++20 synchronization; -lm;
  # `-x c @SAMPLE_DIR@/parts/x.c -x none`: a part built as C), after the source as libraries must be
  file(STRINGS ${SAMPLE} build_flags_line REGEX "^// BUILD-FLAGS: " LIMIT_COUNT 1)
  string(REGEX REPLACE "^// BUILD-FLAGS: " "" build_flags "${build_flags_line}")
  get_filename_component(sample_dir ${SAMPLE} DIRECTORY)  # @SAMPLE_DIR@: a part's directory
  string(REPLACE "@SAMPLE_DIR@" "${sample_dir}" build_flags "${build_flags}")
  separate_arguments(build_flags)
  # -DEXTRA_FLAGS="...": flags the test adds after the sample's own (samples/glib: pkg-config's)
  if(DEFINED EXTRA_FLAGS)
    separate_arguments(extra_flags UNIX_COMMAND "${EXTRA_FLAGS}")
    list(APPEND build_flags ${extra_flags})
  endif()
  execute_process(COMMAND ${BIN}/${wrapper} -g ${OPT} -pthread ${SAMPLE} ${build_flags} -o ${exe}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "building ${SAMPLE} with firstrace-cc (${COMPILER}) failed:\n${err}")
  endif()
endif()
# `// RUN-ENV: NAME=VALUE` in the sample: the program's environment (TSAN_OPTIONS); @SAMPLE_DIR@
# is the sample's directory. A TSAN_OPTIONS of the caller's environment is not the sample's.
unset(ENV{TSAN_OPTIONS})
file(STRINGS ${SAMPLE} run_env_lines REGEX "^// RUN-ENV: ")
get_filename_component(sample_dir ${SAMPLE} DIRECTORY)
foreach(line IN LISTS run_env_lines)
  string(REGEX REPLACE "^// RUN-ENV: " "" assignment "${line}")
  string(REPLACE "@SAMPLE_DIR@" "${sample_dir}" assignment "${assignment}")
  if(NOT assignment MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
    message(FATAL_ERROR "${SAMPLE}: RUN-ENV wants NAME=VALUE, not '${assignment}'")
  endif()
  set(ENV{${CMAKE_MATCH_1}} "${CMAKE_MATCH_2}")
endforeach()
execute_process(COMMAND ${BIN}/firstrace record -q -o ${exe}.trace -- ${exe}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "firstrace record ${exe} exited with ${rc}:\n${err}")
endif()
# Every process of the sample is traced (the programs it execs or spawns too) and the runtime
# adds nothing to their stderr (a suppressions file it cannot read included).
if(err MATCHES "failed to read suppressions file")
  message(FATAL_ERROR "${exe}: ${err}")
endif()
if(err MATCHES "not tracing")
  message(FATAL_ERROR "a process of ${exe} was not traced:\n${err}")
endif()
execute_process(COMMAND ${BIN}/firstrace analyze ${exe}.trace --format json -q
                RESULT_VARIABLE rc OUTPUT_FILE ${exe}.json ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "firstrace analyze ${exe}.trace exited with ${rc}:\n${err}")
endif()

# The races against the markers in the source (tests/e2e/sample_check.cpp).
execute_process(COMMAND ${CHECK} ${SAMPLE} ${exe}.json --opt ${OPT} --label "${name} (${COMPILER} ${OPT})"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${out}${err}")
endif()

# The report (tests/e2e/report_check.cpp): race site instances share a byte (every sample), the
# first 40 lines of the text report name the `// BUG` lines and their functions.
if(DEFINED REPORT_CHECK)
  file(REMOVE ${exe}.db)
  execute_process(COMMAND ${BIN}/firstrace analyze ${exe}.trace --db ${exe}.db -q --colour never
                  RESULT_VARIABLE rc OUTPUT_FILE ${exe}.txt ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "firstrace analyze ${exe}.trace --db ${exe}.db exited with ${rc}:\n${err}")
  endif()
  execute_process(COMMAND ${REPORT_CHECK} ${SAMPLE} ${exe}.db ${exe}.txt
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(READ ${exe}.txt text)
    message(FATAL_ERROR "${out}${err}\n${text}")
  endif()
endif()

# A passing check leaves nothing behind: the suite's traces and databases take over 2 GB
# otherwise (a CI machine's disk filled up). A failing check stops above and keeps its files
# for a look; FIRSTRACE_KEEP_TEST_WORK=1 keeps them always.
if(NOT DEFINED ENV{FIRSTRACE_KEEP_TEST_WORK})
  file(REMOVE_RECURSE ${exe}.trace ${exe}.db ${exe}.json ${exe}.txt ${exe})
endif()
