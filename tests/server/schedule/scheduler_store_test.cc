// File: tests/server/schedule/scheduler_store_test.cc
// The Scheduler over the PostgreSQL ScheduleStore: one fire per due time under racing replicas,
// missed-fire policies after downtime, overlap, and fan-out to the matching GPUs.
#include <thread>

#include "server/schedule/scheduler.h"
#include "tests/server/schedule/schedule_store_test_util.h"

namespace warpwatch::server::testing {
namespace {

// Store tests act as an admin would: every schedule may be changed.
const schedule::ScheduleStore::Guard kAnyCaller = [](const v1::Schedule&) { return OkStatus(); };

using schedule::Scheduler;
using schedule::SchedulerOptions;

schedule::Clock FixedClock(absl::Time now) {
  return [now] { return now; };
}

SchedulerOptions Options(absl::Duration grace = absl::Minutes(5)) {
  SchedulerOptions options;
  options.missed_grace = grace;
  return options;
}

class SchedulerStoreTest : public ScheduleStoreTest {};

TEST_F(SchedulerStoreTest, TwoSchedulersRacingOverManyDueTimesFireEachDueTimeExactlyOnce) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  constexpr int kSchedules = 4;
  constexpr int kDueTimes = 60;  // every minute for an hour, all within the grace period
  for (int i = 0; i < kSchedules; ++i) {
    Create(Write("race-" + std::to_string(i), "* * * * *", T0(), v1::MISSED_FIRE_POLICY_SKIP,
                 /*allow_overlap=*/true));
  }
  const absl::Time now = T0() + absl::Minutes(kDueTimes - 1);
  std::unique_ptr<schedule::ScheduleStore> other = OpenSchedules();
  Scheduler a(schedules_.get(), FixedClock(now), Options(absl::Hours(2)));
  Scheduler b(other.get(), FixedClock(now), Options(absl::Hours(2)));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (Scheduler* s : {&a, &b, &a, &b}) {
    threads.emplace_back([s, &failures] {
      for (int pass = 0; pass < 3; ++pass) {
        if (!s->RunOnce().ok()) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(a.fires() + b.fires(), kSchedules * kDueTimes);
  EXPECT_GT(a.fires(), 0);
  EXPECT_GT(b.fires(), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM schedule_run"), kSchedules * kDueTimes);
  EXPECT_EQ(Count("SELECT count(DISTINCT (schedule_id, due_at)) FROM schedule_run"),
            kSchedules * kDueTimes);
  EXPECT_EQ(Count("SELECT count(*) FROM job WHERE schedule_run_id IS NOT NULL"),
            kSchedules * kDueTimes);
  // Every minute of the hour, for every schedule.
  EXPECT_EQ(Count("SELECT count(*) FROM schedule_run WHERE extract(second FROM due_at) = 0"
                  " AND due_at BETWEEN '2026-03-01 00:00Z' AND '2026-03-01 00:59Z'"),
            kSchedules * kDueTimes);
}

TEST_F(SchedulerStoreTest, SkipPolicyAfterDowntimeRecordsOneMissedRunAndJumpsToTheNextDueTime) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("nightly", "0 2 * * *", T0() + absl::Hours(2)));
  // Down for three nights: now is day 3, 12:00.
  const absl::Time now = T0() + absl::Hours(24 * 3 + 12);
  Scheduler scheduler(schedules_.get(), FixedClock(now), Options());
  ASSERT_OK_AND_ASSIGN(int fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 1);
  EXPECT_EQ(Query("SELECT state || ' ' || skipped_reason || ' ' || to_char(due_at AT TIME ZONE "
                  "'UTC', 'DD HH24:MI') FROM schedule_run"),
            std::vector<std::string>{"SKIPPED missed 04 02:00"});
  EXPECT_EQ(Count("SELECT count(*) FROM job"), 0);
  ASSERT_OK_AND_ASSIGN(v1::Schedule s, schedules_->GetSchedule("nightly"));
  EXPECT_EQ(s.next_fire_at().seconds(), absl::ToUnixSeconds(T0() + absl::Hours(24 * 4 + 2)));
}

TEST_F(SchedulerStoreTest, RunOncePolicyAfterDowntimeFiresOnceForTheLatestMissedDueTime) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("nightly", "0 2 * * *", T0() + absl::Hours(2), v1::MISSED_FIRE_POLICY_RUN_ONCE));
  const absl::Time now = T0() + absl::Hours(24 * 3 + 12);
  Scheduler scheduler(schedules_.get(), FixedClock(now), Options());
  ASSERT_OK_AND_ASSIGN(int fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 1);
  EXPECT_EQ(Query("SELECT state || ' ' || to_char(due_at AT TIME ZONE 'UTC', 'DD HH24:MI')"
                  " FROM schedule_run"),
            std::vector<std::string>{"FIRED 04 02:00"});
  EXPECT_EQ(Count("SELECT count(*) FROM job"), 1);
  ASSERT_OK_AND_ASSIGN(fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 0) << "nothing more is due before day 5";
}

TEST_F(SchedulerStoreTest, ADueTimeWithinTheGraceFiresAlthoughTheSchedulerIsLate) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("nightly", "0 2 * * *", T0() + absl::Hours(2)));
  Scheduler scheduler(schedules_.get(), FixedClock(T0() + absl::Hours(2) + absl::Minutes(4)),
                      Options(absl::Minutes(5)));
  ASSERT_OK_AND_ASSIGN(int fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 1);
  EXPECT_EQ(Query("SELECT state FROM schedule_run"), std::vector<std::string>{"FIRED"});
}

TEST_F(SchedulerStoreTest, AnUndecodableScheduleIsSkippedWithItsErrorAndTheOthersStillFire) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("broken", "0 1 * * *", T0() + absl::Hours(1)));
  Create(Write("nightly", "0 2 * * *", T0() + absl::Hours(2)));
  // A job template this server cannot read (a word where the proto has an integer).
  Query("UPDATE schedule SET job_template = '{\"maxAttempts\": \"many\"}'::jsonb"
        " WHERE name = 'broken' RETURNING name");
  const absl::Time now = T0() + absl::Hours(2) + absl::Minutes(1);
  Scheduler scheduler(schedules_.get(), FixedClock(now), Options(absl::Hours(2)));
  ASSERT_OK_AND_ASSIGN(int fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 2);
  const std::vector<std::string> runs =
      Query("SELECT s.name || ' ' || r.state || ' ' || left(r.skipped_reason, 21)"
            " FROM schedule_run r JOIN schedule s ON s.id = r.schedule_id ORDER BY s.name");
  EXPECT_EQ(runs, (std::vector<std::string>{"broken SKIPPED undecodable schedule:",
                                            "nightly FIRED "}));
  EXPECT_EQ(Count("SELECT count(*) FROM job"), 1);
  // Retried an hour later, not claimed again in the same pass.
  EXPECT_EQ(Count("SELECT extract(epoch FROM next_fire_at)::bigint FROM schedule"
                  " WHERE name = 'broken'"),
            absl::ToUnixSeconds(now + absl::Hours(1)));
  ASSERT_OK_AND_ASSIGN(fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 0);
}

// A server stopping with a backlog of due schedules (a pass may fire up to 1000) exits at once:
// no claim starts after Stop(); the next replica or start fires them.
TEST_F(SchedulerStoreTest, NoFireIsClaimedAfterStop) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("first", "0 2 * * *", T0() + absl::Hours(2)));
  Create(Write("second", "0 2 * * *", T0() + absl::Hours(2)));
  const absl::Time now = T0() + absl::Hours(2) + absl::Minutes(1);
  Scheduler stopped(schedules_.get(), FixedClock(now), Options());
  stopped.Stop();
  ASSERT_OK_AND_ASSIGN(int fires, stopped.RunOnce());
  EXPECT_EQ(fires, 0);
  EXPECT_EQ(Count("SELECT count(*) FROM schedule_run"), 0);
  Scheduler running(schedules_.get(), FixedClock(now), Options());
  ASSERT_OK_AND_ASSIGN(fires, running.RunOnce());
  EXPECT_EQ(fires, 2);
}

TEST_F(SchedulerStoreTest, AFireWhilePreviousJobsRunIsSkippedAsOverlap) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("hourly", "0 * * * *", T0()));
  Scheduler first(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(first.RunOnce().status());
  Scheduler second(schedules_.get(), FixedClock(T0() + absl::Hours(1)), Options());
  ASSERT_OK(second.RunOnce().status());
  EXPECT_EQ(Query("SELECT state || '/' || skipped_reason FROM schedule_run ORDER BY id"),
            (std::vector<std::string>{"FIRED/", "SKIPPED/overlap"}));
  EXPECT_EQ(Count("SELECT count(*) FROM job"), 1);
}

TEST_F(SchedulerStoreTest, AFireAfterThePreviousJobsFinishedIsNotAnOverlap) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("hourly", "0 * * * *", T0()));
  Scheduler first(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(first.RunOnce().status());
  Query("UPDATE job SET state = 'CANCELLED', finished_at = now() RETURNING id");
  Scheduler second(schedules_.get(), FixedClock(T0() + absl::Hours(1)), Options());
  ASSERT_OK(second.RunOnce().status());
  EXPECT_EQ(Query("SELECT state FROM schedule_run ORDER BY id"),
            (std::vector<std::string>{"FIRED", "FIRED"}));
  EXPECT_EQ(Count("SELECT count(*) FROM job"), 2);
}

// One node that died after a fire kept its pinned job QUEUED for ever, and every later fire was
// SKIPPED as an overlap: the fleet's nightly suite stopped for one dead node. The next fire
// supersedes the jobs still queued for offline GPUs; an online GPU's job still overlaps.
TEST_F(SchedulerStoreTest, AFireSupersedesThePreviousFiresJobsQueuedForOfflineGpus) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  const std::string dead = RegisterOn("node-2", {MakeDevice("GPU-B", "NVIDIA H100 80GB HBM3")});
  Create(Write("hourly", "0 * * * *", T0()));
  Scheduler first(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(first.RunOnce().status());
  ASSERT_EQ(Count("SELECT count(*) FROM job WHERE state = 'QUEUED'"), 2);
  Query("UPDATE job SET state = 'SUCCEEDED', finished_at = now()"
        " WHERE selector_gpu_uuid = 'GPU-A' RETURNING id");
  Query("UPDATE worker SET last_seen = now() - interval '1 hour' WHERE id = '" + dead +
        "' RETURNING id");

  Scheduler second(schedules_.get(), FixedClock(T0() + absl::Hours(1)), Options());
  ASSERT_OK(second.RunOnce().status());
  EXPECT_EQ(Query("SELECT state FROM schedule_run ORDER BY id"),
            (std::vector<std::string>{"FIRED", "FIRED"}));
  EXPECT_EQ(Query("SELECT state || '/' || error FROM job WHERE selector_gpu_uuid = 'GPU-B'"),
            (std::vector<std::string>{"CANCELLED/superseded by the schedule's next fire: its "
                                      "GPU's worker was offline"}));
  // The new fire fans out to the online GPU only.
  EXPECT_EQ(Query("SELECT selector_gpu_uuid FROM job WHERE state = 'QUEUED'"),
            (std::vector<std::string>{"GPU-A"}));

  // GPU-A's new job is still queued and its worker online: the fire after overlaps, as before.
  Scheduler third(schedules_.get(), FixedClock(T0() + absl::Hours(2)), Options());
  ASSERT_OK(third.RunOnce().status());
  EXPECT_EQ(Query("SELECT state || '/' || skipped_reason FROM schedule_run ORDER BY id DESC LIMIT 1"),
            (std::vector<std::string>{"SKIPPED/overlap"}));
  EXPECT_EQ(Count("SELECT count(*) FROM job WHERE state = 'QUEUED'"), 1);
}

TEST_F(SchedulerStoreTest, AllowOverlapFiresWhilePreviousJobsStillRun) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("hourly", "0 * * * *", T0(), v1::MISSED_FIRE_POLICY_SKIP, /*allow_overlap=*/true));
  Scheduler first(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(first.RunOnce().status());
  Scheduler second(schedules_.get(), FixedClock(T0() + absl::Hours(1)), Options());
  ASSERT_OK(second.RunOnce().status());
  EXPECT_EQ(Query("SELECT state FROM schedule_run ORDER BY id"),
            (std::vector<std::string>{"FIRED", "FIRED"}));
  EXPECT_EQ(Count("SELECT count(*) FROM job WHERE state = 'QUEUED'"), 2);
}

TEST_F(SchedulerStoreTest, FanOutByModelCreatesOneJobPinnedToEachMatchingGpu) {
  RegisterOn("node-1", {MakeDevice("GPU-H1", "NVIDIA H100 80GB HBM3"),
                        MakeDevice("GPU-A1", "NVIDIA A100-SXM4-40GB")});
  RegisterOn("node-2", {MakeDevice("GPU-H2", "NVIDIA H100 80GB HBM3")});
  schedule::ScheduleWrite w = Write("h100", "0 2 * * *", T0());
  w.schedule.mutable_selector()->set_gpu_model("*H100*");
  Create(w);
  Scheduler scheduler(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(scheduler.RunOnce().status());
  EXPECT_EQ(Query("SELECT selector_gpu_uuid || ' ' || (spec->'selector'->>'gpu_uuid')"
                  " FROM job ORDER BY selector_gpu_uuid"),
            (std::vector<std::string>{"GPU-H1 GPU-H1", "GPU-H2 GPU-H2"}));
  // Each job is claimable by its own GPU only.
  const std::vector<std::string> ids = Query("SELECT id FROM worker ORDER BY hostname");
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> none,
                       store_->ClaimJob(ids[0], "GPU-A1", std::chrono::seconds(30)));
  EXPECT_FALSE(none.has_value());
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> h2,
                       store_->ClaimJob(ids[1], "GPU-H2", std::chrono::seconds(30)));
  ASSERT_TRUE(h2.has_value());
  EXPECT_EQ(h2->job.spec().selector().gpu_uuid(), "GPU-H2");
}

// A node job template (issue 29) fans out to one job per worker, pinned to its first GPU: the
// node job leases the whole worker from there (ClaimJob), so a job per GPU would run it n times.
TEST_F(SchedulerStoreTest, FanOutOfANodeJobCreatesOneJobPerWorkerOnItsFirstGpu) {
  RegisterOn("node-1", {MakeDevice("GPU-N1-2", "NVIDIA H100 80GB HBM3"),
                        MakeDevice("GPU-N1-0", "NVIDIA H100 80GB HBM3"),
                        MakeDevice("GPU-N1-1", "NVIDIA H100 80GB HBM3")});
  RegisterOn("node-2", {MakeDevice("GPU-N2-1", "NVIDIA H100 80GB HBM3"),
                        MakeDevice("GPU-N2-0", "NVIDIA H100 80GB HBM3")});
  schedule::ScheduleWrite w = Write("links", "0 2 * * *", T0());
  w.schedule.mutable_job_template()->set_node_scoped(true);
  Create(w);
  Scheduler scheduler(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(scheduler.RunOnce().status());
  EXPECT_EQ(Query("SELECT selector_gpu_uuid || ' ' || (spec->>'node_scoped')"
                  " FROM job ORDER BY selector_gpu_uuid"),
            (std::vector<std::string>{"GPU-N1-0 true", "GPU-N2-0 true"}));
}

TEST_F(SchedulerStoreTest, FanOutByWorkerLabelsSkipsWorkersWithoutThem) {
  RegisterOn("rack-a", {MakeDevice("GPU-1", "NVIDIA H100 80GB HBM3"),
                        MakeDevice("GPU-2", "NVIDIA H100 80GB HBM3")},
             {{"pool", "nightly"}});
  RegisterOn("rack-b", {MakeDevice("GPU-3", "NVIDIA H100 80GB HBM3")}, {{"pool", "dev"}});
  schedule::ScheduleWrite w = Write("pool", "0 2 * * *", T0());
  (*w.schedule.mutable_selector()->mutable_worker_labels())["pool"] = "nightly";
  Create(w);
  Scheduler scheduler(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(scheduler.RunOnce().status());
  EXPECT_EQ(Query("SELECT selector_gpu_uuid FROM job ORDER BY 1"),
            (std::vector<std::string>{"GPU-1", "GPU-2"}));
}

TEST_F(SchedulerStoreTest, OfflineWorkersGetNoJobAndAFireWithoutGpusIsSkipped) {
  RegisterOn("gone", {MakeDevice("GPU-9", "NVIDIA H100 80GB HBM3")});
  Query("UPDATE worker SET last_seen = now() - interval '1 hour' RETURNING id");
  Create(Write("nightly", "0 2 * * *", T0()));
  Scheduler scheduler(schedules_.get(), FixedClock(T0()), Options());
  ASSERT_OK(scheduler.RunOnce().status());
  EXPECT_EQ(Count("SELECT count(*) FROM job"), 0);
  EXPECT_EQ(Query("SELECT state || '/' || skipped_reason FROM schedule_run"),
            std::vector<std::string>{"SKIPPED/no matching GPU"});
}

TEST_F(SchedulerStoreTest, ADisabledScheduleNeverFiresByCron) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  schedule::ScheduleWrite w = Write("off", "* * * * *", T0());
  w.schedule.set_enabled(false);
  Create(w);
  Scheduler scheduler(schedules_.get(), FixedClock(T0() + absl::Minutes(3)), Options());
  ASSERT_OK_AND_ASSIGN(int fires, scheduler.RunOnce());
  EXPECT_EQ(fires, 0);
  EXPECT_EQ(Count("SELECT count(*) FROM schedule_run"), 0);
}

TEST_F(SchedulerStoreTest, ATriggerFiresNowAndListsItsJobsPerGpu) {
  const std::string worker = RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("nightly", "0 2 * * *", T0()));
  ASSERT_OK_AND_ASSIGN(v1::ScheduleRun run, schedules_->TriggerSchedule("nightly", "bob", kAnyCaller));
  EXPECT_EQ(run.trigger(), v1::SCHEDULE_TRIGGER_MANUAL);
  EXPECT_EQ(run.created_by(), "bob");
  ASSERT_EQ(run.jobs_size(), 1);
  EXPECT_EQ(run.jobs(0).device_uuid(), "GPU-A");
  EXPECT_EQ(run.jobs(0).hostname(), "node-1");
  EXPECT_EQ(run.jobs(0).worker_id(), worker);
  EXPECT_EQ(run.jobs(0).job_state(), v1::JOB_STATE_QUEUED);
  // Overlap is off and the job is still queued.
  EXPECT_EQ(schedules_->TriggerSchedule("nightly", "bob", kAnyCaller).status().code(),
            StatusCode::kFailedPrecondition);
  ASSERT_OK_AND_ASSIGN(v1::Schedule s, schedules_->GetSchedule("nightly"));
  EXPECT_EQ(s.next_fire_at().seconds(), absl::ToUnixSeconds(T0())) << "cron times unchanged";
}

}  // namespace
}  // namespace warpwatch::server::testing
