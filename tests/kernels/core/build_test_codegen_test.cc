// Tests of kernels/core/build_test_codegen: the value CMake was given reaches the binary, and the
// run label it becomes (no GPU).
#include "kernels/core/build_test_codegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace warpwatch::kernels {
namespace {

// WARPWATCH_TEST_CODEGEN of this tree, with "|" for the ";" between entries (a compile definition
// cannot carry a CMake list separator).
TEST(BuildTestCodegen, IsTheValueCMakeWasGiven) {
  std::string value(BuildTestCodegen());
  std::replace(value.begin(), value.end(), ';', '|');
  EXPECT_EQ(value, WW_TEST_CODEGEN_OPTION);
}

TEST(BuildTestCodegenLabels, ANormalBuildAddsNoLabel) {
  EXPECT_TRUE(BuildTestCodegenLabels("").empty());
}

TEST(BuildTestCodegenLabels, ATestBuildIsLabelledWithTheOptionsValue) {
  const std::string value = "kernels/occupancy/registers/registers_kernels.cu=-maxrregcount=32";
  auto labels = BuildTestCodegenLabels(value);
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels.at("build_test_codegen"), value);
}

}  // namespace
}  // namespace warpwatch::kernels
