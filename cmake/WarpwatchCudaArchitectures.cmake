# The GPU architectures warpwatch carries code for: the one place that lists them.
#
# Release (deploy/build.sh, the quickstart, any build type but Debug): native code (SASS) for
# every architecture CUDA 13's nvcc supports that a GPU fleet runs, 7.5 up to the newest, plus
# PTX of the newest so that a GPU newer than this toolkit still JIT-compiles the suite:
#   75  T4, RTX 20xx (Turing)             80  A100, A30 (Ampere)
#   86  A10, A40, RTX 30xx/A6000          89  L4, L40, L40S, RTX 40xx (Ada)
#   90  H100, H200, GH200 (Hopper)        100 B200, GB200 (Blackwell)
#   103 B300, GB300                       120 RTX PRO 6000 Blackwell, RTX 50xx
#   121 GB10 (DGX Spark)
# Left out: the Jetson/DRIVE SoCs (87 Orin, 88, 110 Thor), which run no fleet daemon.
#
# CI (tests/run.sh builds Debug, which picks this set): the oldest, 90 (the H100 the GPU tests
# run on) and the newest, with the newest's PTX. Measured with CUDA 13.0 (nvcc CPU time for the
# worker's 12 .cu files, Debug host code): sm_90 alone 66 s, this CI list 101 s, the release list
# 214 s. Compile time alone would allow the full list in CI (about +75 s of wall time on 2 cores);
# the binaries decide: device code per binary linking the kernels grows by 2.5 MB with CI's list
# and by 9.7 MB with the release list, and the GPU tests' binaries travel to the H100 in a bundle
# capped at 64 MiB.
#
# Override with -DWARPWATCH_CUDA_ARCH_SET=release|ci, or give CMAKE_CUDA_ARCHITECTURES yourself
# (e.g. "90-real" for a quick local build): the worker records whatever was built.
set(WARPWATCH_CUDA_ARCHS_RELEASE 75 80 86 89 90 100 103 120 121)
set(WARPWATCH_CUDA_ARCHS_CI 75 90 121)

if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  set(_ww_arch_set_default ci)
else()
  set(_ww_arch_set_default release)
endif()
set(WARPWATCH_CUDA_ARCH_SET ${_ww_arch_set_default} CACHE STRING
    "GPU architectures to build: release (every fleet architecture) or ci (oldest, 90, newest)")
set_property(CACHE WARPWATCH_CUDA_ARCH_SET PROPERTY STRINGS release ci)

# Sets CMAKE_CUDA_ARCHITECTURES from WARPWATCH_CUDA_ARCH_SET unless the caller gave it. Call
# before enable_language(CUDA).
macro(warpwatch_choose_cuda_architectures)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    if(WARPWATCH_CUDA_ARCH_SET STREQUAL "ci")
      set(_ww_archs ${WARPWATCH_CUDA_ARCHS_CI})
    elseif(WARPWATCH_CUDA_ARCH_SET STREQUAL "release")
      set(_ww_archs ${WARPWATCH_CUDA_ARCHS_RELEASE})
    else()
      message(FATAL_ERROR "WARPWATCH_CUDA_ARCH_SET must be release or ci, not "
                          "'${WARPWATCH_CUDA_ARCH_SET}'")
    endif()
    set(CMAKE_CUDA_ARCHITECTURES "")
    foreach(_ww_arch IN LISTS _ww_archs)
      list(APPEND CMAKE_CUDA_ARCHITECTURES ${_ww_arch}-real)
    endforeach()
    list(GET _ww_archs -1 _ww_newest)
    list(APPEND CMAKE_CUDA_ARCHITECTURES ${_ww_newest}-virtual)
    message(STATUS "warpwatch: CUDA architectures (${WARPWATCH_CUDA_ARCH_SET}): "
                   "${CMAKE_CUDA_ARCHITECTURES}")
  endif()
endmacro()

# Compile definitions naming what CMAKE_CUDA_ARCHITECTURES builds, for the worker's run records
# (kernels/core/cuda_architectures.cc): WARPWATCH_CUDA_REAL_ARCHS="75,90" (SASS) and
# WARPWATCH_CUDA_VIRTUAL_ARCHS="121" (PTX). An entry "NN" is both; "NNa"/"NNf" count as NN;
# "all", "all-major" and "native" cannot be listed and leave both empty.
function(warpwatch_cuda_architecture_definitions out_var)
  set(_real "")
  set(_virtual "")
  foreach(_entry IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(_entry MATCHES "^([0-9]+)[af]?(-real|-virtual)?$")
      set(_num ${CMAKE_MATCH_1})
      if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")
        list(APPEND _real ${_num})
      endif()
      if(NOT CMAKE_MATCH_2 STREQUAL "-real")
        list(APPEND _virtual ${_num})
      endif()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _real)
  list(REMOVE_DUPLICATES _virtual)
  list(JOIN _real "," _real_csv)
  list(JOIN _virtual "," _virtual_csv)
  set(${out_var}
      "WARPWATCH_CUDA_REAL_ARCHS=\"${_real_csv}\";WARPWATCH_CUDA_VIRTUAL_ARCHS=\"${_virtual_csv}\""
      PARENT_SCOPE)
endfunction()
