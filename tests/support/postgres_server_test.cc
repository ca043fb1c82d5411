// Tests of the throwaway PostgreSQL harness itself.
#include "tests/support/postgres_server.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <thread>

#include "tests/support/postgres_test.h"

namespace warpwatch::testing {
namespace {

int SelectOne(const std::string& url) {
  pqxx::connection conn(url);
  pqxx::nontransaction tx(conn);
  return tx.exec("SELECT 1").at(0).at(0).as<int>();
}

TEST(PostgresServerTest, StartsAnswersAndRemovesItsDirectory) {
  std::string dir;
  {
    StatusOr<std::unique_ptr<PostgresServer>> server = PostgresServer::Create();
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    dir = (*server)->dir();
    EXPECT_TRUE(std::filesystem::exists(dir));
    EXPECT_EQ(SelectOne((*server)->Url()), 1);
  }
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(PostgresServerTest, StopRefusesConnectionsAndStartServesTheSameDataAgain) {
  StatusOr<std::unique_ptr<PostgresServer>> created = PostgresServer::Create();
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  PostgresServer& server = **created;
  StatusOr<std::string> url = server.CreateDatabase("kept");
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  {
    pqxx::connection conn(*url);
    pqxx::work tx(conn);
    tx.exec("CREATE TABLE t (x int); INSERT INTO t VALUES (42)");
    tx.commit();
  }
  const int port = server.port();
  ASSERT_TRUE(server.Stop().ok());
  EXPECT_FALSE(server.running());
  EXPECT_THROW(pqxx::connection(*url + "?connect_timeout=2"), pqxx::broken_connection);
  ASSERT_TRUE(server.Start().ok());
  EXPECT_EQ(server.port(), port);
  pqxx::connection conn(*url);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(tx.exec("SELECT x FROM t").at(0).at(0).as<int>(), 42);
}

TEST(PostgresServerTest, StandbyReplaysWhatThePrimaryCommitsAndRefusesWrites) {
  StatusOr<std::unique_ptr<PostgresServer>> primary = PostgresServer::Create();
  ASSERT_TRUE(primary.ok()) << primary.status().ToString();
  StatusOr<std::string> url = (*primary)->CreateDatabase("replicated");
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  StatusOr<std::unique_ptr<PostgresServer>> standby = PostgresServer::CreateStandby(**primary);
  ASSERT_TRUE(standby.ok()) << standby.status().ToString();
  {
    pqxx::connection conn(*url);
    pqxx::work tx(conn);
    tx.exec("CREATE TABLE t (x int); INSERT INTO t VALUES (7)");
    tx.commit();
  }
  pqxx::connection conn((*standby)->Url("replicated"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int seen = 0;
  while (seen != 7 && std::chrono::steady_clock::now() < deadline) {
    pqxx::nontransaction tx(conn);
    // Table and row come in one transaction: once t exists, the row is there.
    if (!tx.exec("SELECT to_regclass('public.t')").at(0).at(0).is_null()) {
      seen = tx.exec("SELECT max(x) FROM t").at(0).at(0).as<int>();
    }
    if (seen != 7) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(seen, 7);
  pqxx::nontransaction tx(conn);
  EXPECT_TRUE(tx.exec("SELECT pg_is_in_recovery()").at(0).at(0).as<bool>());
  EXPECT_THROW(tx.exec("INSERT INTO t VALUES (8)"), pqxx::sql_error);
}

TEST(PostgresServerTest, CreateRemovesDirectoriesOfDeadTestProcesses) {
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  const std::string abandoned = "/tmp/warpwatch-pg-abandoned" + std::to_string(getpid());
  std::filesystem::create_directories(abandoned + "/data");
  std::ofstream(abandoned + "/owner.pid") << dead << "\n";
  const std::string mine = "/tmp/warpwatch-pg-live" + std::to_string(getpid());
  std::filesystem::create_directories(mine);
  std::ofstream(mine + "/owner.pid") << getpid() << "\n";
  StatusOr<std::unique_ptr<PostgresServer>> server = PostgresServer::Create();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(abandoned));
  EXPECT_TRUE(std::filesystem::exists(mine));
  std::filesystem::remove_all(mine);
}

TEST_F(PostgresTest, EachTestGetsAnEmptyDatabase) {
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(
      tx.exec("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").at(0).at(0).as<int>(),
      0);
  tx.exec("CREATE TABLE only_here (x int)");
}

TEST_F(PostgresTest, ASecondTestDoesNotSeeTheFirstOnesTables) {
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(
      tx.exec("SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'").at(0).at(0).as<int>(),
      0);
}

}  // namespace
}  // namespace warpwatch::testing
