// Shared by the contention generator's GPU tests: the configs they start, the memory-bound point
// they measure beside it, and a timed run of the generator.
#ifndef WARPWATCH_TESTS_WORKER_GPU_CONTENTION_GPU_SUPPORT_H_
#define WARPWATCH_TESTS_WORKER_GPU_CONTENTION_GPU_SUPPORT_H_

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "worker/contention/contention_generator.h"
#include "worker/engine/point_engine.h"

namespace warpwatch::worker {

// 2^24 floats in, 2^24 out: 128 MiB of DRAM traffic per launch, far more than any L2.
inline const catalog::Point kContentionCopyPoint =
    catalog::Point{"memory.coalescing", "copy", {{"n", int64_t{1} << 24}, {"block_size", 256}}};

inline ContentionConfig ContentionTestConfig(double gib, double duty,
                                             ContentionEngine engine = ContentionEngine::kKernel) {
  ContentionConfig c;
  c.buffer_bytes = static_cast<size_t>(gib * (1 << 30));
  c.duty = duty;
  c.engine = engine;
  return c;
}

// Settings that measure a point in about a second.
inline EngineSettings QuickContentionSettings() {
  v1::MeasurementSettings quick;
  quick.set_min_gpu_time_seconds(0.1);
  return ResolveSettings(quick);
}

// Lets the generator run for `seconds` (the measurement window, not a wait for an event), stops it
// and returns its report and how long Stop took.
inline ContentionReport RunContentionFor(ContentionGenerator& g, double seconds,
                                         double* stop_seconds) {
  using Clock = std::chrono::steady_clock;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  ContentionReport r;
  const Clock::time_point t0 = Clock::now();
  Status s = g.Stop(&r);
  *stop_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::printf("%s; Stop took %.2f ms\n", FormatContentionReport(r).c_str(), *stop_seconds * 1e3);
  return r;
}

}  // namespace warpwatch::worker

#endif  // WARPWATCH_TESTS_WORKER_GPU_CONTENTION_GPU_SUPPORT_H_
