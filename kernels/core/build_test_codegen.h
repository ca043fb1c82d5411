// Whether this build compiled some kernel sources with test-only nvcc flags (the CMake option
// WARPWATCH_TEST_CODEGEN, cmake/WarpwatchTestCodegen.cmake), and the run label that records it.
// CUDA-free.
#ifndef WARPWATCH_KERNELS_CORE_BUILD_TEST_CODEGEN_H_
#define WARPWATCH_KERNELS_CORE_BUILD_TEST_CODEGEN_H_

#include <map>
#include <string>
#include <string_view>

namespace warpwatch::kernels {

// The RunEnvironment label of a build with test-only code generation. Two builds that differ only
// there run the same cases (same series); the label is what tells their runs apart, and an
// explanation's environment diff shows it as a software difference ("labels.build_test_codegen").
inline constexpr const char* kBuildTestCodegenLabel = "build_test_codegen";

// WARPWATCH_TEST_CODEGEN as CMake was given it, e.g.
// "kernels/occupancy/registers/registers_kernels.cu=-maxrregcount=32"; "" for a normal build.
std::string_view BuildTestCodegen();

// {build_test_codegen: value}, or no label at all when `value` is empty (a normal build's runs
// carry nothing new).
std::map<std::string, std::string> BuildTestCodegenLabels(std::string_view value);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_BUILD_TEST_CODEGEN_H_
