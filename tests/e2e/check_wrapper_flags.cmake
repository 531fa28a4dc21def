# End-to-end checks of compiler flags the wrappers must handle, one MODE per test.
# Usage: cmake -DMODE=lto|sanitizer-list|static -DCOMPILER=gcc|clang -DBIN=build/bin -DWORK=dir -DSRC=tests/e2e
#              -P check_wrapper_flags.cmake
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY ${WORK})
set(ENV{FIRSTRACE_CC} ${COMPILER})
set(exe ${WORK}/${MODE}-${COMPILER})

set(flags -flto)
if(MODE STREQUAL "sanitizer-list")
  set(flags -fsanitize=thread,undefined)
endif()

if(MODE STREQUAL "lto" OR MODE STREQUAL "sanitizer-list")
  # -flto -O2, compiled and linked in one step and in two: the program is instrumented (gcc
  # would instrument LTO code only at a link with -fsanitize=thread) and its race is found.
  # -fsanitize=thread,undefined: the link keeps -fsanitize=undefined only (thread would link
  # libtsan, whose functions would shadow the firstrace runtime's).
  foreach(steps one two)
    if(steps STREQUAL "one")
      execute_process(COMMAND ${BIN}/firstrace-cc -g -O2 ${flags} -pthread ${SRC}/lto_race.c -o ${exe}
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
    else()
      execute_process(COMMAND ${BIN}/firstrace-cc -g -O2 ${flags} -c ${SRC}/lto_race.c -o ${exe}.o
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(rc EQUAL 0)
        execute_process(COMMAND ${BIN}/firstrace-cc -O2 ${flags} -pthread ${exe}.o -o ${exe}
                        RESULT_VARIABLE rc ERROR_VARIABLE err)
      endif()
    endif()
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${MODE} (${steps} step): building failed:\n${err}")
    endif()
    file(REMOVE_RECURSE ${exe}.trace)
    execute_process(COMMAND ${BIN}/firstrace record -o ${exe}.trace -- ${exe}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${MODE} (${steps} step): record failed (${rc}):\n${err}")
    endif()
    # Nothing but record's own line: no warning of another runtime (clang's UBSan says
    # "REAL(sigaction_symname) == nullptr" when the runtime's handlers reach its interceptor).
    string(REGEX MATCHALL "\n" lines "${err}")
    list(LENGTH lines line_count)
    if(NOT line_count EQUAL 1)
      message(FATAL_ERROR "${MODE} (${steps} step): record printed more than its line:\n${err}")
    endif()
    execute_process(COMMAND ${BIN}/firstrace analyze ${exe}.trace --format json
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${MODE} (${steps} step): analyze failed:\n${err}")
    endif()
    string(JSON feasible GET "${out}" counts feasible)
    if(NOT feasible EQUAL 1)
      message(FATAL_ERROR "${MODE} (${steps} step): expected the one race, got ${feasible}:\n${out}")
    endif()
  endforeach()

elseif(MODE STREQUAL "static")
  # What cannot be traced is refused with one line naming the flag, exit 2, no file: a static
  # program (nor run under ThreadSanitizer), and sanitizers the compilers refuse to combine with
  # their thread-sanitizer pass (whose message would name a flag the user never wrote).
  foreach(refused "-static;cannot link a static program (-static)"
                  "-static-pie;cannot link a static program (-static-pie)"
                  "-fsanitize=undefined,address;-fsanitize=address cannot be combined"
                  "-c;-fsanitize=leak;-fsanitize=leak cannot be combined")
    list(POP_BACK refused message)
    file(REMOVE ${exe})
    execute_process(COMMAND ${BIN}/firstrace-cc ${refused} -pthread ${SRC}/lto_race.c -o ${exe}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    string(FIND "${err}" "firstrace-cc: ${message}" at)
    string(REGEX MATCHALL "\n" lines "${err}")
    list(LENGTH lines line_count)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR NOT line_count EQUAL 1 OR EXISTS ${exe})
      message(FATAL_ERROR "${MODE} (${refused}): expected one line and exit status 2, got ${rc}:\n${err}")
    endif()
  endforeach()
  # Turned off again, a sanitizer is no conflict: the program builds.
  execute_process(COMMAND ${BIN}/firstrace-cc -fsanitize=address -fno-sanitize=address -pthread
                          ${SRC}/lto_race.c -o ${exe}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${MODE}: -fsanitize=address -fno-sanitize=address failed (${rc}):\n${err}")
  endif()

else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
