# seismic3d at a fixed --frequency on two grids, the second twice as fine: the analytic
# check's error must fall at least RATIO times (leapfrog is second order in time, the
# Laplacian eighth order in space: about 4x). Default frequencies grow with small grids,
# so only a fixed one makes such a study.
#   cmake -DCLI=<tessera> -DFREQUENCY=4 -DSIZES="40;80" -DRATIO=2.5 -P seismic_refinement.cmake
# (RATIO with one decimal)
set(errors "")
foreach(n IN LISTS SIZES)
  execute_process(COMMAND ${CLI} run --problem seismic3d --model homogeneous --size ${n} --frequency ${FREQUENCY} --validate
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--size ${n} --frequency ${FREQUENCY}: exit ${rc}\n${out}${err}")
  endif()
  if(NOT out MATCHES "max \\|r u - exact\\| ([0-9.]+) of the peak")
    message(FATAL_ERROR "--size ${n}: no analytic error in\n${out}")
  endif()
  list(APPEND errors ${CMAKE_MATCH_1})
endforeach()
list(GET errors 0 coarse)
list(GET errors 1 fine)
# cmake has no floating point: compare coarse >= RATIO * fine in thousandths
string(REPLACE "." "" c "${coarse}")
string(REPLACE "." "" f "${fine}")
math(EXPR c "${c}")
math(EXPR f "${f}")
string(REPLACE "." "" r "${RATIO}")
math(EXPR lhs "${c} * 10")
math(EXPR rhs "${f} * ${r}")
if(f EQUAL 0 OR lhs LESS rhs)
  message(FATAL_ERROR "analytic error ${coarse} -> ${fine} of the peak: fell less than ${RATIO}x when h halved")
endif()
message(STATUS "analytic error ${coarse} -> ${fine} of the peak when h halved (at least ${RATIO}x)")
