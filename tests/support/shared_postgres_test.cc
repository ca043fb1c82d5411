// Tests of the run-wide shared PostgreSQL (shared_postgres_main.cc, PostgresServer::Attach) and of
// database templates (FreshDatabaseUrl with a DatabaseTemplate).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <pqxx/pqxx>
#include <string>
#include <thread>

#include "tests/support/postgres_server.h"
#include "tests/support/postgres_test.h"

namespace warpwatch::testing {
namespace {

using std::chrono::seconds;
using std::chrono::steady_clock;

bool Answers(int port) {
  try {
    pqxx::connection conn("postgresql://postgres@127.0.0.1:" + std::to_string(port) +
                          "/postgres?connect_timeout=2");
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// Runs `command`; returns its exit status and first output line.
std::pair<int, std::string> RunCommand(const std::string& command) {
  FILE* out = popen((command + " 2>&1").c_str(), "r");
  if (out == nullptr) return {-1, ""};
  std::array<char, 4096> buf{};
  std::string text;
  while (fgets(buf.data(), buf.size(), out) != nullptr) text += buf.data();
  const int status = pclose(out);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

TEST(SharedPostgresTest, LivesWhileItsOwnerDoesAndGoesWithIt) {
  const pid_t owner = fork();
  ASSERT_GE(owner, 0);
  if (owner == 0) {
    pause();  // until killed
    _exit(0);
  }
  const auto [code, out] =
      RunCommand(std::string(WARPWATCH_TEST_POSTGRES_BIN) + " --owner " + std::to_string(owner));
  ASSERT_EQ(code, 0) << out;
  const int port = std::stoi(out);
  EXPECT_TRUE(Answers(port));
  StatusOr<std::unique_ptr<PostgresServer>> attached = PostgresServer::Attach(port);
  ASSERT_TRUE(attached.ok()) << attached.status().ToString();
  StatusOr<std::string> url = (*attached)->CreateDatabase("shared_one");
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  const Status stopped = (*attached)->Stop();
  EXPECT_EQ(stopped.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(stopped.message().find("own_server_"), std::string::npos) << stopped.ToString();
  EXPECT_TRUE(Answers(port)) << "Stop on an attached server must not stop it";

  kill(owner, SIGKILL);
  waitpid(owner, nullptr, 0);
  const auto deadline = steady_clock::now() + seconds(30);
  while (Answers(port) && steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_FALSE(Answers(port)) << "the server outlived its owner by 30 s";
}

TEST(SharedPostgresTest, BadArgumentsExitTwoNamingThem) {
  const std::string bin = WARPWATCH_TEST_POSTGRES_BIN;
  auto [code, out] = RunCommand(bin);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("usage"), std::string::npos) << out;
  std::tie(code, out) = RunCommand(bin + " --owner 12x");
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("--owner 12x is not a running process"), std::string::npos) << out;
}

TEST(SharedPostgresTest, AttachRefusesAPortWithoutAServer) {
  EXPECT_EQ(PostgresServer::Attach(0).status().code(), StatusCode::kInvalidArgument);
  StatusOr<std::unique_ptr<PostgresServer>> server = PostgresServer::Create();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const int port = (*server)->port();
  server->reset();  // the port is free now
  const Status status = PostgresServer::Attach(port).status();
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_NE(status.message().find(std::to_string(port)), std::string::npos) << status.ToString();
}

TEST(DatabaseTemplateTest, IsBuiltOnceAndEachDatabaseIsACopyOfIt) {
  StatusOr<std::unique_ptr<PostgresServer>> server = PostgresServer::Create();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  std::atomic<int> fills{0};
  const DatabaseTemplate tmpl{"tmpl_test", [&fills](const std::string& url) {
                                ++fills;
                                pqxx::connection conn(url);
                                pqxx::work tx(conn);
                                tx.exec("CREATE TABLE t (x int); INSERT INTO t VALUES (5)");
                                tx.commit();
                                return OkStatus();
                              }};
  StatusOr<std::string> a = FreshDatabaseUrl(server->get(), &tmpl);
  StatusOr<std::string> b = FreshDatabaseUrl(server->get(), &tmpl);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_NE(*a, *b);
  EXPECT_EQ(fills.load(), 1);
  {
    pqxx::connection conn(*a);
    pqxx::work tx(conn);
    tx.exec("INSERT INTO t VALUES (6)");
    tx.commit();
  }
  pqxx::connection conn(*b);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(tx.exec("SELECT count(*) FROM t").at(0).at(0).as<int>(), 1)
      << "a copy shares nothing with its siblings";
}

TEST(DatabaseTemplateTest, AFailedFillIsAnErrorNamingTheTemplateAndLeavesNoTemplate) {
  StatusOr<std::unique_ptr<PostgresServer>> server = PostgresServer::Create();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const DatabaseTemplate broken{"tmpl_broken",
                                [](const std::string&) { return InternalError("no schema"); }};
  const Status status = FreshDatabaseUrl(server->get(), &broken).status();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("tmpl_broken"), std::string::npos) << status.ToString();
  EXPECT_NE(status.message().find("no schema"), std::string::npos) << status.ToString();
  pqxx::connection conn((*server)->Url());
  pqxx::nontransaction tx(conn);
  EXPECT_TRUE(tx.exec("SELECT 1 FROM pg_database WHERE datname = 'tmpl_broken'").empty());
}

}  // namespace
}  // namespace warpwatch::testing
