# Fails unless two .pvti outputs' pieces hold the same bytes, piece by piece (the pieces are
# named <stem>_<hash>_<rank>.vti beside their index): a run's last snapshot is its final field.
#   cmake -DDIR=<folder> -DA=<stem> -DB=<stem> -DPIECES=<count> -P same_pieces.cmake
foreach(r RANGE 1 ${PIECES})
  math(EXPR rank "${r} - 1")
  file(GLOB a "${DIR}/${A}_[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]_${rank}.vti")
  file(GLOB b "${DIR}/${B}_[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]_${rank}.vti")
  list(LENGTH a na)
  list(LENGTH b nb)
  if(NOT na EQUAL 1 OR NOT nb EQUAL 1)
    message(FATAL_ERROR "piece ${rank}: found '${a}' and '${b}' (want one of each)")
  endif()
  file(SHA256 "${a}" ha)
  file(SHA256 "${b}" hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "piece ${rank}: ${a} and ${b} differ")
  endif()
endforeach()
message(STATUS "${A} and ${B}: ${PIECES} pieces, the same bytes")
