// File: tests/server/store/migration_safety_test.cc
// Schema changes that cannot hang or corrupt a running fleet (issue 23): each migration runs under
// a lock_timeout and a statement_timeout (its own when it states them), and a database that a
// newer release migrated is refused. Against a real PostgreSQL.
#include <gtest/gtest.h>

#include <chrono>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "server/store/migrations.h"
#include "tests/server/store/store_test_util.h"
#include "tests/support/postgres_test.h"

namespace warpwatch::server {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using warpwatch::testing::PostgresTest;

#define EXPECT_OK(expr)                                     \
  do {                                                      \
    const ::warpwatch::Status _s = (expr);                  \
    EXPECT_TRUE(_s.ok()) << #expr << ": " << _s.ToString(); \
  } while (0)

// The embedded migrations and one more, `sql`, as version 9001.
std::vector<Migration> EmbeddedPlus(const std::string& sql) {
  std::vector<Migration> migrations = EmbeddedMigrations();
  migrations.push_back(Migration{9001, "9001_test.sql", sql});
  return migrations;
}

int Version(const std::string& url) {
  StatusOr<int> version = SchemaVersion(url);
  EXPECT_TRUE(version.ok()) << version.status().ToString();
  return version.ok() ? *version : -1;
}

class MigrationSafetyTest : public PostgresTest {};

TEST_F(MigrationSafetyTest, AMigrationBlockedByALockGivesUpAfterItsLockTimeout) {
  ASSERT_OK(RunMigrations(url_));
  // Another session holds the job table, as a long report query or a stuck transaction would.
  pqxx::connection holder(url_);
  pqxx::work holding(holder);
  holding.exec("LOCK TABLE job IN ACCESS SHARE MODE");

  MigrationTimeouts timeouts;
  timeouts.lock_timeout = "500ms";
  const auto start = Clock::now();
  const Status status =
      RunMigrations(url_, EmbeddedPlus("ALTER TABLE job ADD COLUMN test_only integer;"), timeouts);
  EXPECT_LT(Clock::now() - start, 10s);
  EXPECT_EQ(status.code(), StatusCode::kInternal) << status.ToString();
  EXPECT_NE(status.message().find("9001_test.sql"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("lock_timeout 500ms"), std::string::npos) << status.message();
  holding.abort();
  EXPECT_EQ(Version(url_), EmbeddedMigrations().back().version);  // nothing half-applied

  // The lock gone, the same migration goes through.
  EXPECT_OK(
      RunMigrations(url_, EmbeddedPlus("ALTER TABLE job ADD COLUMN test_only integer;"), timeouts));
  EXPECT_EQ(Version(url_), 9001);
}

TEST_F(MigrationSafetyTest, AStatementOverTheStatementTimeoutIsCancelled) {
  ASSERT_OK(RunMigrations(url_));
  MigrationTimeouts timeouts;
  timeouts.statement_timeout = "300ms";
  const auto start = Clock::now();
  const Status status = RunMigrations(url_, EmbeddedPlus("SELECT pg_sleep(30);"), timeouts);
  EXPECT_LT(Clock::now() - start, 10s);
  EXPECT_EQ(status.code(), StatusCode::kInternal) << status.ToString();
  EXPECT_NE(status.message().find("statement_timeout 300ms"), std::string::npos)
      << status.message();
  EXPECT_EQ(Version(url_), EmbeddedMigrations().back().version);
}

TEST_F(MigrationSafetyTest, AMigrationThatStatesItsOwnTimeoutRunsUnderIt) {
  ASSERT_OK(RunMigrations(url_));
  MigrationTimeouts timeouts;
  timeouts.statement_timeout = "100ms";
  const std::string sql =
      "-- 9001: runs long on purpose.\n"
      "-- warpwatch: statement_timeout=20s\n"
      "SELECT pg_sleep(0.5);\n";
  EXPECT_OK(RunMigrations(url_, EmbeddedPlus(sql), timeouts));
  EXPECT_EQ(Version(url_), 9001);
}

TEST(MigrationTimeoutsTest, AHeaderLineOverridesTheDefaultsAndBadOnesNameTheLine) {
  const MigrationTimeouts defaults;
  StatusOr<MigrationTimeouts> own =
      TimeoutsOf(Migration{7, "0007_x.sql",
                           "-- comment\n\n-- warpwatch: lock_timeout=1min statement_timeout=0\n"
                           "SELECT 1;\n-- warpwatch: lock_timeout=9s\n"},
                 defaults);
  ASSERT_TRUE(own.ok()) << own.status().ToString();
  EXPECT_EQ(own->lock_timeout, "1min");
  EXPECT_EQ(own->statement_timeout, "0");  // the line after the first statement is not read

  for (const char* bad : {"-- warpwatch: lock_timeout=soon\n", "-- warpwatch: nap=1s\n",
                          "-- warpwatch: statement_timeout\n"}) {
    StatusOr<MigrationTimeouts> parsed = TimeoutsOf(Migration{8, "0008_y.sql", bad}, defaults);
    EXPECT_EQ(parsed.status().code(), StatusCode::kInternal) << bad;
    EXPECT_NE(parsed.status().message().find("0008_y.sql line 1"), std::string::npos)
        << parsed.status().message();
  }
}

TEST(MigrationTimeoutsTest, EveryEmbeddedMigrationsHeaderParses) {
  for (const Migration& m : EmbeddedMigrations()) {
    EXPECT_TRUE(TimeoutsOf(m, MigrationTimeouts{}).ok()) << m.name;
  }
}

TEST_F(MigrationSafetyTest, ADatabaseANewerReleaseMigratedIsRefusedNamingTheVersion) {
  ASSERT_OK(RunMigrations(url_));
  {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec("INSERT INTO schema_version (version, name) VALUES (9999, '9999_from_the_future.sql')");
    tx.commit();
  }
  for (const Status& status : {RunMigrations(url_), CheckSchemaKnown(url_)}) {
    EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition) << status.ToString();
    EXPECT_NE(status.message().find("9999_from_the_future.sql"), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find(EmbeddedMigrations().back().name), std::string::npos)
        << status.message();
  }
}

TEST_F(MigrationSafetyTest, AKnownSchemaAndAnEmptyDatabaseAreAccepted) {
  EXPECT_OK(CheckSchemaKnown(url_));
  ASSERT_OK(RunMigrations(url_));
  EXPECT_OK(CheckSchemaKnown(url_));
}

}  // namespace
}  // namespace warpwatch::server
