// Tests of the stopping rule with synthetic samples and a fake clock.
#include "worker/stats/stopping_rule.h"

#include <gtest/gtest.h>

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

// Alternating 1.00 / 1.01 ms: rel. std. error ~0.16 % / sqrt(n / 4), under 0.5 % from n = 2.
std::vector<double> Quiet(int n) {
  std::vector<double> s;
  for (int i = 0; i < n; ++i) s.push_back(i % 2 ? 1.01e-3 : 1.00e-3);
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
  EXPECT_LT(r.rel_stderr, st.target_noise);
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
  st.min_gpu_time_seconds = 0.02;  // 1 ms samples: needs 20 (1.00 + 1.01 per pair: 20 reach it)
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopNoise);
  double total = 0;
  for (double s : r.samples) total += s;
  EXPECT_GE(total, 0.02);
  EXPECT_LT(total - r.samples.back(), 0.02);
}

TEST(StoppingRule, NoisySamplesRunToMaxSamples) {
  std::vector<double> noisy;
  for (int i = 0; i < 200; ++i) noisy.push_back(i % 2 ? 1e-3 : 3e-3);
  FakeSampler f(noisy, 1e-3);
  StopSettings st;
  st.max_samples = 50;
  st.min_gpu_time_seconds = 0;
  SamplingResult r = SampleUntilStable(f, st, f);
  EXPECT_EQ(r.stop_reason, kStopMaxSamples);
  EXPECT_EQ(r.samples.size(), 50u);
  EXPECT_GT(r.rel_stderr, st.target_noise);
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
