# WARPWATCH_UNITY_BUILD: compile each target's C++ sources a batch at a time (CMake's unity build),
# so the headers every file includes (gRPC, protobuf, gtest, CLI11, libpqxx) are parsed, and their
# inline functions instrumented and compiled, once per batch instead of once per file. Measured on
# the 2-core VM (docs/testing.md "Unity builds"): four CLI command files under ASan + UBSan -O1 took
# 57 s of CPU as one batch against 190 s one by one. tests/run.sh, tests/run_sanitized.sh and
# deploy/quickstart.sh turn it on (it then stays in that tree's CMakeCache.txt); deploy/build.sh
# on a fresh tree leaves it off unless WARPWATCH_CMAKE_ARGS asks.
#
# Every file of a target must therefore compile in one translation unit with the others: names in
# anonymous namespaces are unique within a target (a collision is a compile error, not a silent
# merge), and no file leaves a macro or a using-directive behind. CUDA sources are not batched.
# Include before any target is defined.
option(WARPWATCH_UNITY_BUILD "Compile each target's C++ files in batches (faster full builds)" OFF)
set(WARPWATCH_UNITY_BATCH_SIZE 8 CACHE STRING "Files per unity batch (0: a target's files in one)")

if(WARPWATCH_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${WARPWATCH_UNITY_BATCH_SIZE})
  message(STATUS "warpwatch: unity build, ${WARPWATCH_UNITY_BATCH_SIZE} files a batch")
endif()
