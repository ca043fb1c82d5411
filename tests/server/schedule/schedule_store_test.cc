// File: tests/server/schedule/schedule_store_test.cc
// The PostgreSQL ScheduleStore's schedule rows and run listing (the scheduler is tested in
// scheduler_store_test.cc).
#include "tests/server/schedule/schedule_store_test_util.h"

namespace warpwatch::server::testing {
namespace {

// Store tests act as an admin would: every schedule may be changed.
const schedule::ScheduleStore::Guard kScheduleStoreAnyCaller = [](const v1::Schedule&) {
  return OkStatus();
};

class ScheduleRowsTest : public ScheduleStoreTest {};

TEST_F(ScheduleRowsTest, ACreatedScheduleReadsBackWithItsCreator) {
  schedule::ScheduleWrite w = Write("nightly", "0 2 * * *", T0());
  w.schedule.mutable_selector()->set_gpu_model("*H100*");
  Create(w);
  ASSERT_OK_AND_ASSIGN(v1::Schedule s, schedules_->GetSchedule("nightly"));
  EXPECT_EQ(s.cron(), "0 2 * * *");
  EXPECT_EQ(s.selector().gpu_model(), "*H100*");
  EXPECT_EQ(s.job_template().families(0), "memory.copy");
  EXPECT_EQ(s.created_by(), "alice");
  EXPECT_EQ(s.updated_by(), "alice");
  EXPECT_TRUE(s.enabled());
  EXPECT_EQ(s.next_fire_at().seconds(), absl::ToUnixSeconds(T0()));
  EXPECT_FALSE(s.has_last_fire_at());
}

TEST_F(ScheduleRowsTest, ASecondScheduleOfTheSameNameIsAlreadyExists) {
  Create(Write("nightly", "0 2 * * *", T0()));
  EXPECT_EQ(schedules_->CreateSchedule(Write("nightly", "0 3 * * *", T0()), "bob", 1000).status().code(),
            StatusCode::kAlreadyExists);
}

TEST_F(ScheduleRowsTest, ACreatorPastItsLimitIsRefusedAndOthersAreNot) {
  ASSERT_OK(schedules_->CreateSchedule(Write("a1", "0 2 * * *", T0()), "bob", 2).status());
  ASSERT_OK(schedules_->CreateSchedule(Write("a2", "0 2 * * *", T0()), "bob", 2).status());
  StatusOr<v1::Schedule> third = schedules_->CreateSchedule(Write("a3", "0 2 * * *", T0()), "bob", 2);
  EXPECT_EQ(third.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(third.status().message().find("limit per principal is 2"), std::string::npos)
      << third.status().message();
  EXPECT_EQ(schedules_->GetSchedule("a3").status().code(), StatusCode::kNotFound);
  ASSERT_OK(schedules_->CreateSchedule(Write("a3", "0 2 * * *", T0()), "carol", 2).status());
}

TEST_F(ScheduleRowsTest, UnknownNamesAreNotFound) {
  EXPECT_EQ(schedules_->GetSchedule("nope").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(schedules_->DeleteSchedule("nope", kScheduleStoreAnyCaller).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(schedules_->TriggerSchedule("nope", "bob", kScheduleStoreAnyCaller).status().code(),
            StatusCode::kNotFound);
  schedule::ScheduleRunQuery q;
  q.name = "nope";
  EXPECT_EQ(schedules_->ListScheduleRuns(q).status().code(), StatusCode::kNotFound);
}

TEST_F(ScheduleRowsTest, ListingPagesThroughEveryScheduleByName) {
  for (const char* name : {"c", "a.b", "b-1", "a_c", "d"}) Create(Write(name, "0 2 * * *", T0()));
  std::vector<std::string> names;
  std::string token;
  do {
    ASSERT_OK_AND_ASSIGN(schedule::SchedulePage page, schedules_->ListSchedules(2, token));
    EXPECT_LE(page.schedules.size(), 2u);
    for (const v1::Schedule& s : page.schedules) names.push_back(s.name());
    token = page.next_page_token;
  } while (!token.empty());
  EXPECT_EQ(names, (std::vector<std::string>{"a.b", "a_c", "b-1", "c", "d"}));
}

TEST_F(ScheduleRowsTest, AnUpdateStoresTheEditAndItsAuthor) {
  Create(Write("nightly", "0 2 * * *", T0()));
  ASSERT_OK_AND_ASSIGN(
      v1::Schedule s,
      schedules_->UpdateSchedule(
          "nightly",
          [](const v1::Schedule& current) -> StatusOr<schedule::ScheduleWrite> {
            schedule::ScheduleWrite w;
            w.schedule = current;
            w.schedule.set_cron("0 3 * * *");
            w.schedule.set_allow_overlap(true);
            w.points_total = 5;
            w.next_fire_at = T0() + absl::Hours(3);
            return w;
          },
          "bob"));
  EXPECT_EQ(s.cron(), "0 3 * * *");
  EXPECT_TRUE(s.allow_overlap());
  EXPECT_EQ(s.created_by(), "alice");
  EXPECT_EQ(s.updated_by(), "bob");
  EXPECT_EQ(s.next_fire_at().seconds(), absl::ToUnixSeconds(T0() + absl::Hours(3)));
}

TEST_F(ScheduleRowsTest, AnEditErrorChangesNothing) {
  Create(Write("nightly", "0 2 * * *", T0()));
  Status s = schedules_
                 ->UpdateSchedule(
                     "nightly",
                     [](const v1::Schedule&) -> StatusOr<schedule::ScheduleWrite> {
                       return InvalidArgumentError("schedule.cron: bad");
                     },
                     "bob")
                 .status();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(v1::Schedule after, schedules_->GetSchedule("nightly"));
  EXPECT_EQ(after.updated_by(), "alice");
}

TEST_F(ScheduleRowsTest, DeletingAScheduleKeepsTheJobsItCreated) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  Create(Write("nightly", "0 2 * * *", T0()));
  ASSERT_OK(schedules_->TriggerSchedule("nightly", "bob", kScheduleStoreAnyCaller).status());
  ASSERT_OK(schedules_->DeleteSchedule("nightly", kScheduleStoreAnyCaller));
  EXPECT_EQ(Count("SELECT count(*) FROM schedule_run"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM job WHERE schedule_run_id IS NULL"), 1);
}

TEST_F(ScheduleRowsTest, RunsAreListedNewestFirstWithinTheirDueRange) {
  RegisterOn("node-1", {MakeDevice("GPU-A", "NVIDIA H100 80GB HBM3")});
  v1::Schedule s = Create(Write("nightly", "0 2 * * *", T0(), v1::MISSED_FIRE_POLICY_SKIP, true));
  for (int day = 0; day < 3; ++day) {
    Query("INSERT INTO schedule_run (schedule_id, due_at, trigger, state)"
          " VALUES (" + std::to_string(s.id()) + ", '2026-03-0" + std::to_string(day + 1) +
          " 02:00Z', 'CRON', 'FIRED') RETURNING id");
  }
  schedule::ScheduleRunQuery q;
  q.name = "nightly";
  q.page_size = 2;
  ASSERT_OK_AND_ASSIGN(schedule::ScheduleRunPage page, schedules_->ListScheduleRuns(q));
  ASSERT_EQ(page.runs.size(), 2u);
  EXPECT_GT(page.runs[0].id(), page.runs[1].id());
  EXPECT_FALSE(page.next_page_token.empty());
  q.page_token = page.next_page_token;
  ASSERT_OK_AND_ASSIGN(page, schedules_->ListScheduleRuns(q));
  EXPECT_EQ(page.runs.size(), 1u);
  EXPECT_TRUE(page.next_page_token.empty());

  schedule::ScheduleRunQuery night;
  night.name = "nightly";
  night.due_from = T0() + absl::Hours(24);
  night.due_until = T0() + absl::Hours(48);
  ASSERT_OK_AND_ASSIGN(page, schedules_->ListScheduleRuns(night));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].due_at().seconds(), absl::ToUnixSeconds(T0() + absl::Hours(26)));
}

}  // namespace
}  // namespace warpwatch::server::testing
