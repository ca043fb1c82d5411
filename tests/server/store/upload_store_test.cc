// Tests of offline run uploads in the store, and of a finished job's points_done (the points its
// run stored, whatever progress the worker last reported).
#include <gtest/gtest.h>

#include "tests/server/store/history_test_util.h"

namespace warpwatch::server::testing {
namespace {

const Uploader kUploader{"offline-user", false};

using UploadStoreTest = HistoryStoreTest;

v1::RunResult MakeResult(int points) {
  v1::RunResult result;
  *result.mutable_environment()->mutable_device() = MakeDevice("GPU-offline", kH100);
  result.mutable_environment()->set_hostname("airgap-1");
  (*result.mutable_environment()->mutable_labels())["build"] = "42";
  result.mutable_started_at()->set_seconds(1763900000);
  result.mutable_finished_at()->set_seconds(1763900600);
  for (int i = 0; i < points; ++i) *result.add_measurements() = MakePoint("reduce", "tree", i, 1e-3);
  return result;
}

TEST_F(UploadStoreTest, AnUploadedRunIsAFinishedRunWithoutAJobAwaitingAnalysis) {
  ASSERT_OK_AND_ASSIGN(UploadedRun up, store_->StoreUploadedRun(MakeResult(3), "digest-1", kUploader));
  EXPECT_TRUE(up.created);
  EXPECT_EQ(up.measurements_stored, 3);
  EXPECT_EQ(up.run.job_id(), 0);
  EXPECT_EQ(up.run.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(up.run.measurement_count(), 3);
  EXPECT_EQ(up.run.started_at().seconds(), 1763900000);
  EXPECT_EQ(up.run.environment().hostname(), "airgap-1");
  const std::string id = std::to_string(up.run.id());
  EXPECT_EQ(Sql("SELECT analysis_state || ' ' || content_sha256 || ' ' || (job_id IS NULL)"
                " || ' ' || device_name || ' ' || (labels->>'build') FROM run WHERE id = $1::bigint",
                id),
            std::string("PENDING digest-1 true ") + kH100 + " 42");
  EXPECT_EQ(Sql("SELECT min(series_id) FROM measurement WHERE run_id = $1::bigint", id),
            std::string("reduce/tree?n=0@") + kH100);
}

// The node's topology (issue 29) is part of the run's environment: stored with it, read back.
TEST_F(UploadStoreTest, TheGpuLinksOfTheEnvironmentAreStoredWithTheRun) {
  v1::RunResult result = MakeResult(1);
  v1::GpuLink* link = result.mutable_environment()->add_gpu_links();
  link->set_src(0);
  link->set_dst(1);
  link->set_path("NV17");
  link->set_nvlinks(17);
  link->set_through_nvswitch(true);
  link->set_nvlink_version(4);
  link->set_nvlink_gbps_per_direction(425);
  link->set_pcie_path("SYS");
  ASSERT_OK_AND_ASSIGN(UploadedRun up, store_->StoreUploadedRun(result, "digest-links", kUploader));
  ASSERT_EQ(up.run.environment().gpu_links_size(), 1);
  EXPECT_EQ(up.run.environment().gpu_links(0).path(), "NV17");
  EXPECT_EQ(up.run.environment().gpu_links(0).nvlinks(), 17);
  EXPECT_EQ(Sql("SELECT environment->'gpu_links'->0->>'path' || ' ' ||"
                " (environment->'gpu_links'->0->>'nvlinks') FROM run WHERE id = $1::bigint",
                std::to_string(up.run.id())),
            "NV17 17");
}

TEST_F(UploadStoreTest, TheSameContentTwiceReturnsTheFirstRunAndStoresNothing) {
  ASSERT_OK_AND_ASSIGN(UploadedRun first, store_->StoreUploadedRun(MakeResult(2), "digest-2", kUploader));
  ASSERT_OK_AND_ASSIGN(UploadedRun second, store_->StoreUploadedRun(MakeResult(2), "digest-2", kUploader));
  EXPECT_FALSE(second.created);
  EXPECT_EQ(second.run.id(), first.run.id());
  EXPECT_EQ(Sql("SELECT count(*)::text FROM run WHERE $1 <> ''", "x"), "1");
  EXPECT_EQ(Sql("SELECT count(*)::text FROM measurement WHERE $1 <> ''", "x"), "2");
}

TEST_F(UploadStoreTest, AnUploadRecordsItsUploaderAndFormsTheirOwnHistory) {
  ASSERT_OK_AND_ASSIGN(UploadedRun up,
                       store_->StoreUploadedRun(MakeResult(1), "digest-4", kUploader));
  EXPECT_EQ(up.run.uploaded_by(), "offline-user");
  EXPECT_FALSE(up.run.fleet_history());
  EXPECT_EQ(Sql("SELECT uploaded_by || ' ' || history_owner FROM run WHERE id = $1::bigint",
                std::to_string(up.run.id())),
            "offline-user offline-user");
}

TEST_F(UploadStoreTest, AnAdminsFleetUploadJoinsTheFleetsHistory) {
  ASSERT_OK_AND_ASSIGN(UploadedRun up, store_->StoreUploadedRun(MakeResult(1), "digest-5",
                                                                Uploader{"ops", true}));
  EXPECT_EQ(up.run.uploaded_by(), "ops");
  EXPECT_TRUE(up.run.fleet_history());
  EXPECT_EQ(Sql("SELECT '[' || history_owner || ']' FROM run WHERE id = $1::bigint",
                std::to_string(up.run.id())),
            "[]");
}

TEST_F(UploadStoreTest, TheSameContentFromTwoUploadersIsTwoRunsOneInEachHistory) {
  ASSERT_OK_AND_ASSIGN(UploadedRun mine,
                       store_->StoreUploadedRun(MakeResult(2), "digest-6", kUploader));
  ASSERT_OK_AND_ASSIGN(UploadedRun theirs, store_->StoreUploadedRun(MakeResult(2), "digest-6",
                                                                    Uploader{"other-user", false}));
  EXPECT_TRUE(theirs.created);
  EXPECT_NE(theirs.run.id(), mine.run.id());
  EXPECT_EQ(theirs.run.uploaded_by(), "other-user");
}

TEST_F(UploadStoreTest, AnUploadWithoutAnUploaderIsRefused) {
  StatusOr<UploadedRun> up = store_->StoreUploadedRun(MakeResult(1), "digest-7", Uploader{});
  EXPECT_EQ(up.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Sql("SELECT count(*)::text FROM run WHERE $1 <> ''", "x"), "0");
}

TEST_F(UploadStoreTest, AResultWithoutADeviceIsRefused) {
  v1::RunResult result = MakeResult(1);
  result.mutable_environment()->mutable_device()->clear_uuid();
  StatusOr<UploadedRun> up = store_->StoreUploadedRun(result, "digest-3", kUploader);
  EXPECT_EQ(up.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(up.status().message().find("environment.device.uuid"), std::string::npos);
  EXPECT_EQ(Sql("SELECT count(*)::text FROM run WHERE $1 <> ''", "x"), "0");
}

TEST_F(UploadStoreTest, AFinishedJobCountsThePointsItsRunStoredNotTheLastReport) {
  const std::string worker = Register({MakeDevice("GPU-a", kH100)});
  v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> lease,
                       store_->ClaimJob(worker, "GPU-a", std::chrono::minutes(5)));
  ASSERT_TRUE(lease.has_value());
  std::vector<v1::Measurement> points;
  for (int i = 0; i < 11; ++i) points.push_back(MakePoint("reduce", "tree", i, 1e-3));
  // The worker reported one point, then stored all eleven; its later reports never came.
  ASSERT_OK(store_->UpdateProgress(worker, job.id(), lease->run_id, 1, 11, "reduce/tree?n=0")
                .status());
  ASSERT_OK(store_->UploadMeasurements(lease->run_id, worker, v1::RunEnvironment(), points)
                .status());
  ASSERT_OK_AND_ASSIGN(v1::Job done, store_->FinishJob(worker, job.id(), lease->run_id,
                                                       v1::JOB_OUTCOME_SUCCEEDED, ""));
  EXPECT_EQ(done.points_done(), 11);
  ASSERT_OK_AND_ASSIGN(v1::Job read, store_->GetJob(job.id()));
  EXPECT_EQ(read.points_done(), 11);
}

TEST_F(UploadStoreTest, AFailedJobCountsThePointsItsRunStored) {
  const std::string worker = Register({MakeDevice("GPU-a", kH100)});
  v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> lease,
                       store_->ClaimJob(worker, "GPU-a", std::chrono::minutes(5)));
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK(store_->UpdateProgress(worker, job.id(), lease->run_id, 7, 10, "").status());
  ASSERT_OK(store_->UploadMeasurements(lease->run_id, worker, v1::RunEnvironment(),
                                       {MakePoint("reduce", "tree", 1, 1e-3),
                                        MakePoint("reduce", "tree", 2, 1e-3)})
                .status());
  ASSERT_OK_AND_ASSIGN(v1::Job done, store_->FinishJob(worker, job.id(), lease->run_id,
                                                       v1::JOB_OUTCOME_FAILED, "boom"));
  EXPECT_EQ(done.points_done(), 2);
}

}  // namespace
}  // namespace warpwatch::server::testing
