# The wrappers as CC/CXX of a CMake project, and a direct multi-source compile-and-link
# invocation; both programs are recorded and must show no apparent race.
# Usage: cmake -DBIN=build/bin -DWORK=dir -DPROJECT_DIR=tests/e2e/cmake_project -DCOMPILER=gcc|clang -P check_project.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
if(COMPILER STREQUAL "clang")
  set(ENV{FIRSTRACE_CC} clang)
  set(ENV{FIRSTRACE_CXX} clang++)
endif()
set(ENV{CC} ${BIN}/firstrace-cc)
set(ENV{CXX} ${BIN}/firstrace-c++)

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

function(check_no_race program)
  step(${BIN}/firstrace record -q -o ${program}.trace -- ${program})
  execute_process(COMMAND ${BIN}/firstrace analyze ${program}.trace --format json -q
                  RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "analyze failed: ${err}")
  endif()
  string(JSON races GET "${json}" counts apparent)
  string(JSON events GET "${json}" counts events)
  string(JSON processes GET "${json}" counts processes)
  message(STATUS "${program}: ${events} events, ${processes} processes, ${races} apparent races")
  if(NOT races EQUAL 0 OR events LESS 100 OR NOT processes EQUAL 2)
    message(FATAL_ERROR "${program}: expected 2 processes, many events and no race")
  endif()
endfunction()

step(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK}/build -DCMAKE_BUILD_TYPE=RelWithDebInfo)
step(${CMAKE_COMMAND} --build ${WORK}/build)
check_no_race(${WORK}/build/pipeline)

step(${BIN}/firstrace-cc -g -O1 -c ${PROJECT_DIR}/checksum.c -o ${WORK}/checksum.o)
step(${BIN}/firstrace-c++ -g -O1 -std=c++20 -pthread -I ${PROJECT_DIR} ${PROJECT_DIR}/pipeline.cpp
     ${PROJECT_DIR}/stages.cpp ${WORK}/checksum.o -o ${WORK}/pipeline-direct)
check_no_race(${WORK}/pipeline-direct)

# C++ sources linked by the C driver (as test suites do with `clang -fsanitize=thread x.cpp`):
# the runtime brings libstdc++ along.
step(${BIN}/firstrace-cc -g -O1 -std=c++20 -pthread -I ${PROJECT_DIR} ${PROJECT_DIR}/pipeline.cpp
     ${PROJECT_DIR}/stages.cpp ${WORK}/checksum.o -o ${WORK}/pipeline-cc-driver)
check_no_race(${WORK}/pipeline-cc-driver)

# `-x LANG` applies to the inputs after it, as in the compilers: here the C++ sources, not the
# object after `-x none` nor the wrapper's own objects of the sources (GCC's test harness
# builds the c-c++-common tests this way).
step(${BIN}/firstrace-cc -g -O1 -std=c++20 -pthread -I ${PROJECT_DIR} -x c++ ${PROJECT_DIR}/pipeline.cpp
     ${PROJECT_DIR}/stages.cpp -x none ${WORK}/checksum.o -o ${WORK}/pipeline-x-language)
check_no_race(${WORK}/pipeline-x-language)

# -fno-sanitize=thread after the wrapper's own flag choice builds uninstrumented code (a test's
# "uninstrumented library"), also in a compile-and-link invocation.
step(${BIN}/firstrace-cc -g -O1 -fno-sanitize=thread -c ${PROJECT_DIR}/checksum.c
     -o ${WORK}/checksum-plain.o)
step(${BIN}/firstrace-cc -g -O1 -fno-sanitize=thread -fPIC -shared ${PROJECT_DIR}/checksum.c
     -o ${WORK}/libchecksum-plain.so)
find_program(NM nm REQUIRED)
foreach(binary ${WORK}/checksum-plain.o ${WORK}/libchecksum-plain.so ${WORK}/checksum.o)
  execute_process(COMMAND ${NM} -u ${binary} OUTPUT_VARIABLE undefined)
  string(FIND "${undefined}" "__tsan_" at)
  if(binary STREQUAL "${WORK}/checksum.o")
    if(at EQUAL -1)
      message(FATAL_ERROR "${binary}: not instrumented")
    endif()
  elseif(NOT at EQUAL -1)
    message(FATAL_ERROR "${binary}: instrumented despite -fno-sanitize=thread:\n${undefined}")
  endif()
endforeach()
