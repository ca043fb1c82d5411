# TEST ONLY: compile chosen kernel sources with extra nvcc flags, so that two worker builds differ in
# one family's code generation alone (issue 26 4(a): a baseline build and a new build whose
# explanation must name the register change). Never for a fleet build.
#
#   -DWARPWATCH_TEST_CODEGEN="kernels/occupancy/registers/registers_kernels.cu=-maxrregcount=32"
#
# A ;-list of SOURCE=FLAGS entries: SOURCE relative to the source tree, a .cu file of the kernel
# suite (kernels/); FLAGS one or more nvcc options separated by spaces, added to that source's
# COMPILE_OPTIONS only (every other object, and so ccache's hits, stays as it was). Case keys do not
# change (same series). The value reaches each run's environment as the label build_test_codegen
# (kernels/core/build_test_codegen.h), so an explanation's environment diff names it. A source that
# does not exist, is not the suite's, is named twice, or an entry without flags stops the configure.
if(NOT CMAKE_SCRIPT_MODE_FILE)
  set(WARPWATCH_TEST_CODEGEN "" CACHE STRING
      "TEST ONLY: SOURCE=FLAGS entries (;-separated) compiling kernel sources with extra nvcc flags")
endif()

# The server keeps label values of up to 256 characters.
set(_ww_test_codegen_max_label 256)

# Checks `value` (WARPWATCH_TEST_CODEGEN's syntax) against `root` (the source tree) and the
# absolute paths in ARGN (the sources that may be named); sets out_sources to the absolute sources
# and out_flags to their flags, one entry each, the flags with ";" in place of spaces joined by "|".
# FATAL_ERROR naming WARPWATCH_TEST_CODEGEN and the entry otherwise. Runs in script mode too
# (tests/kernels/test_codegen_check.cmake).
function(warpwatch_parse_test_codegen value root out_sources out_flags)
  set(_sources "")
  set(_flags "")
  string(LENGTH "${value}" _length)
  if(_length GREATER _ww_test_codegen_max_label)
    message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: ${_length} characters; runs record it as a label "
                        "of at most ${_ww_test_codegen_max_label}")
  endif()
  foreach(_entry IN LISTS value)
    string(FIND "${_entry}" "=" _eq)
    if(_eq LESS 1)
      message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: '${_entry}' is not SOURCE=FLAGS (e.g. "
                          "kernels/occupancy/registers/registers_kernels.cu=-maxrregcount=32)")
    endif()
    string(SUBSTRING "${_entry}" 0 ${_eq} _source)
    math(EXPR _after "${_eq} + 1")
    string(SUBSTRING "${_entry}" ${_after} -1 _entry_flags)
    string(STRIP "${_entry_flags}" _entry_flags)
    if(_entry_flags STREQUAL "")
      message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: '${_entry}' gives ${_source} no flags")
    endif()
    if(IS_ABSOLUTE "${_source}")
      message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: ${_source} must be relative to the source "
                          "tree (${root})")
    endif()
    get_filename_component(_absolute "${root}/${_source}" ABSOLUTE)
    if(NOT EXISTS "${_absolute}")
      message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: ${_source} does not exist (paths are "
                          "relative to ${root}, e.g. kernels/occupancy/registers/registers_kernels.cu)")
    endif()
    if(NOT _absolute IN_LIST ARGN OR NOT _source MATCHES "\\.cu$")
      message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: ${_source} is not a CUDA source (.cu) of the "
                          "kernel suite under kernels/")
    endif()
    if(_absolute IN_LIST _sources)
      message(FATAL_ERROR "WARPWATCH_TEST_CODEGEN: ${_source} is named twice; give all its flags "
                          "in one entry")
    endif()
    separate_arguments(_options UNIX_COMMAND "${_entry_flags}")
    list(JOIN _options "|" _joined)  # "|" keeps one entry per source in a CMake list
    list(APPEND _sources "${_absolute}")
    list(APPEND _flags "${_joined}")
  endforeach()
  set(${out_sources} "${_sources}" PARENT_SCOPE)
  set(${out_flags} "${_flags}" PARENT_SCOPE)
endfunction()

# Applies WARPWATCH_TEST_CODEGEN to the named sources among ARGN (called in the directory whose
# targets compile them: source properties are per directory) and writes `header`, defining
# WARPWATCH_BUILD_TEST_CODEGEN as the option's value in a C string ("" when unset). The header is
# rewritten only when the value changes, so a reconfigure recompiles nothing else.
function(warpwatch_apply_test_codegen header)
  warpwatch_parse_test_codegen("${WARPWATCH_TEST_CODEGEN}" "${PROJECT_SOURCE_DIR}" _sources _flags
                               ${ARGN})
  foreach(_source _joined IN ZIP_LISTS _sources _flags)
    string(REPLACE "|" ";" _options "${_joined}")
    set_source_files_properties(${_source} PROPERTIES COMPILE_OPTIONS "${_options}")
    file(RELATIVE_PATH _relative "${PROJECT_SOURCE_DIR}" "${_source}")
    message(STATUS "warpwatch: TEST ONLY code generation: ${_relative} with ${_options}")
  endforeach()
  string(REPLACE "\\" "\\\\" _text "${WARPWATCH_TEST_CODEGEN}")
  string(REPLACE "\"" "\\\"" _text "${_text}")
  file(CONFIGURE OUTPUT "${header}" CONTENT
       "// Generated from WARPWATCH_TEST_CODEGEN (cmake/WarpwatchTestCodegen.cmake).\n#define WARPWATCH_BUILD_TEST_CODEGEN \"@_text@\"\n"
       @ONLY)
endfunction()
