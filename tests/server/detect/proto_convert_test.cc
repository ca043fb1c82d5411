// Tests of the v1::Measurement -> RunPoint converter.
#include "server/detect/proto_convert.h"

#include <gtest/gtest.h>

namespace warpwatch::server::detect {
namespace {

v1::Measurement Measured() {
  v1::Measurement m;
  m.mutable_case_()->set_canonical("memory.coalescing/copy?block_size=256&n=16777216");
  m.set_status(v1::POINT_STATUS_OK);
  m.set_verified(true);
  m.mutable_stats()->set_median(4.9e-5);
  m.set_median_sm_clock_mhz(1980);
  m.set_throttled_fraction(0.25);
  m.set_run_id(42);
  for (double s : {4.8e-5, 4.9e-5, 5.0e-5}) m.add_samples_seconds(s);
  return m;
}

TEST(ProtoConvertTest, AMeasuredPointKeepsItsMedianClockAndFlags) {
  const RunPoint p = RunPointFromMeasurement(Measured(), "GPU-1", false);
  EXPECT_EQ(p.run_id, 42);
  EXPECT_EQ(p.device_uuid, "GPU-1");
  EXPECT_TRUE(p.ok);
  EXPECT_TRUE(p.verified);
  EXPECT_EQ(p.median_seconds, 4.9e-5);
  EXPECT_EQ(p.sm_clock_mhz, 1980);
  EXPECT_EQ(p.throttled_fraction, 0.25);
  EXPECT_TRUE(p.samples_seconds.empty());
}

TEST(ProtoConvertTest, SamplesAreCopiedOnlyWhenAskedFor) {
  EXPECT_EQ(RunPointFromMeasurement(Measured(), "GPU-1", true).samples_seconds.size(), 3u);
}

TEST(ProtoConvertTest, AFailedPointIsNotOk) {
  v1::Measurement m = Measured();
  m.set_status(v1::POINT_STATUS_FAILED);
  EXPECT_FALSE(RunPointFromMeasurement(m, "GPU-1", false).ok);
}

TEST(ProtoConvertTest, TheCaseKeyIsTheCanonicalKey) {
  EXPECT_EQ(CasePointFromMeasurement(Measured(), "GPU-1", false).case_key,
            "memory.coalescing/copy?block_size=256&n=16777216");
}

}  // namespace
}  // namespace warpwatch::server::detect
