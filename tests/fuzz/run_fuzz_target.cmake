# One run of a libFuzzer target (ctest tests fuzz.* and fuzz-heavy.*):
#   cmake -DFUZZER=path -DNAME=std_trace -DSEEDS=tests/fuzz/corpus/std_trace -DWORK=build/fuzz
#         -DLIMIT=-max_total_time=5 [-DFRESH=ON] -P run_fuzz_target.cmake
# The committed seeds are only read; inputs the run finds go to WORK/corpus/NAME (emptied first
# with FRESH, so that the short default run does not grow with every run), findings to
# WORK/findings/NAME-* (crash-, leak-, timeout-, oom- files to add to the seeds once fixed).
set(corpus ${WORK}/corpus/${NAME})
if(FRESH)
  set(corpus ${WORK}/corpus-quick/${NAME})
  file(REMOVE_RECURSE ${corpus})
endif()
file(MAKE_DIRECTORY ${corpus} ${WORK}/findings)
execute_process(
  COMMAND ${FUZZER} ${corpus} ${SEEDS} ${LIMIT} -artifact_prefix=${WORK}/findings/${NAME}-
          -timeout=20 -rss_limit_mb=2048 -max_len=131072 -print_final_stats=1
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NAME}: the fuzzer found a failure (exit ${status}); the input is in "
                      "${WORK}/findings/ (see the output above)")
endif()
