# WARPWATCH_SANITIZE: AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer on every
# CPU target of the build, our libraries, the generated protobuf code, executables and tests alike.
# Device code is not instrumented (nvcc's host pass is not either): tests/run_sanitized.sh builds
# with WARPWATCH_WITH_CUDA=OFF, which still builds every CPU test. UB is fatal
# (-fno-sanitize-recover), so a finding fails the test that hit it instead of scrolling by.
# Include before any target is defined: the flags apply to everything added afterwards.
option(WARPWATCH_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)

if(WARPWATCH_SANITIZE)
  set(_ww_sanitize_flags -fsanitize=address,undefined -fno-omit-frame-pointer
      -fno-sanitize-recover=undefined)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_ww_sanitize_flags}>")
  # Every link of a C/C++ target gets the runtimes (CUDA executables link through the host
  # compiler too, so the flags are given unconditionally).
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "warpwatch: AddressSanitizer + UndefinedBehaviorSanitizer on")
endif()
