// GPU (label `gpu`): RequireKernelImage tells a kernel this binary carries no code for the device
// apart from one it can run. sm75_only_kernel.cu is built for sm_75 only
// (tests/kernels/CMakeLists.txt): on any GPU but a 7.x its kernel has no image, which must become
// a FAILED_PRECONDITION (SKIPPED) reason that leaves the context usable, not a failed point.
#include <gtest/gtest.h>

#include "kernels/core/cuda_architectures.h"
#include "kernels/core/cuda_check.h"
#include "kernels/testing/fault/fault_kernels.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
const void* Sm75OnlyKernel();  // sm75_only_kernel.cu
namespace {

TEST(KernelImageGpu, AKernelWithoutCodeForTheDeviceIsSkippedNotFailed) {
  WW_REQUIRE_CUDA_DEVICE();
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  Status s = RequireKernelImage(Sm75OnlyKernel(), prop);
  if (prop.major == 7 && prop.minor >= 5) {
    EXPECT_TRUE(s.ok()) << s.ToString();  // sm_75 code runs on 7.5+ of major 7
  } else {
    EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << s.ToString();
    EXPECT_NE(s.message().find("this worker carries no code for " +
                               DeviceArchitectureName(prop.major, prop.minor)),
              std::string::npos)
        << s.ToString();
  }
  // The context is still usable and the error state clean: a kernel of the suite runs.
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  const void* ok = fault::FaultKernelFunction(fault::FaultKind::kOk);
  EXPECT_TRUE(RequireKernelImage(ok, prop).ok());
  cudaError_t poison = cudaSuccess;
  EXPECT_FALSE(IsContextPoisoned(&poison)) << cudaGetErrorName(poison);
}

}  // namespace
}  // namespace warpwatch::kernels
