# Runs cmake/WarpwatchTestCodegen.cmake's check on VALUE as the configure would (script mode, so a
# refusal is tested without configuring a tree): prints "accepted: SOURCE FLAGS" per entry, or the
# FATAL_ERROR the configure would stop with. Used by tests/kernels/CMakeLists.txt.
#   cmake -DROOT=<source tree> -DVALUE=<WARPWATCH_TEST_CODEGEN> -P test_codegen_check.cmake
cmake_minimum_required(VERSION 3.25)
include(${ROOT}/cmake/WarpwatchTestCodegen.cmake)
file(GLOB_RECURSE _suite ${ROOT}/kernels/*.cu ${ROOT}/kernels/*.cc)
warpwatch_parse_test_codegen("${VALUE}" "${ROOT}" _sources _flags ${_suite})
foreach(_source _joined IN ZIP_LISTS _sources _flags)
  file(RELATIVE_PATH _relative "${ROOT}" "${_source}")
  message(STATUS "accepted: ${_relative} ${_joined}")
endforeach()
