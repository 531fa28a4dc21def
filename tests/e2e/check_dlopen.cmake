# A dlopen'ed instrumented library (tests/e2e/dlopen): built with firstrace-cc (COMPILER, OPT),
# loaded by an instrumented program; racy without the library's mutex, race-free with it, and
# the race named by the library's source line.
# Usage: cmake -DBIN=build/bin -DWORK=dir -DSRC=tests/e2e/dlopen -DCOMPILER=gcc -DOPT=-O0
#              -P check_dlopen.cmake
cmake_minimum_required(VERSION 3.25)
set(dir ${WORK}/dlopen-${COMPILER}${OPT})
file(MAKE_DIRECTORY ${dir})
set(ENV{FIRSTRACE_CC} ${COMPILER})
execute_process(COMMAND ${BIN}/firstrace-cc -g ${OPT} -shared -fPIC ${SRC}/plugin.c
                        -o ${dir}/libplugin.so RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the plugin failed:\n${err}")
endif()
execute_process(COMMAND ${BIN}/firstrace-cc -g ${OPT} -pthread ${SRC}/main.c -o ${dir}/main -ldl
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the program failed:\n${err}")
endif()
foreach(variant racy locked)
  set(args ${dir}/libplugin.so)
  if(variant STREQUAL "locked")
    list(APPEND args locked)
  endif()
  file(REMOVE_RECURSE ${dir}/${variant}.trace)
  execute_process(COMMAND ${BIN}/firstrace record -q -o ${dir}/${variant}.trace -- ${dir}/main
                          ${args} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${variant}: record exited with ${rc}:\n${err}")
  endif()
  execute_process(COMMAND ${BIN}/firstrace analyze ${dir}/${variant}.trace
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${variant}: analyze exited with ${rc}:\n${err}")
  endif()
  if(variant STREQUAL "racy")
    if(NOT out MATCHES " 1 apparent races" OR NOT out MATCHES "plugin\\.c:11 +<->[ \n]+[^ \n]*plugin\\.c:11"
     OR NOT out MATCHES "Memory: plugin_counter")
      message(FATAL_ERROR "racy: expected one race on plugin.c:11:\n${out}")
    endif()
  elseif(NOT out MATCHES " 0 apparent races")
    message(FATAL_ERROR "locked: expected no race:\n${out}")
  endif()
endforeach()
