// Tests of the stopping rule with synthetic samples and a fake clock.
#include "worker/stats/stopping_rule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace warpwatch::worker {
namespace {

// Plays back a list of samples (repeating the last one forever) and advances a fake clock by
// `wall_per_sample` seconds for each.
class FakeSampler : public Sampler, public WallClock {
 public:
  FakeSampler(std::vector<double> samples, double wall_per_sample)
      : samples_(std::move(samples)), wall_per_sample_(wall_per_sample) {}

  StatusOr<double> TakeSample() override {
    if (fail_at_ >= 0 && taken_ == fail_at_) return InternalError("injected");
    double s = samples_[std::min(taken_, static_cast<int>(samples_.size()) - 1)];
    ++taken_;
    now_ += wall_per_sample_;
    return s;
  }
  double NowSeconds() override { return now_; }

  int taken_ = 0;
  int fail_at_ = -1;

 private:
  std::vector<double> samples_;
  double wall_per_sample_;
  double now_ = 100;
};

// Alternating 1.000 / 1.002 ms: relative standard deviation ~0.1 %, under the 0.5 % target.
std::vector<double> Quiet(int n) {
  std::vector<double> s;
  for (int i = 0; i < n; ++i) s.push_back(i % 2 ? 1.002e-3 : 1.000e-3);
  return s;
}

// 1 ms and 1.1 ms in a fixed pseudo-random order: noise ~4.8 %, stable once enough are seen.
std::vector<double> SteadilyNoisy(int n) {
  std::vector<double> s;
  uint32_t x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    s.push_back((x >> 16) & 1 ? 1.1e-3 : 1.0e-3);
  }
  return s;
}

TEST(StoppingRule, StopsOnNoiseRightAfterMinSamples) {
  FakeSampler f(Quiet(100), 1e-3);
  StopSettings st;
  st.min_samples = 10;
  st.min_gpu_time_seconds = 0;
  SamplingResult r = SampleUntilStable(f, st, f);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.stop_reason, kStopNoise);
  EXPECT_EQ(r.samples.size(), 10u);
  EXPECT_LT(r.rel_stddev, st.target_noise);
}

TEST(StoppingRule, DoesNotStopBeforeMinSamples) {
  FakeSampler f(Quiet(100), 1e-3);
  StopSettings st;
  st.min_samples = 25;
  st.min_gpu_time_seconds = 0;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopNoise);
  EXPECT_EQ(r.samples.size(), 25u);
}

TEST(StoppingRule, DoesNotStopBeforeMinGpuTime) {
  FakeSampler f(Quiet(100), 1e-3);
  StopSettings st;
  st.min_samples = 10;
  st.min_gpu_time_seconds = 0.02;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopNoise);
  double total = 0;
  for (double s : r.samples) total += s;
  EXPECT_GE(total, 0.02);
  EXPECT_LT(total - r.samples.back(), 0.02);
}

// The old rule compared the standard error of the mean, which shrinks as 1/sqrt(n): these samples
// (noise 4.8 %, standard error 0.48 % at n = 100) would have stopped as "noise" at 100 samples.
TEST(StoppingRule, NoisySamplesAreNotCalledQuietJustBecauseThereAreMany) {
  FakeSampler f(SteadilyNoisy(5000), 1e-3);
  StopSettings st;
  st.min_samples = 100;
  st.min_gpu_time_seconds = 0;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_NE(r.stop_reason, kStopNoise);
  EXPECT_GT(r.rel_stddev, 0.04);
}

TEST(StoppingRule, SteadilyNoisySamplesStopOnceTheNoiseHasConverged) {
  FakeSampler f(SteadilyNoisy(5000), 1e-3);
  StopSettings st;
  st.min_samples = 10;
  st.min_gpu_time_seconds = 0.2;  // 200 samples of ~1 ms
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopConverged);
  EXPECT_GE(r.samples.size(), 190u);
  EXPECT_LT(r.samples.size(), 1000u);
  EXPECT_EQ(r.samples.size() % kConvergenceStride, 0u);
}

TEST(StoppingRule, NoiseThatKeepsChangingRunsToMaxSamples) {
  // Each sample 1 % longer than the last: the noise grows without bound, never converges.
  std::vector<double> drifting;
  double t = 1e-3;
  for (int i = 0; i < 400; ++i, t *= 1.01) drifting.push_back(t);
  FakeSampler f(drifting, 1e-3);
  StopSettings st;
  st.max_samples = 300;
  st.min_gpu_time_seconds = 0;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopMaxSamples);
  EXPECT_EQ(r.samples.size(), 300u);
  EXPECT_GT(r.rel_stddev, st.target_noise);
}

TEST(StoppingRule, DefaultsAreNvbenchsStdrelWithTheNightlyBudget) {
  StopSettings st;
  EXPECT_EQ(st.max_samples, 2000);
  EXPECT_DOUBLE_EQ(st.target_noise, 0.005);
  EXPECT_DOUBLE_EQ(st.min_gpu_time_seconds, 0.1);
  EXPECT_DOUBLE_EQ(st.timeout_seconds, 15);
}

TEST(StoppingRule, StopsAtTheTimeout) {
  std::vector<double> noisy;
  for (int i = 0; i < 200; ++i) noisy.push_back(i % 2 ? 1e-3 : 3e-3);
  FakeSampler f(noisy, 0.5);  // each sample takes half a second of wall time
  StopSettings st;
  st.timeout_seconds = 5;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopTimeout);
  EXPECT_EQ(r.samples.size(), 10u);
}

TEST(StoppingRule, TimeoutWinsOverMinSamples) {
  FakeSampler f(Quiet(100), 10);
  StopSettings st;
  st.min_samples = 10;
  st.timeout_seconds = 15;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopTimeout);
  EXPECT_EQ(r.samples.size(), 2u);
}

TEST(StoppingRule, SamplerErrorStopsAndKeepsEarlierSamples) {
  FakeSampler f(Quiet(100), 1e-3);
  f.fail_at_ = 3;
  StopSettings st;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_FALSE(r.status.ok());
  EXPECT_EQ(r.samples.size(), 3u);
  EXPECT_TRUE(r.stop_reason.empty());
}

}  // namespace
}  // namespace warpwatch::worker
