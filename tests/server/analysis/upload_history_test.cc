// Uploaded runs on a real PostgreSQL (issue 23, scoped roles): an upload forms its uploader's own
// history, a baseline only for that uploader's later uploads of the same device; it joins the
// fleet's history of a device only when an admin uploaded it so (UploadRunRequest.fleet_history).
// docs/regressions.md "Comparable series".
#include <gtest/gtest.h>

#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {
namespace {

const Uploader kAlice{"alice", false};
const Uploader kBob{"bob", false};

TEST_F(RunAnalyzerTest, UploadsNeverJoinTheBaselineOfAWorkersDevice) {
  AddBaseline();
  // Five uploads of the workers' device, 30 % faster (another machine, another setup): judged
  // against the fleet they would open IMPROVEMENTs, and mixed into the fleet's baseline they
  // would pull its median down and flag the next nightly run SLOWER.
  for (int i = 0; i < 5; ++i) UploadRun({Copy(0.7e-4 * (1 + 0.001 * i))}, kAlice);
  ASSERT_EQ(AnalyzeAll(), 5);
  const int64_t nightly = AddRun({Copy(1.0005e-4)});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("run_id = " + std::to_string(nightly)), 0);
  EXPECT_EQ(Count("true"), 0);
}

TEST_F(RunAnalyzerTest, AnUploadIsJudgedOnlyAgainstItsUploadersEarlierUploadsOfTheDevice) {
  std::vector<int64_t> alices;
  for (int i = 0; i < 10; ++i) {
    alices.push_back(UploadRun({Copy(0.7e-4 * (1 + 0.001 * (i % 3)))}, kAlice));
  }
  ASSERT_EQ(AnalyzeAll(), 10);
  // A slower level from another uploader, and from Alice on another device: no history of their
  // own yet, so nothing to judge them against.
  const int64_t bobs = UploadRun({Copy(0.77e-4)}, kBob);
  const int64_t other_device = UploadRun({Copy(0.77e-4)}, kAlice, kDeviceB);
  ASSERT_EQ(AnalyzeAll(), 2);
  const int64_t slower = UploadRun({Copy(0.77e-4)}, kAlice);
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = Sql("SELECT kind, baseline_run_ids::text FROM regression WHERE run_id = $1 AND"
                       " device_uuid = $2",
                       slower, std::string(kDeviceA));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "REGRESSION");
  for (const std::string& id : {std::to_string(bobs), std::to_string(other_device)}) {
    EXPECT_EQ(r[0][1].as<std::string>().find(id), std::string::npos) << r[0][1].as<std::string>();
  }
  EXPECT_EQ(Count("run_id = " + std::to_string(bobs)), 0);
  EXPECT_EQ(Count("run_id = " + std::to_string(other_device)), 0);
}

TEST_F(RunAnalyzerTest, AnAdminsFleetUploadIsJudgedAgainstTheWorkersRuns) {
  AddBaseline();
  const int64_t upload = UploadRun({Copy(1.06e-4), Reduce(), Strided(2)}, Uploader{"ops", true});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("run_id = " + std::to_string(upload) + " AND kind = 'REGRESSION'"), 1);
}

TEST_F(RunAnalyzerTest, AnUploadersOwnHistoryLeavesTheFleetsChangePointsAlone) {
  AddBaseline();
  const int before = Sql("SELECT count(*) FROM change_point").at(0).at(0).as<int>();
  const std::string fleet_points =
      Sql("SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM change_point")
          .at(0)
          .at(0)
          .as<std::string>();
  for (int i = 0; i < 10; ++i) UploadRun({Copy(2e-4 * (1 + 0.001 * (i % 3)))}, kAlice);
  ASSERT_EQ(AnalyzeAll(), 10);
  EXPECT_EQ(Sql("SELECT count(*) FROM change_point").at(0).at(0).as<int>(), before);
  EXPECT_EQ(Sql("SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM change_point")
                .at(0)
                .at(0)
                .as<std::string>(),
            fleet_points);
}

}  // namespace
}  // namespace warpwatch::server::testing
