# ctest fixture `fuzz.build`: configures (once) and builds the libFuzzer targets in a clang
# sub-build of their own, BINARY (build/fuzz): only the readers' libraries (firstrace_trace,
# firstrace_store and what it links), compiled with coverage instrumentation and ASan/UBSan;
# the tracer, GUI, benchmarks and tests are off. -O1 with line tables only keeps the build short.
#   cmake -DSOURCE=repo -DBINARY=build/fuzz -DCLANG=clang -DCLANGXX=clang++ [-DLAUNCHER=ccache]
#         -P build_fuzz_targets.cmake
set(sanitize "-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all")
set(flags "-O1 -gline-tables-only -fno-omit-frame-pointer ${sanitize}")
if(NOT EXISTS ${BINARY}/CMakeCache.txt)
  set(launcher "")
  if(LAUNCHER)
    set(launcher -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G Ninja
            -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_CXX_COMPILER=${CLANGXX} ${launcher}
            -DCMAKE_BUILD_TYPE=FuzzTargets "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_CXX_FLAGS=${flags}"
            -DFIRSTRACE_BUILD_FUZZ_TARGETS=ON -DFIRSTRACE_BUILD_TRACER=OFF
            -DFIRSTRACE_BUILD_GUI=OFF -DFIRSTRACE_BUILD_BENCH=OFF -DFIRSTRACE_BUILD_TESTS=OFF
            -DBUILD_TESTING=OFF
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    file(REMOVE ${BINARY}/CMakeCache.txt)
    message(FATAL_ERROR "configuring the fuzz targets in ${BINARY} failed")
  endif()
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} --build ${BINARY} --target std_trace_fuzzer firstrace_trace_fuzzer
          results_database_fuzzer firstrace_trace_seed
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "building the fuzz targets in ${BINARY} failed")
endif()
