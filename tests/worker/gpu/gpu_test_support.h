// Shared by the worker's GPU tests: skip without a device, print what was measured on failure.
#ifndef WARPWATCH_TESTS_WORKER_GPU_GPU_TEST_SUPPORT_H_
#define WARPWATCH_TESTS_WORKER_GPU_GPU_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "warpwatch/v1/measurement.pb.h"
#include "worker/device/device_info.h"

// Skips the test (with the line ctest logs show) on a machine without a CUDA device.
#define SKIP_WITHOUT_CUDA_DEVICE()                                           \
  do {                                                                       \
    auto _count = ::warpwatch::worker::CudaDeviceCount();                    \
    if (!_count.ok()) {                                                      \
      std::printf("skipped: no CUDA device (%s)\n",                          \
                  _count.status().message().c_str());                        \
      GTEST_SKIP() << "skipped: no CUDA device";                             \
    }                                                                        \
  } while (0)

namespace warpwatch::worker {

// Everything a failing assertion should show about a measurement.
inline std::string Explain(const v1::Measurement& m) {
  return "\n--- measurement ---\n" + m.DebugString();
}

}  // namespace warpwatch::worker

#endif  // WARPWATCH_TESTS_WORKER_GPU_GPU_TEST_SUPPORT_H_
