// For the GPU tests of issue 8's families (instr.*, matmul, transfer, concurrency): run one catalog
// point exactly as the engine drives it and hand back what Verify said.
#ifndef WARPWATCH_TESTS_KERNELS_INSTR_RUN_POINT_H_
#define WARPWATCH_TESTS_KERNELS_INSTR_RUN_POINT_H_

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/catalog/plan.h"
#include "kernels/core/family.h"

namespace warpwatch::kernels::testing {

struct PointOutcome {
  bool ran = false;      // every step succeeded (failures are reported with ADD_FAILURE)
  bool skipped = false;  // MakeCase or Setup said FAILED_PRECONDITION (reason in `reason`)
  std::string reason;
  VerifyResult verify;  // the second round's
};

// MakeCase, Setup, then twice Reset + Run + stream sync + Verify (so Reset's clearing and a second
// run over the same buffers are checked too). Every failure names the point.
inline PointOutcome RunPoint(const catalog::Point& point) {
  PointOutcome out;
  const std::string key = point.Canonical();
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    ADD_FAILURE() << key << ": cudaGetDeviceProperties failed";
    return out;
  }
  const Family* family = FindImplementation(point.family);
  if (family == nullptr) {
    ADD_FAILURE() << point.family << " not implemented";
    return out;
  }
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  if (!made.ok()) {
    if (made.status().code() == StatusCode::kFailedPrecondition) {
      out.skipped = true;
      out.reason = made.status().ToString();
    } else {
      ADD_FAILURE() << key << ": MakeCase: " << made.status().ToString();
    }
    return out;
  }
  std::unique_ptr<Case> c = std::move(made).value();
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    ADD_FAILURE() << key << ": cudaStreamCreateWithFlags failed";
    return out;
  }
  bool ok = true;
  const Status setup = c->Setup(stream);
  if (!setup.ok()) {
    ok = false;
    if (setup.code() == StatusCode::kFailedPrecondition) {
      out.skipped = true;
      out.reason = setup.ToString();
    } else {
      ADD_FAILURE() << key << ": Setup: " << setup.ToString();
    }
  }
  for (int round = 1; ok && round <= 2; ++round) {
    Status s = c->Reset(stream);
    if (s.ok()) s = c->Run(stream);
    if (!s.ok()) {
      ADD_FAILURE() << key << ": Reset/Run (round " << round << "): " << s.ToString();
      ok = false;
      break;
    }
    const cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      ADD_FAILURE() << key << ": Run (round " << round << "): " << cudaGetErrorString(err);
      ok = false;
      break;
    }
    out.verify = c->Verify(stream);
    if (!out.verify.status.ok()) {
      ADD_FAILURE() << key << ": Verify (round " << round << "): " << out.verify.status.ToString();
      ok = false;
    }
  }
  out.ran = ok;
  c.reset();  // free the buffers before the stream
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess) << key;
  return out;
}

}  // namespace warpwatch::kernels::testing

#endif  // WARPWATCH_TESTS_KERNELS_INSTR_RUN_POINT_H_
