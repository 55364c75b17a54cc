# `tessera run --input FILE` on every hostile file in DIR (written by tessera-hostile-files):
# each must end within 2 s with exit status 1 and an error that names the file.
#   cmake -DCLI=<tessera> -DDIR=<folder> -P hostile_inputs.cmake
file(GLOB files "${DIR}/*.npy" "${DIR}/*.vti")
list(LENGTH files count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} hostile files in ${DIR}")
endif()
set(failures "")
foreach(f IN LISTS files)
  string(TIMESTAMP t0 "%s%f")
  execute_process(COMMAND ${CLI} run --input ${f} --precision float --steps 1 TIMEOUT 2
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}${err}" "'${f}'" named)
  if(NOT rc STREQUAL "1" OR named EQUAL -1)
    string(APPEND failures "\n  ${f}: exit ${rc}\n${out}${err}")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "hostile inputs not refused by name with exit 1 within 2 s:${failures}")
endif()
message(STATUS "${count} hostile files: each refused with exit 1, naming the file, within 2 s")
