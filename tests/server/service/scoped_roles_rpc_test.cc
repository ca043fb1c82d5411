// Scoped roles (issue 23) over real channels to an in-process server on a real PostgreSQL, each
// cell with two credentials: a submitter cancels, edits, deletes, triggers and unpins only what it
// created ("ci"), another submitter ("bob") is refused PERMISSION_DENIED naming the creator and
// changes nothing, an admin ("ops") acts on everything; an upload records its uploader, and only
// an admin puts one in the fleet's history. Regression triage stays open to every submitter.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include "tests/server/service/result_rpc_test_util.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::testing {
namespace {

constexpr const char* kScopedRolesRareCron =
    "0 2 29 2 *";  // February 29: the scheduler stays out of the way

class ScopedRolesRpcTest : public ResultRpcTest {
 protected:
  std::unique_ptr<v1::ScheduleService::Stub> Schedules() const {
    return v1::ScheduleService::NewStub(Channel());
  }

  grpc::Status Cancel(const std::string& token, int64_t job_id, v1::Job* out) {
    v1::CancelJobRequest request;
    request.set_job_id(job_id);
    return JobStub()->CancelJob(Context(token).get(), request, out);
  }

  // Creates schedule `name` as `token` (ASSERTs success).
  void CreateSchedule(const std::string& token, const std::string& name) {
    v1::CreateScheduleRequest request;
    request.mutable_schedule()->set_name(name);
    request.mutable_schedule()->set_cron(kScopedRolesRareCron);
    request.mutable_schedule()->set_time_zone("UTC");
    *request.mutable_schedule()->mutable_job_template() = ValidSpec();
    v1::Schedule created;
    grpc::Status s = Schedules()->CreateSchedule(Context(token).get(), request, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  grpc::Status UpdateCron(const std::string& token, const std::string& name,
                          const std::string& cron) {
    v1::UpdateScheduleRequest request;
    request.mutable_schedule()->set_name(name);
    request.mutable_schedule()->set_cron(cron);
    request.mutable_update_mask()->add_paths("cron");
    v1::Schedule updated;
    return Schedules()->UpdateSchedule(Context(token).get(), request, &updated);
  }

  grpc::Status DeleteSchedule(const std::string& token, const std::string& name) {
    v1::DeleteScheduleRequest request;
    request.set_name(name);
    v1::DeleteScheduleResponse deleted;
    return Schedules()->DeleteSchedule(Context(token).get(), request, &deleted);
  }

  grpc::Status TriggerSchedule(const std::string& token, const std::string& name) {
    v1::TriggerScheduleRequest request;
    request.set_name(name);
    v1::ScheduleRun run;
    return Schedules()->TriggerSchedule(Context(token).get(), request, &run);
  }

  grpc::Status Unpin(const std::string& token, int64_t pin_id) {
    v1::UnpinBaselineRequest request;
    request.set_id(pin_id);
    v1::BaselinePin removed;
    return Results()->UnpinBaseline(Context(token).get(), request, &removed);
  }

  // A pin of one run, made by `token` (ASSERTs success through `pin_id` > 0).
  int64_t Pin(const std::string& token) {
    const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});
    v1::PinBaselineRequest request;
    request.add_run_ids(run);
    v1::BaselinePin pin;
    grpc::Status s = Results()->PinBaseline(Context(token).get(), request, &pin);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return pin.id();
  }

  grpc::Status Upload(const std::string& token, bool fleet_history, v1::UploadRunResponse* out) {
    v1::RunResult result;
    result.mutable_environment()->mutable_device()->set_uuid("GPU-airgapped-1");
    result.mutable_environment()->mutable_device()->set_name(kModel);
    *result.add_measurements() = ResultPoint("tree", 1e-3);
    std::string json;
    EXPECT_TRUE(google::protobuf::util::MessageToJsonString(result, &json).ok());
    v1::UploadRunRequest request;
    request.set_run_result_json(json);
    request.set_fleet_history(fleet_history);
    return Results()->UploadRun(Context(token).get(), request, out);
  }

  std::string ScheduleCron(const std::string& name) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    return tx.exec_params("SELECT coalesce(max(cron), '(none)') FROM schedule WHERE name = $1",
                          name)[0][0]
        .as<std::string>();
  }
};

void ExpectDeniedNaming(const grpc::Status& s, const std::string& creator) {
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  EXPECT_NE(s.error_message().find("\"" + creator + "\""), std::string::npos) << s.error_message();
}

TEST_F(ScopedRolesRpcTest, ASubmitterCancelsItsOwnJobButNotAnothers) {
  const v1::Job job = Submit();  // as "ci"
  ASSERT_EQ(job.submitted_by(), "ci");
  v1::Job cancelled;
  ExpectDeniedNaming(Cancel(kOtherSubmitterToken, job.id(), &cancelled), "ci");
  EXPECT_EQ(Sql("SELECT state FROM job WHERE id = $1", job.id()), "QUEUED");
  grpc::Status s = Cancel(kSubmitterToken, job.id(), &cancelled);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);
}

TEST_F(ScopedRolesRpcTest, AnAdminCancelsAnyonesJob) {
  const v1::Job job = Submit();
  v1::Job cancelled;
  grpc::Status s = Cancel(kAdminToken, job.id(), &cancelled);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);
}

TEST_F(ScopedRolesRpcTest, ASubmitterEditsItsOwnScheduleButNotAnothers) {
  CreateSchedule(kSubmitterToken, "ci-nightly");
  ExpectDeniedNaming(UpdateCron(kOtherSubmitterToken, "ci-nightly", "0 3 29 2 *"), "ci");
  EXPECT_EQ(ScheduleCron("ci-nightly"), kScopedRolesRareCron);
  grpc::Status s = UpdateCron(kSubmitterToken, "ci-nightly", "0 3 29 2 *");
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(ScheduleCron("ci-nightly"), "0 3 29 2 *");
  s = UpdateCron(kAdminToken, "ci-nightly", "0 4 29 2 *");
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(ScheduleCron("ci-nightly"), "0 4 29 2 *");
}

TEST_F(ScopedRolesRpcTest, ASubmitterTriggersItsOwnScheduleButNotAnothers) {
  CreateSchedule(kSubmitterToken, "ci-nightly");
  ExpectDeniedNaming(TriggerSchedule(kOtherSubmitterToken, "ci-nightly"), "ci");
  EXPECT_EQ(Sql("SELECT count(*) FROM schedule_run WHERE $1 > 0", 1), "0");
  grpc::Status s = TriggerSchedule(kSubmitterToken, "ci-nightly");
  ASSERT_TRUE(s.ok()) << s.error_message();
  s = TriggerSchedule(kAdminToken, "ci-nightly");
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Sql("SELECT count(*) FROM schedule_run WHERE $1 > 0", 1), "2");
}

TEST_F(ScopedRolesRpcTest, ASubmitterDeletesItsOwnScheduleButNotAnothers) {
  CreateSchedule(kSubmitterToken, "ci-nightly");
  CreateSchedule(kOtherSubmitterToken, "bob-nightly");
  ExpectDeniedNaming(DeleteSchedule(kOtherSubmitterToken, "ci-nightly"), "ci");
  EXPECT_EQ(ScheduleCron("ci-nightly"), kScopedRolesRareCron);
  grpc::Status s = DeleteSchedule(kSubmitterToken, "ci-nightly");
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(ScheduleCron("ci-nightly"), "(none)");
  s = DeleteSchedule(kAdminToken, "bob-nightly");
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(ScheduleCron("bob-nightly"), "(none)");
}

TEST_F(ScopedRolesRpcTest, ASubmitterUnpinsItsOwnPinButNotAnothers) {
  const int64_t mine = Pin(kSubmitterToken);
  const int64_t theirs = Pin(kOtherSubmitterToken);
  ASSERT_GT(mine, 0);
  ASSERT_GT(theirs, 0);
  ExpectDeniedNaming(Unpin(kOtherSubmitterToken, mine), "ci");
  EXPECT_EQ(Sql("SELECT count(*) FROM baseline_pin WHERE id = $1", mine), "1");
  grpc::Status s = Unpin(kSubmitterToken, mine);
  ASSERT_TRUE(s.ok()) << s.error_message();
  s = Unpin(kAdminToken, theirs);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Sql("SELECT count(*) FROM baseline_pin WHERE $1 > 0", 1), "0");
}

TEST_F(ScopedRolesRpcTest, AnUploadRecordsItsUploaderFromTheCredentials) {
  v1::UploadRunResponse up;
  grpc::Status s = Upload(kOtherSubmitterToken, false, &up);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(up.run().uploaded_by(), "bob");
  EXPECT_FALSE(up.run().fleet_history());
  EXPECT_EQ(Sql("SELECT uploaded_by || '/' || history_owner FROM run WHERE id = $1", up.run().id()),
            "bob/bob");
}

TEST_F(ScopedRolesRpcTest, OnlyAnAdminPutsAnUploadInTheFleetsHistory) {
  v1::UploadRunResponse up;
  grpc::Status s = Upload(kSubmitterToken, true, &up);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  EXPECT_NE(s.error_message().find("fleet_history"), std::string::npos) << s.error_message();
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE $1 > 0", 1), "0");
  s = Upload(kAdminToken, true, &up);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(up.run().uploaded_by(), "ops");
  EXPECT_TRUE(up.run().fleet_history());
}

TEST_F(ScopedRolesRpcTest, TriageStaysOpenToEverySubmitter) {
  const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});  // submitted by "ci"
  const int64_t regression = InsertRegression(run, "OPEN");
  v1::UpdateRegressionRequest request;
  request.set_id(regression);
  request.set_state(v1::REGRESSION_STATE_ACKNOWLEDGED);
  v1::Regression updated;
  grpc::Status s =
      Results()->UpdateRegression(Context(kOtherSubmitterToken).get(), request, &updated);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(updated.state(), v1::REGRESSION_STATE_ACKNOWLEDGED);
}

}  // namespace
}  // namespace warpwatch::testing
