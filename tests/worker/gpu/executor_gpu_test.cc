// GPU test: faulting test-only points (illegal address, trap, hang) between good points fail
// alone, through the real `warpwatch-worker exec` child (WARPWATCH_WORKER_PATH).
#include <gtest/gtest.h>

#include "kernels/core/cuda_architectures.h"
#include "tests/worker/gpu/gpu_test_support.h"
#include "worker/executor/process_executor.h"

namespace warpwatch::worker {
namespace {

catalog::Point Fault(const std::string& variant) {
  catalog::Point p;
  p.family = "testing.fault";
  p.variant = variant;
  p.params["n"] = 1 << 20;
  return p;
}

TEST(ExecutorGpu, FaultingPointsFailAloneAndTheOthersAreMeasured) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ProcessExecutorOptions options;
  options.child_argv = {WARPWATCH_WORKER_PATH, "exec"};
  options.grace_seconds = 10;
  ProcessExecutor executor(options);
  ExecutionRequest request;
  request.points = {Fault("ok"),   Fault("illegal_address"), Fault("ok"), Fault("trap"),
                    Fault("ok"),   Fault("hang"),            Fault("ok")};
  request.settings.set_point_timeout_seconds(5);
  ExecutionCallbacks cb;
  cb.on_measurement = [](size_t i, const v1::Measurement& m) {
    std::printf("[%zu] %s %s %s\n", i, m.case_().canonical().c_str(),
                v1::PointStatus_Name(m.status()).c_str(), m.error().c_str());
  };
  auto result = executor.Execute(request, cb);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const auto& ms = result->measurements;
  ASSERT_EQ(ms.size(), request.points.size());
  for (size_t i : {0, 2, 4, 6}) {
    EXPECT_EQ(ms[i].status(), v1::POINT_STATUS_OK) << i << Explain(ms[i]);
    EXPECT_TRUE(ms[i].verified()) << i;
    EXPECT_GT(ms[i].stats().median(), 0) << i;
  }
  for (size_t i : {1, 3, 5}) {
    EXPECT_EQ(ms[i].status(), v1::POINT_STATUS_FAILED) << i << Explain(ms[i]);
    EXPECT_FALSE(ms[i].error().empty()) << i;
    EXPECT_EQ(ms[i].samples_seconds_size(), 0) << "a faulting point must never be timed" << i;
  }
  EXPECT_NE(ms[1].error().find("cudaErrorIllegalAddress"), std::string::npos) << Explain(ms[1]);
  EXPECT_NE(ms[5].error().find("timed out after 15 s"), std::string::npos) << Explain(ms[5]);
  EXPECT_FALSE(result->environment.device().uuid().empty());
}

// An error no sticky list names but that survives a second synchronisation (testing.fault's
// persistent_error) retires the child: without kernels::IsContextPoisoned in the engine, every
// later point of that child fails with the same cudaErrorStreamCaptureUnsupported.
TEST(ExecutorGpu, PersistentErrorRetiresTheChildAndTheNextPointsRun) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ProcessExecutorOptions options;
  options.child_argv = {WARPWATCH_WORKER_PATH, "exec"};
  options.grace_seconds = 10;
  ProcessExecutor executor(options);
  ExecutionRequest request;
  request.points = {Fault("ok"), Fault("persistent_error"), Fault("ok"), Fault("ok")};
  request.settings.set_point_timeout_seconds(5);
  ExecutionCallbacks cb;
  auto result = executor.Execute(request, cb);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const auto& ms = result->measurements;
  ASSERT_EQ(ms.size(), request.points.size());
  EXPECT_EQ(ms[1].status(), v1::POINT_STATUS_FAILED) << Explain(ms[1]);
  EXPECT_NE(ms[1].error().find("cudaErrorStreamCaptureUnsupported"), std::string::npos)
      << Explain(ms[1]);
  for (size_t i : {0, 2, 3}) {
    EXPECT_EQ(ms[i].status(), v1::POINT_STATUS_OK) << i << Explain(ms[i]);
    EXPECT_TRUE(ms[i].verified()) << i;
  }
}

// Every run records the code the worker carries, the GPU's architecture and the image it ran.
TEST(ExecutorGpu, TheRunRecordsTheArchitecturesBuiltAndRun) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  ProcessExecutorOptions options;
  options.child_argv = {WARPWATCH_WORKER_PATH, "exec"};
  ProcessExecutor executor(options);
  ExecutionRequest request;
  request.points = {Fault("ok")};
  ExecutionCallbacks cb;
  auto result = executor.Execute(request, cb);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const v1::RunEnvironment& env = result->environment;
  EXPECT_EQ(result->measurements[0].status(), v1::POINT_STATUS_OK);
  const std::vector<std::string> built = kernels::ArchitectureNames(kernels::BuiltArchitectures());
  ASSERT_FALSE(built.empty());
  EXPECT_EQ(std::vector<std::string>(env.built_architectures().begin(),
                                     env.built_architectures().end()),
            built);
  EXPECT_EQ(env.device_architecture(), "sm_" + std::to_string(prop.major * 10 + prop.minor));
  EXPECT_EQ(env.code_architecture(),
            kernels::CodeArchitectureFor(prop.major, prop.minor, kernels::BuiltArchitectures()));
  EXPECT_NE(env.code_architecture(), "none") << "the ok point ran, so some image matched";
  std::printf("built %zu architectures; device %s runs %s\n", built.size(),
              env.device_architecture().c_str(), env.code_architecture().c_str());
}

}  // namespace
}  // namespace warpwatch::worker
