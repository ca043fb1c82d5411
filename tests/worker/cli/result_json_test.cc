// Tests of the RunResult JSON document.
#include "worker/cli/result_json.h"

#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>
#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

v1::RunResult Sample() {
  v1::RunResult r;
  r.set_command("warpwatch-worker run --family reduce --out r.json");
  r.mutable_spec()->add_families("reduce");
  r.mutable_environment()->mutable_device()->set_uuid("GPU-01234567-89ab-cdef-0123-456789abcdef");
  r.mutable_environment()->mutable_device()->set_memory_bytes(int64_t{85} << 30);
  r.mutable_environment()->set_clock_source("nvml");
  (*r.mutable_environment()->mutable_labels())["git_sha"] = "abc123";
  v1::Measurement* m = r.add_measurements();
  m->mutable_case_()->set_family("reduce");
  m->mutable_case_()->set_variant("warp_shuffle");
  (*m->mutable_case_()->mutable_params())["n"] = int64_t{1} << 40;
  m->mutable_case_()->set_canonical("reduce/warp_shuffle?n=1099511627776");
  m->set_status(v1::POINT_STATUS_OK);
  for (double s : {1.25e-4, 1.5e-4, 1.0e-4}) m->add_samples_seconds(s);
  m->add_sample_throttled(true);
  m->mutable_occupancy()->set_achieved(0.875);
  m->mutable_occupancy()->set_limiter(v1::OCCUPANCY_LIMITER_REGISTERS);
  (*m->mutable_counters())["sm__warps_active.avg.pct_of_peak_sustained_active"] = 87.5;
  *m->mutable_measured_at() = google::protobuf::util::TimeUtil::GetCurrentTime();
  *r.mutable_started_at() = m->measured_at();
  return r;
}

TEST(ResultJson, RoundTripsEveryField) {
  v1::RunResult r = Sample();
  auto json = RunResultToJson(r);
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto back = RunResultFromJson(*json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(r, *back))
      << r.DebugString() << "\nvs\n" << back->DebugString();
}

TEST(ResultJson, UsesProtoFieldNamesAndEnumNames) {
  auto json = RunResultToJson(Sample());
  ASSERT_TRUE(json.ok());
  EXPECT_NE(json->find("\"samples_seconds\""), std::string::npos);
  EXPECT_NE(json->find("\"OCCUPANCY_LIMITER_REGISTERS\""), std::string::npos);
  EXPECT_NE(json->find("\"command\": \"warpwatch-worker run"), std::string::npos);
}

TEST(ResultJson, RejectsMalformedDocuments) {
  EXPECT_FALSE(RunResultFromJson("{\"measurements\": 3}").ok());
  EXPECT_FALSE(RunResultFromJson("not json").ok());
}

}  // namespace
}  // namespace warpwatch::worker
