# A run interrupted by SIGINT while it computes: the earlier --output stays byte for byte,
# no temporary file is left, and the command says it was interrupted.
#   cmake -DCLI=<tessera> -DDIR=<empty folder> -P interrupted_run.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${CLI} run --size 12 --steps 2 --output ${DIR}/out.npy RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the first run failed: exit ${rc}")
endif()
file(SHA256 ${DIR}/out.npy before)
# The interrupt is sent once the run has its handler: a fixed delay raced the start-up on a
# loaded machine (a build against a CUDA Kokkos spends seconds loading before main, where
# SIGINT's default action still ends a process silently). /proc/PID/status lists the
# signals a process catches (SigCgt, SIGINT is bit 2); one more second puts the signal
# inside the sweeps. At most 120 s of waiting, then the signal goes anyway (and the test
# fails on the missing message).
set(wait_for_handler [=[
"$0" run --size 128 --steps 1000000 --policy host:serial --output "$1" &
pid=$!
i=0
while [ $i -lt 1200 ]; do
  mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
  if [ -n "$mask" ] && [ $(( 0x$mask & 2 )) -ne 0 ]; then break; fi
  sleep 0.1
  i=$((i + 1))
done
sleep 1
kill -INT $pid
wait $pid
]=])
execute_process(COMMAND sh -c "${wait_for_handler}" ${CLI} ${DIR}/out.npy
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the long run was not interrupted")
endif()
if(NOT err MATCHES "interrupted .SIGINT.; no output was left half-written")
  message(FATAL_ERROR "no word of the interrupt (exit ${rc}):\n${out}${err}")
endif()
file(SHA256 ${DIR}/out.npy after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "the earlier out.npy changed")
endif()
file(GLOB left "${DIR}/.tessera-*")
if(left)
  message(FATAL_ERROR "temporary files left: ${left}")
endif()
message(STATUS "interrupted (exit ${rc}); the earlier result is whole and nothing was left behind")
