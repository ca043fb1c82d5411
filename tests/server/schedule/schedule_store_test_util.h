// File: tests/server/schedule/schedule_store_test_util.h
// Fixture for scheduler tests on a real PostgreSQL: a migrated database, the job Store (to
// register workers and read jobs), PgScheduleStores on separate pools, and schedule builders.
#ifndef WARPWATCH_TESTS_SERVER_SCHEDULE_SCHEDULE_STORE_TEST_UTIL_H_
#define WARPWATCH_TESTS_SERVER_SCHEDULE_SCHEDULE_STORE_TEST_UTIL_H_

#include <absl/time/time.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "server/schedule/schedule_store.h"
#include "server/store/pg_schedule_store.h"
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {

// 2026-03-01 00:00 UTC: the due time schedules start from.
inline absl::Time T0() { return absl::FromUnixSeconds(1772323200); }

class ScheduleStoreTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    if (HasFatalFailure()) return;
    schedules_ = OpenSchedules();
    ASSERT_NE(schedules_, nullptr);
  }
  void TearDown() override {
    schedules_.reset();
    StoreTest::TearDown();
  }

  // Another PgScheduleStore on its own pool (its own connections).
  std::unique_ptr<schedule::ScheduleStore> OpenSchedules() {
    PgScheduleStoreOptions options;
    options.pg.url = url_;
    options.pg.pool_size = 2;
    options.online_window = std::chrono::minutes(1);
    StatusOr<std::unique_ptr<schedule::ScheduleStore>> store = OpenPgScheduleStore(options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  // A schedule `cron` (UTC) whose next due time is `next`.
  schedule::ScheduleWrite Write(const std::string& name, const std::string& cron, absl::Time next,
                                v1::MissedFirePolicy policy = v1::MISSED_FIRE_POLICY_SKIP,
                                bool allow_overlap = false) {
    schedule::ScheduleWrite w;
    w.schedule.set_name(name);
    w.schedule.set_cron(cron);
    w.schedule.set_time_zone("UTC");
    *w.schedule.mutable_job_template() = MakeSpec();
    w.schedule.set_missed_fire_policy(policy);
    w.schedule.set_allow_overlap(allow_overlap);
    w.schedule.set_enabled(true);
    w.points_total = 10;
    w.next_fire_at = next;
    return w;
  }
  v1::Schedule Create(const schedule::ScheduleWrite& write) {
    StatusOr<v1::Schedule> s = schedules_->CreateSchedule(write, "alice", 1000);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : v1::Schedule();
  }

  // Registers a worker on `hostname` owning `devices` (asserts success); returns its id.
  std::string RegisterOn(const std::string& hostname, const std::vector<v1::Device>& devices,
                         const std::map<std::string, std::string>& labels = {}) {
    v1::RegisterRequest request;
    request.set_hostname(hostname);
    request.add_families("memory.copy");
    request.mutable_labels()->insert(labels.begin(), labels.end());
    for (const v1::Device& d : devices) *request.add_devices() = d;
    StatusOr<std::string> id = store_->RegisterWorker(request, kTestCaller, std::chrono::minutes(1));
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : std::string();
  }

  // One SQL statement on a fresh connection, first column of each row as text.
  std::vector<std::string> Query(const std::string& sql) {
    pqxx::connection conn(url_);
    pqxx::nontransaction tx(conn);
    std::vector<std::string> out;
    for (const pqxx::row& row : tx.exec(sql)) out.push_back(row[0].is_null() ? "" : row[0].c_str());
    return out;
  }
  int64_t Count(const std::string& sql) { return std::stoll(Query(sql).at(0)); }

  std::unique_ptr<schedule::ScheduleStore> schedules_;
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_SCHEDULE_SCHEDULE_STORE_TEST_UTIL_H_
