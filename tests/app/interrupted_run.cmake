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
# 5 s in: well into the run (a build against a CUDA Kokkos spent over a second loading
# before main, where the default action of SIGINT still ends a process silently)
execute_process(COMMAND timeout -s INT 5 ${CLI} run --size 128 --steps 1000000 --policy host:serial --output ${DIR}/out.npy
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
