// GPU tests (label gpu) of the time cross-check: the published time (headline) against the
// kernels' own CUPTI time. A memset inside the timed region must fire the flag; a copy alone must
// not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/worker/gpu/gpu_test_support.h"
#include "worker/engine/point_engine.h"
#include "worker/stats/time_agreement.h"

namespace warpwatch::worker {
namespace {

catalog::Point FaultPoint(const std::string& variant) {
  catalog::Point p;
  p.family = "testing.fault";
  p.variant = variant;
  p.params = {{"n", 1 << 24}};
  return p;
}

class TimeAgreementGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_CUDA_DEVICE();
    auto engine = PointEngine::Open(0);
    ASSERT_TRUE(engine.ok()) << engine.status().ToString();
    engine_ = std::move(engine).value();
  }

  v1::Measurement Measure(const std::string& variant) {
    v1::Measurement m = engine_->Measure(FaultPoint(variant), ResolveSettings({})).measurement;
    const bool headline = std::abs(m.tracing_cost()) <= kMaxTracingCost;
    std::printf(
        "%s: headline %.2f us, traced events %.2f us, kernels %.2f us, tracing cost "
        "%+.2f %% (kernels compared with the %s), gap %+.1f %%, times_disagree %d\n",
        variant.c_str(), m.stats().median() * 1e6, m.traced_event_median_seconds() * 1e6,
        m.kernel_median_seconds() * 1e6, m.tracing_cost() * 100,
        headline ? "headline" : "traced events", m.event_kernel_gap() * 100,
        m.times_disagree() ? 1 : 0);
    return m;
  }

  std::unique_ptr<PointEngine> engine_;
};

TEST_F(TimeAgreementGpuTest, MemsetInsideTheTimedRegionFiresTheFlag) {
  v1::Measurement m = Measure("copy_then_memset");
  ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
  ASSERT_TRUE(m.duration_note().empty()) << m.duration_note();
  ASSERT_GT(m.kernel_median_seconds(), 0) << Explain(m);
  EXPECT_EQ(m.kernels_size(), 1) << "the memset is not a kernel" << Explain(m);
  EXPECT_TRUE(m.times_disagree()) << Explain(m);
  // 256 MiB at ~3 TB/s next to a ~41 us copy: the headline is well over twice the kernel.
  EXPECT_GT(m.event_kernel_gap(), 0.5) << Explain(m);
  EXPECT_GT(m.stats().median(), m.kernel_median_seconds() + 20e-6) << Explain(m);
}

// On the H100 (c9f5e4d) tracing slowed this copy by 7.5 % (headline 55.33 us, traced events
// 59.49 us, traced kernel 57.02 us): the kernel is compared with the traced events there, and
// agrees. Whichever comparison the tracing cost picks, a copy alone must not fire.
TEST_F(TimeAgreementGpuTest, CopyAloneIsNotFlagged) {
  v1::Measurement m = Measure("ok");
  ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
  ASSERT_GT(m.kernel_median_seconds(), 0) << m.duration_note();
  EXPECT_NEAR(m.tracing_cost(), TracingCost(m.stats().median(), m.traced_event_median_seconds()),
              1e-12);
  EXPECT_FALSE(m.times_disagree()) << Explain(m);
}

}  // namespace
}  // namespace warpwatch::worker
