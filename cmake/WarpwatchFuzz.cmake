# WARPWATCH_FUZZ: libFuzzer targets (tests/fuzz), clang only. With it on, every C/C++ target of the
# build is compiled with -fsanitize=fuzzer-no-link plus ASan and UBSan (so the fuzzers see
# coverage of the libraries they call and every memory or UB error is a crash), and each fuzzer
# links libFuzzer's main. Build only the fuzzers in such a tree (tests/run_fuzzers.sh does).
#
# Without it (any compiler, any build), each fuzzer is still built, linked with
# tests/fuzz/replay_main.cc instead of libFuzzer, and ctest's fuzz_replay.<name> feeds it every
# file of its committed corpus (tests/fuzz/corpus/<name>/): the corpora are regression tests.
# Include before any target is defined.
option(WARPWATCH_FUZZ "Build libFuzzer targets (clang only; tests/run_fuzzers.sh)" OFF)

if(WARPWATCH_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "WARPWATCH_FUZZ needs clang (CXX=clang++ CC=clang); "
                        "this is ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(WARPWATCH_WITH_CUDA)
    message(FATAL_ERROR "WARPWATCH_FUZZ builds CPU code only: add -DWARPWATCH_WITH_CUDA=OFF")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link,address,undefined>"
                      "$<$<COMPILE_LANGUAGE:C,CXX>:-fno-omit-frame-pointer>"
                      "$<$<COMPILE_LANGUAGE:C,CXX>:-fno-sanitize-recover=undefined>")
  # Executables that are not fuzzers (if any are built) still need the sanitizer runtimes.
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "warpwatch: libFuzzer targets on (with ASan + UBSan)")
endif()

# warpwatch_add_fuzzer(<name> SOURCES <files...> LIBRARIES <targets...>)
# Adds the executable fuzz_<name> (libFuzzer under WARPWATCH_FUZZ, else the corpus replayer) and
# the test fuzz_replay.<name> over tests/fuzz/corpus/<name>.
function(warpwatch_add_fuzzer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(_target fuzz_${name})
  add_executable(${_target} ${ARG_SOURCES})
  target_include_directories(${_target} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${_target} PRIVATE ${ARG_LIBRARIES})
  if(WARPWATCH_FUZZ)
    target_link_options(${_target} PRIVATE -fsanitize=fuzzer)
  else()
    target_sources(${_target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fuzz/replay_main.cc)
  endif()
  warpwatch_strict(${_target})
  set(_corpus ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${name})
  # -runs=0: libFuzzer executes each corpus file once and exits (the replayer ignores flags).
  add_test(NAME fuzz_replay.${name} COMMAND ${_target} -runs=0 ${_corpus})
  set_tests_properties(fuzz_replay.${name} PROPERTIES LABELS fuzz TIMEOUT 300)
  set_property(GLOBAL APPEND PROPERTY WARPWATCH_FUZZERS ${_target})
endfunction()
