// GPU (label `gpu`): testing.fault's faults against kernels::IsContextPoisoned, through the
// registry as the engine drives a case. Each test leaves its process's CUDA state unusable, so
// each runs in its own process (ctest runs one test per process; run the binary with
// --gtest_filter=<one test> by hand).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

// Makes and sets up the testing.fault case of `variant`, then runs it once.
Status RunFaultOnce(const std::string& variant, std::unique_ptr<Case>* out) {
  const Family* family = FindImplementation("testing.fault");
  if (family == nullptr) return NotFoundError("testing.fault is not built");
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return InternalError("no properties");
  ASSIGN_OR_RETURN(*out, family->MakeCase(testing::MakePoint("testing.fault", variant,
                                                             {{"n", 1 << 20}}),
                                          prop));
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    return InternalError("cudaStreamCreateWithFlags failed");
  }
  RETURN_IF_ERROR((*out)->Setup(stream));
  RETURN_IF_ERROR((*out)->Run(stream));
  // CudaError turns any code into an error, cudaSuccess included: check first.
  const cudaError_t synced = cudaStreamSynchronize(stream);
  if (synced == cudaSuccess) return OkStatus();
  return CudaError(synced, "cudaStreamSynchronize", __FILE__, __LINE__);
}

TEST(FaultGpu, PersistentErrorIsCaughtOnlyByTheSecondSynchronisation) {
  WW_REQUIRE_CUDA_DEVICE();
  std::unique_ptr<Case> c;
  Status run = RunFaultOnce("persistent_error", &c);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.ToString().find("cudaErrorStreamCaptureUnsupported"), std::string::npos)
      << run.ToString();
  EXPECT_NE(run.code(), StatusCode::kAborted) << "no sticky list names this code";

  // The error outlives clearing it: a later point of this process could never succeed.
  cudaError_t first = cudaDeviceSynchronize();
  EXPECT_NE(first, cudaSuccess);
  EXPECT_FALSE(IsStickyCudaError(first)) << cudaGetErrorName(first);
  (void)cudaGetLastError();
  cudaError_t second = cudaDeviceSynchronize();
  EXPECT_EQ(second, first) << cudaGetErrorName(second);
  void* p = nullptr;
  EXPECT_NE(cudaMalloc(&p, 4096), cudaSuccess) << "allocations fail too";

  cudaError_t poison = cudaSuccess;
  EXPECT_TRUE(IsContextPoisoned(&poison));
  EXPECT_EQ(poison, second) << cudaGetErrorName(poison);
}

TEST(FaultGpu, IllegalAddressIsPoisonedByItsStickyCode) {
  WW_REQUIRE_CUDA_DEVICE();
  std::unique_ptr<Case> c;
  Status run = RunFaultOnce("illegal_address", &c);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.code(), StatusCode::kAborted) << run.ToString();
  cudaError_t poison = cudaSuccess;
  EXPECT_TRUE(IsContextPoisoned(&poison));
  EXPECT_EQ(poison, cudaErrorIllegalAddress) << cudaGetErrorName(poison);
}

TEST(FaultGpu, AHealthyContextIsNotPoisoned) {
  WW_REQUIRE_CUDA_DEVICE();
  std::unique_ptr<Case> c;
  Status run = RunFaultOnce("ok", &c);
  ASSERT_TRUE(run.ok()) << run.ToString();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  EXPECT_TRUE(c->Verify(stream).status.ok());
  cudaError_t poison = cudaSuccess;
  EXPECT_FALSE(IsContextPoisoned(&poison)) << cudaGetErrorName(poison);
}

}  // namespace
}  // namespace warpwatch::kernels
