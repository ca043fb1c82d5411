// File: tests/server/store/store_test_util.h
// Fixture for store tests: a fresh migrated database per test, a PgStore on it, and builders for
// specs, devices and workers.
#ifndef WARPWATCH_TESTS_SERVER_STORE_STORE_TEST_UTIL_H_
#define WARPWATCH_TESTS_SERVER_STORE_STORE_TEST_UTIL_H_

#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "server/store/migrations.h"
#include "server/store/pg_store.h"
#include "server/store/store.h"
#include "tests/server/store/migrated_template.h"
#include "tests/support/postgres_test.h"

namespace warpwatch::server::testing {

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    const ::warpwatch::Status _s = (expr);                  \
    ASSERT_TRUE(_s.ok()) << #expr << ": " << _s.ToString(); \
  } while (0)

// A value or a failed assertion (use in test bodies only).
#define ASSERT_OK_AND_ASSIGN(lhs, expr)                                           \
  auto WW_STATUS_CONCAT_(_sor_, __LINE__) = (expr);                               \
  ASSERT_TRUE(WW_STATUS_CONCAT_(_sor_, __LINE__).ok())                            \
      << #expr << ": " << WW_STATUS_CONCAT_(_sor_, __LINE__).status().ToString(); \
  lhs = std::move(WW_STATUS_CONCAT_(_sor_, __LINE__)).value()

// The principal store tests register and act as (not an admin).
inline const WorkerCaller kTestCaller{"test-worker", false};

v1::Device MakeDevice(const std::string& uuid, const std::string& name);
v1::JobSpec MakeSpec(const std::string& family = "memory.copy");

// Sets every field of `message` (recursively, repeated fields twice, maps once) to a value that is
// not its default, so a field the store drops shows up as a difference. Timestamps get valid
// instants (with nanoseconds).
void FillEveryField(google::protobuf::Message* message, int depth = 0);

// A point as a current worker sends it with counters, samples aside: case reduce/two_pass?n=2^24,
// status OK, one kernel (PartialSums, kernel_name) whose counters, and its first launch's, are the
// measurement's.
v1::Measurement CounterPassMeasurement();

// Expects `actual` to equal `expected` field by field, NaN equal to NaN; the failure names the
// fields that differ.
void ExpectSameMessage(const google::protobuf::Message& expected,
                       const google::protobuf::Message& actual);

class StoreTest : public warpwatch::testing::PostgresTest {
 protected:
  void SetUp() override;
  // A copy of the migrated template when every migration is wanted (migrate_to_ 0).
  const warpwatch::testing::DatabaseTemplate* Template() const override {
    return migrate_to_ == 0 ? &MigratedTemplate() : nullptr;
  }
  void TearDown() override { store_.reset(); }

  // Opens another store on the test's database.
  std::unique_ptr<Store> OpenStore(int pool_size = 4);

  // Registers a worker owning `devices`; returns its id (asserts success).
  std::string Register(const std::vector<v1::Device>& devices,
                       const std::map<std::string, std::string>& labels = {});
  // Enqueues MakeSpec() with `edit` applied (asserts success).
  template <typename Edit>
  v1::Job Enqueue(Edit edit) {
    v1::JobSpec spec = MakeSpec();
    edit(spec);
    StatusOr<v1::Job> job = store_->EnqueueJob(spec, 10, "tester", "");
    EXPECT_TRUE(job.ok()) << job.status().ToString();
    return job.ok() ? *job : v1::Job();
  }
  v1::Job Enqueue() {
    return Enqueue([](v1::JobSpec&) {});
  }
  // Claims for (worker, uuid); nullopt when nothing matched (asserts the call succeeded).
  std::optional<Lease> Claim(const std::string& worker, const std::string& uuid,
                             std::chrono::milliseconds lease = std::chrono::seconds(30)) {
    StatusOr<std::optional<Lease>> r = store_->ClaimJob(worker, uuid, lease);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::nullopt;
  }

  std::unique_ptr<Store> store_;
  // The migrations SetUp applies: every embedded one (0), or those up to this version, for a
  // test of a later migration on data stored before it (set in the fixture's constructor).
  int migrate_to_ = 0;
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_STORE_STORE_TEST_UTIL_H_
