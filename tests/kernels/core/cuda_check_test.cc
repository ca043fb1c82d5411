// Tests of kernels/core/cuda_check: which errors are sticky, and the second-synchronisation rule of
// IsContextPoisoned, with scripted synchronisation results (no GPU).
#include "kernels/core/cuda_check.h"

#include <gtest/gtest.h>

#include <deque>

namespace warpwatch::kernels {
namespace {

TEST(CudaCheck, EveryErrorTheHeadersSayNeedsANewProcessIsSticky) {
  // driver_types.h (CUDA 13): "the process must be terminated and relaunched".
  for (cudaError_t err :
       {cudaErrorContained, cudaErrorIllegalAddress, cudaErrorLaunchTimeout, cudaErrorAssert,
        cudaErrorHardwareStackError, cudaErrorIllegalInstruction, cudaErrorMisalignedAddress,
        cudaErrorInvalidAddressSpace, cudaErrorInvalidPc, cudaErrorLaunchFailure,
        cudaErrorTensorMemoryLeak, cudaErrorMpsClientTerminated, cudaErrorExternalDevice,
        cudaErrorECCUncorrectable}) {
    EXPECT_TRUE(IsStickyCudaError(err)) << cudaGetErrorName(err);
  }
}

TEST(CudaCheck, ConfigurationErrorsAreNotSticky) {
  for (cudaError_t err : {cudaSuccess, cudaErrorInvalidConfiguration, cudaErrorInvalidValue,
                          cudaErrorMemoryAllocation, cudaErrorLaunchOutOfResources,
                          cudaErrorNoKernelImageForDevice, cudaErrorStreamCaptureUnsupported}) {
    EXPECT_FALSE(IsStickyCudaError(err)) << cudaGetErrorName(err);
  }
}

TEST(CudaCheck, StickyErrorsBecomeAborted) {
  EXPECT_EQ(CudaError(cudaErrorContained, "call", "f.cc", 1).code(), StatusCode::kAborted);
  EXPECT_EQ(CudaError(cudaErrorTensorMemoryLeak, "call", "f.cc", 1).code(), StatusCode::kAborted);
  EXPECT_EQ(CudaError(cudaErrorInvalidValue, "call", "f.cc", 1).code(), StatusCode::kInternal);
}

// What the scripted device returns from each synchronisation, and how often it was asked.
std::deque<cudaError_t> g_sync_results;
int g_syncs = 0;
int g_clears = 0;

cudaError_t ScriptedSync() {
  ++g_syncs;
  if (g_sync_results.empty()) return cudaSuccess;
  cudaError_t err = g_sync_results.front();
  g_sync_results.pop_front();
  return err;
}
cudaError_t ScriptedClear() {
  ++g_clears;
  return cudaSuccess;
}

CudaSyncOps Scripted(std::deque<cudaError_t> results) {
  g_sync_results = std::move(results);
  g_syncs = 0;
  g_clears = 0;
  CudaSyncOps ops;
  ops.synchronize = ScriptedSync;
  ops.clear_last_error = ScriptedClear;
  return ops;
}

TEST(IsContextPoisoned, AnIdleHealthyDeviceIsNotPoisoned) {
  cudaError_t err = cudaSuccess;
  EXPECT_FALSE(IsContextPoisoned(&err, Scripted({cudaSuccess})));
  EXPECT_EQ(g_syncs, 1);
  EXPECT_EQ(g_clears, 1) << "a launch error left behind must be cleared for the next point";
}

TEST(IsContextPoisoned, AStickyCodeIsPoisonedAtTheFirstSynchronisation) {
  cudaError_t err = cudaSuccess;
  EXPECT_TRUE(IsContextPoisoned(&err, Scripted({cudaErrorContained})));
  EXPECT_EQ(err, cudaErrorContained);
  EXPECT_EQ(g_syncs, 1);
}

TEST(IsContextPoisoned, AnErrorGoneAtTheSecondSynchronisationIsNotPoisoned) {
  cudaError_t err = cudaSuccess;
  EXPECT_FALSE(IsContextPoisoned(&err, Scripted({cudaErrorInvalidValue, cudaSuccess})));
  EXPECT_EQ(g_syncs, 2);
  EXPECT_GE(g_clears, 1);
  EXPECT_EQ(err, cudaSuccess);
}

TEST(IsContextPoisoned, AnUnlistedErrorThatSurvivesTheSecondSynchronisationIsPoisoned) {
  cudaError_t err = cudaSuccess;
  EXPECT_TRUE(IsContextPoisoned(
      &err, Scripted({cudaErrorStreamCaptureUnsupported, cudaErrorStreamCaptureUnsupported})));
  EXPECT_EQ(err, cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(g_syncs, 2);
  EXPECT_EQ(g_clears, 1) << "the error is cleared between the two synchronisations";
}

TEST(IsContextPoisoned, AnUnknownFutureCodeThatPersistsIsPoisoned) {
  const auto future = static_cast<cudaError_t>(1234);
  cudaError_t err = cudaSuccess;
  EXPECT_TRUE(IsContextPoisoned(&err, Scripted({future, future})));
  EXPECT_EQ(err, future);
}

}  // namespace
}  // namespace warpwatch::kernels
