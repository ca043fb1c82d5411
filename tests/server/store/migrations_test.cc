// Tests of server/store/migrations: embedding, idempotence, concurrent servers.
#include "server/store/migrations.h"

#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <thread>
#include <vector>

#include "tests/server/store/store_test_util.h"
#include "tests/support/postgres_test.h"

namespace warpwatch::server {
namespace {

using warpwatch::testing::PostgresTest;

int LatestEmbedded() { return EmbeddedMigrations().back().version; }

int CountVersionRows(const std::string& url) {
  pqxx::connection conn(url);
  pqxx::nontransaction tx(conn);
  return tx.exec("SELECT count(*) FROM schema_version").at(0).at(0).as<int>();
}

TEST(EmbeddedMigrationsTest, AreSortedNumberedAndNonEmpty) {
  const std::vector<Migration>& m = EmbeddedMigrations();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m.front().version, 1);
  EXPECT_EQ(m.front().name, "0001_initial.sql");
  for (size_t i = 0; i < m.size(); ++i) {
    EXPECT_GT(m[i].version, 0);
    EXPECT_FALSE(m[i].sql.empty());
    if (i > 0) {
      EXPECT_GT(m[i].version, m[i - 1].version);
    }
  }
  EXPECT_NE(m.front().sql.find("CREATE TABLE job"), std::string::npos);
}

class MigrationsTest : public PostgresTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  MigrationsTest() { own_server_ = true; }
};

TEST_F(MigrationsTest, AnEmptyDatabaseHasVersionZero) {
  StatusOr<int> version = SchemaVersion(url_);
  ASSERT_TRUE(version.ok()) << version.status().ToString();
  EXPECT_EQ(*version, 0);
}

TEST_F(MigrationsTest, ApplyEveryMigrationAndCreateTheTables) {
  ASSERT_OK(RunMigrations(url_));
  StatusOr<int> version = SchemaVersion(url_);
  ASSERT_TRUE(version.ok()) << version.status().ToString();
  EXPECT_EQ(*version, LatestEmbedded());
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  for (const char* table :
       {"device", "worker", "job", "run", "measurement", "regression", "schedule"}) {
    EXPECT_TRUE(tx.exec_params("SELECT to_regclass($1) IS NOT NULL", std::string(table))
                    .at(0)
                    .at(0)
                    .as<bool>())
        << table;
  }
}

TEST_F(MigrationsTest, RunningTwiceChangesNothing) {
  ASSERT_OK(RunMigrations(url_));
  ASSERT_OK(RunMigrations(url_));
  StatusOr<int> version = SchemaVersion(url_);
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(*version, LatestEmbedded());
  EXPECT_EQ(CountVersionRows(url_), static_cast<int>(EmbeddedMigrations().size()));
}

TEST_F(MigrationsTest, ServersStartingAtOnceApplyEachMigrationOnce) {
  constexpr int kServers = 6;
  std::vector<Status> results(kServers);
  std::vector<std::thread> threads;
  for (int i = 0; i < kServers; ++i) {
    threads.emplace_back([&, i] { results[i] = RunMigrations(url_); });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kServers; ++i) EXPECT_TRUE(results[i].ok()) << results[i].ToString();
  EXPECT_EQ(CountVersionRows(url_), static_cast<int>(EmbeddedMigrations().size()));
}

TEST_F(MigrationsTest, AnUnreachableDatabaseIsUnavailable) {
  ASSERT_OK(server().Stop());
  const auto start = std::chrono::steady_clock::now();
  Status s = RunMigrations(url_);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s.ToString();
  EXPECT_LT(elapsed, std::chrono::milliseconds(2500));
  ASSERT_OK(server().Start());
}

// 0010 denormalises run.device_uuid onto measurement (GetSeries of one device reads it from an
// index): measurements stored before it must get their run's device.
TEST_F(MigrationsTest, Migration10CopiesEachRunsDeviceOntoItsStoredMeasurements) {
  pqxx::connection conn(url_);
  pqxx::work tx(conn);
  for (const Migration& m : EmbeddedMigrations()) {
    if (m.version < 10) tx.exec(m.sql);
  }
  tx.exec(
      "INSERT INTO run (id, device_uuid, device_name, state) VALUES"
      " (7, 'GPU-a', 'H100', 'SUCCEEDED'), (8, '', 'H100', 'SUCCEEDED')");
  tx.exec(
      "INSERT INTO measurement (run_id, case_canonical, family, variant, series_id, status, doc)"
      " VALUES (7, 'c', 'f', 'v', 'c@H100', 'OK', '{}'), (8, 'c', 'f', 'v', 'c@H100', 'OK', '{}')");
  for (const Migration& m : EmbeddedMigrations()) {
    if (m.version == 10) tx.exec(m.sql);
  }
  pqxx::result r = tx.exec("SELECT device_uuid FROM measurement ORDER BY run_id");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0][0].as<std::string>(), "GPU-a");
  EXPECT_EQ(r[1][0].as<std::string>(), "");
  // From 0010 on a row stores its document as doc_pb (binary) or, stored before, doc (JSON):
  // never neither.
  {
    pqxx::subtransaction none(tx, "none");
    EXPECT_THROW(none.exec("INSERT INTO measurement (run_id, case_canonical, family, variant,"
                           " series_id, status) VALUES (7, 'd', 'f', 'v', 'd@H100', 'OK')"),
                 pqxx::check_violation);
  }
  tx.exec("INSERT INTO measurement (run_id, case_canonical, family, variant, series_id, status,"
          " doc_pb) VALUES (7, 'e', 'f', 'v', 'e@H100', 'OK', '\\x0801')");
}

}  // namespace
}  // namespace warpwatch::server
