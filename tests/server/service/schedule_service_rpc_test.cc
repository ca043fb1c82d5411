// File: tests/server/service/schedule_service_rpc_test.cc
// ScheduleService over real gRPC channels to an in-process server on a real PostgreSQL, with a
// reader ("dash"), a submitter ("ci") and a worker ("node1") token.
#include <google/protobuf/util/time_util.h>

#include "tests/server/service/result_rpc_test_util.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::testing {
namespace {

// Fires by cron only on February 29 (2028 next): the server's own scheduler stays out of the way.
constexpr const char* kRareCron = "0 2 29 2 *";

class ScheduleRpcTest : public ResultRpcTest {
 protected:
  std::unique_ptr<v1::ScheduleService::Stub> Schedules() const {
    return v1::ScheduleService::NewStub(Channel());
  }

  static v1::Schedule Nightly(const std::string& name) {
    v1::Schedule s;
    s.set_name(name);
    s.set_cron(kRareCron);
    s.set_time_zone("Europe/Berlin");
    *s.mutable_job_template() = ValidSpec();
    return s;
  }

  grpc::Status Create(const v1::Schedule& schedule, const std::string& token,
                      v1::Schedule* out = nullptr) {
    v1::CreateScheduleRequest request;
    *request.mutable_schedule() = schedule;
    v1::Schedule ignored;
    return Schedules()->CreateSchedule(Context(token).get(), request, out ? out : &ignored);
  }

  grpc::Status Trigger(const std::string& name, v1::ScheduleRun* run) {
    v1::TriggerScheduleRequest request;
    request.set_name(name);
    return Schedules()->TriggerSchedule(Context(kSubmitterToken).get(), request, run);
  }

  v1::ListScheduleRunsResponse Runs(const std::string& name, const std::string& due_date = "") {
    v1::ListScheduleRunsRequest request;
    request.set_name(name);
    request.set_due_date(due_date);
    v1::ListScheduleRunsResponse response;
    grpc::Status status =
        Schedules()->ListScheduleRuns(Context(kReaderToken).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }
};

TEST_F(ScheduleRpcTest, AReaderIsRefusedCreateAndASubmitterIsNot) {
  EXPECT_EQ(Create(Nightly("nightly"), kReaderToken).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(Create(Nightly("nightly"), kSubmitterToken).ok());
}

TEST_F(ScheduleRpcTest, CreatedByIsTheCallersTokenNameWhateverTheRequestSays) {
  v1::Schedule s = Nightly("nightly");
  s.set_created_by("mallory");
  s.set_updated_by("mallory");
  v1::Schedule created;
  ASSERT_TRUE(Create(s, kSubmitterToken, &created).ok());
  EXPECT_EQ(created.created_by(), "ci");
  EXPECT_EQ(created.updated_by(), "ci");
  EXPECT_TRUE(created.enabled()) << "enabled defaults to true";
  EXPECT_EQ(created.missed_fire_policy(), v1::MISSED_FIRE_POLICY_SKIP);
  // 2028-02-29 02:00 in Berlin (CET) = 01:00 UTC.
  EXPECT_EQ(google::protobuf::util::TimeUtil::ToString(created.next_fire_at()),
            "2028-02-29T01:00:00Z");
}

TEST_F(ScheduleRpcTest, AReaderMayGetAndListSchedules) {
  ASSERT_TRUE(Create(Nightly("b-nightly"), kSubmitterToken).ok());
  ASSERT_TRUE(Create(Nightly("a-nightly"), kSubmitterToken).ok());
  v1::GetScheduleRequest get;
  get.set_name("a-nightly");
  v1::Schedule s;
  ASSERT_TRUE(Schedules()->GetSchedule(Context(kReaderToken).get(), get, &s).ok());
  EXPECT_EQ(s.time_zone(), "Europe/Berlin");
  v1::ListSchedulesRequest list;
  list.set_page_size(1);
  v1::ListSchedulesResponse page;
  ASSERT_TRUE(Schedules()->ListSchedules(Context(kReaderToken).get(), list, &page).ok());
  ASSERT_EQ(page.schedules_size(), 1);
  EXPECT_EQ(page.schedules(0).name(), "a-nightly");
  list.set_page_token(page.next_page_token());
  ASSERT_TRUE(Schedules()->ListSchedules(Context(kReaderToken).get(), list, &page).ok());
  ASSERT_EQ(page.schedules_size(), 1);
  EXPECT_EQ(page.schedules(0).name(), "b-nightly");
}

TEST_F(ScheduleRpcTest, BadFieldsAreInvalidArgumentNamingTheField) {
  struct Case {
    std::function<void(v1::Schedule&)> edit;
    std::string field;
  };
  const std::vector<Case> cases = {
      {[](v1::Schedule& s) { s.set_cron("0 25 * * *"); }, "schedule.cron"},
      {[](v1::Schedule& s) { s.set_cron(""); }, "schedule.cron"},
      {[](v1::Schedule& s) { s.set_time_zone("Mars/Olympus"); }, "schedule.time_zone"},
      {[](v1::Schedule& s) { s.set_name("Bad Name"); }, "schedule.name"},
      {[](v1::Schedule& s) { s.set_name(""); }, "schedule.name"},
      {[](v1::Schedule& s) { s.mutable_job_template()->clear_families(); },
       "schedule.job_template.families"},
      {[](v1::Schedule& s) { s.mutable_job_template()->mutable_selector()->set_gpu_uuid("G"); },
       "schedule.job_template.selector"},
  };
  for (const Case& c : cases) {
    v1::Schedule s = Nightly("nightly");
    c.edit(s);
    grpc::Status status = Create(s, kSubmitterToken);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.field;
    EXPECT_EQ(status.error_message().rfind(c.field, 0), 0u)
        << c.field << " / " << status.error_message();
  }
}

TEST_F(ScheduleRpcTest, ADuplicateNameIsAlreadyExistsAndAnUnknownOneNotFound) {
  ASSERT_TRUE(Create(Nightly("nightly"), kSubmitterToken).ok());
  EXPECT_EQ(Create(Nightly("nightly"), kSubmitterToken).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  v1::GetScheduleRequest get;
  get.set_name("other");
  v1::Schedule s;
  EXPECT_EQ(Schedules()->GetSchedule(Context(kReaderToken).get(), get, &s).error_code(),
            grpc::StatusCode::NOT_FOUND);
  v1::ScheduleRun run;
  EXPECT_EQ(Trigger("other", &run).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::DeleteScheduleRequest del;
  del.set_name("other");
  v1::DeleteScheduleResponse deleted;
  EXPECT_EQ(Schedules()->DeleteSchedule(Context(kSubmitterToken).get(), del, &deleted).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(ScheduleRpcTest, AnUpdateWithAMaskChangesOnlyItsPathsAndRecordsTheUpdater) {
  ASSERT_TRUE(Create(Nightly("nightly"), kSubmitterToken).ok());
  v1::UpdateScheduleRequest request;
  request.mutable_schedule()->set_name("nightly");
  request.mutable_schedule()->set_allow_overlap(true);
  request.mutable_schedule()->set_cron("not even cron");  // not in the mask: ignored
  request.mutable_update_mask()->add_paths("allow_overlap");
  v1::Schedule updated;
  grpc::Status status =
      Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), request, &updated);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(updated.allow_overlap());
  EXPECT_EQ(updated.cron(), kRareCron);
  EXPECT_EQ(updated.time_zone(), "Europe/Berlin");
  EXPECT_EQ(updated.updated_by(), "ci");

  request.mutable_update_mask()->add_paths("name");
  EXPECT_EQ(Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), request, &updated)
                .error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Schedules()->UpdateSchedule(Context(kReaderToken).get(), request, &updated)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(ScheduleRpcTest, AnUpdateWithoutAMaskReplacesTheScheduleAndMovesItsNextFire) {
  ASSERT_TRUE(Create(Nightly("nightly"), kSubmitterToken).ok());
  v1::UpdateScheduleRequest request;
  *request.mutable_schedule() = Nightly("nightly");
  request.mutable_schedule()->set_cron("30 3 * * *");
  request.mutable_schedule()->clear_time_zone();
  v1::Schedule updated;
  ASSERT_TRUE(
      Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), request, &updated).ok());
  EXPECT_EQ(updated.time_zone(), "UTC");
  EXPECT_EQ(updated.next_fire_at().seconds() % 86400, 3 * 3600 + 1800);
}

// A row this server cannot decode (written by a newer version, or edited by hand) is shown with
// its error instead of failing Get and List as a whole, cannot be triggered, and is repaired only
// by an update that replaces both of its jsonb fields.
TEST_F(ScheduleRpcTest, AnUndecodableScheduleIsListedWithItsErrorAndRepairedByAFullReplace) {
  ASSERT_TRUE(Create(Nightly("a-good"), kSubmitterToken).ok());
  v1::Schedule model_only = Nightly("b-broken");
  model_only.mutable_selector()->set_gpu_model("*H100*");
  ASSERT_TRUE(Create(model_only, kSubmitterToken).ok());
  ASSERT_TRUE(Create(Nightly("c-good"), kSubmitterToken).ok());
  {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec(
        "UPDATE schedule SET job_template = '{\"maxAttempts\": \"many\"}'::jsonb"
        " WHERE name = 'b-broken'");
    tx.commit();
  }

  v1::ListSchedulesRequest list;
  v1::ListSchedulesResponse page;
  grpc::Status status = Schedules()->ListSchedules(Context(kReaderToken).get(), list, &page);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(page.schedules_size(), 3);
  EXPECT_EQ(page.schedules(0).stored_error(), "");
  EXPECT_EQ(page.schedules(1).name(), "b-broken");
  EXPECT_NE(page.schedules(1).stored_error().find("JobSpec"), std::string::npos)
      << page.schedules(1).stored_error();
  EXPECT_FALSE(page.schedules(1).has_job_template());
  EXPECT_FALSE(page.schedules(1).has_selector()) << "not shown as 'every GPU'";
  EXPECT_EQ(page.schedules(1).cron(), kRareCron);
  EXPECT_EQ(page.schedules(2).name(), "c-good");

  v1::GetScheduleRequest get;
  get.set_name("b-broken");
  v1::Schedule got;
  ASSERT_TRUE(Schedules()->GetSchedule(Context(kReaderToken).get(), get, &got).ok());
  EXPECT_EQ(got.stored_error(), page.schedules(1).stored_error());

  v1::ScheduleRun run;
  status = Trigger("b-broken", &run);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("cannot be read"), std::string::npos)
      << status.error_message();

  // A masked update that would keep the unreadable fields (as empty) is refused.
  v1::UpdateScheduleRequest update;
  update.mutable_schedule()->set_name("b-broken");
  update.mutable_schedule()->set_allow_overlap(true);
  update.mutable_update_mask()->add_paths("allow_overlap");
  v1::Schedule updated;
  status = Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), update, &updated);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("job_template and selector"), std::string::npos)
      << status.error_message();
  update.mutable_update_mask()->add_paths("job_template");
  EXPECT_EQ(
      Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), update, &updated).error_code(),
      grpc::StatusCode::FAILED_PRECONDITION);

  // Naming both repairs it.
  *update.mutable_schedule() = model_only;
  update.mutable_update_mask()->add_paths("selector");
  status = Schedules()->UpdateSchedule(Context(kSubmitterToken).get(), update, &updated);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(updated.stored_error(), "");
  EXPECT_EQ(updated.selector().gpu_model(), "*H100*");
  EXPECT_EQ(updated.job_template().families_size(), ValidSpec().families_size());
  ASSERT_TRUE(Schedules()->GetSchedule(Context(kReaderToken).get(), get, &got).ok());
  EXPECT_EQ(got.stored_error(), "");
}

TEST_F(ScheduleRpcTest, ATriggerFansOutToMatchingGpusAndTheNightShowsEachGpusOutcome) {
  worker_ = Register("node-1", {MakeGpu("GPU-1", kModel, 0),
                                MakeGpu("GPU-2", "NVIDIA A100-SXM4-40GB", 1)})
                .worker_id();
  v1::Schedule s = Nightly("h100");
  s.mutable_selector()->set_gpu_model("*H100*");
  ASSERT_TRUE(Create(s, kSubmitterToken).ok());
  v1::ScheduleRun run;
  grpc::Status status = Trigger("h100", &run);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(run.created_by(), "ci");
  ASSERT_EQ(run.jobs_size(), 1);
  EXPECT_EQ(run.jobs(0).device_uuid(), "GPU-1");

  v1::AcquireJobResponse lease = Acquire(worker_, "GPU-1", 5);
  ASSERT_TRUE(lease.has_job());
  EXPECT_EQ(lease.job().id(), run.jobs(0).job_id());
  v1::UploadMeasurementsResponse uploaded;
  ASSERT_TRUE(Upload(worker_, lease.run_id(), {ResultPoint("tree", 1e-3), ResultPoint("warp", 2e-3)},
                     &uploaded)
                  .ok());
  v1::Job finished;
  ASSERT_TRUE(
      Finish(worker_, lease.job().id(), lease.run_id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  InsertRegression(lease.run_id(), "OPEN", "tree");
  const int64_t outlier = InsertRegression(lease.run_id(), "OPEN", "warp");
  {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec_params("UPDATE regression SET kind = 'OUTLIER' WHERE id = $1", outlier);
    tx.commit();
  }

  v1::ListScheduleRunsResponse runs = Runs("h100");
  ASSERT_EQ(runs.runs_size(), 1);
  const v1::ScheduleRunJob& gpu = runs.runs(0).jobs(0);
  EXPECT_EQ(gpu.job_state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(gpu.hostname(), "node-1");
  EXPECT_EQ(gpu.gpu_model(), kModel);
  EXPECT_EQ(gpu.run_id(), lease.run_id());
  EXPECT_EQ(gpu.points_done(), 2);
  EXPECT_EQ(gpu.regressions(), 1);
  EXPECT_EQ(gpu.outliers(), 1);
  EXPECT_TRUE(gpu.fleet_outlier());
}

TEST_F(ScheduleRpcTest, RunsOfADayAreThoseDueOnItInTheSchedulesTimeZone) {
  Register("node-1", {MakeGpu("GPU-1", kModel)});
  ASSERT_TRUE(Create(Nightly("nightly"), kSubmitterToken).ok());
  // Two cron runs: 2026-03-01 23:30 UTC is already March 2nd in Berlin.
  for (const char* due : {"2026-03-01 12:00Z", "2026-03-01 23:30Z"}) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec_params("INSERT INTO schedule_run (schedule_id, due_at, trigger, state)"
                   " SELECT id, $1::timestamptz, 'CRON', 'FIRED' FROM schedule",
                   std::string(due));
    tx.commit();
  }
  EXPECT_EQ(Runs("nightly").runs_size(), 2);
  v1::ListScheduleRunsResponse march2 = Runs("nightly", "2026-03-02");
  ASSERT_EQ(march2.runs_size(), 1);
  EXPECT_EQ(google::protobuf::util::TimeUtil::ToString(march2.runs(0).due_at()),
            "2026-03-01T23:30:00Z");
  v1::ListScheduleRunsRequest bad;
  bad.set_name("nightly");
  bad.set_due_date("yesterday");
  v1::ListScheduleRunsResponse none;
  EXPECT_EQ(Schedules()->ListScheduleRuns(Context(kReaderToken).get(), bad, &none).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ScheduleRpcTest, ATriggerWhileThePreviousFireRunsIsFailedPreconditionWithoutOverlap) {
  Register("node-1", {MakeGpu("GPU-1", kModel)});
  ASSERT_TRUE(Create(Nightly("nightly"), kSubmitterToken).ok());
  v1::ScheduleRun run;
  ASSERT_TRUE(Trigger("nightly", &run).ok());
  EXPECT_EQ(Trigger("nightly", &run).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

}  // namespace
}  // namespace warpwatch::testing
