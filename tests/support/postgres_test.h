// File: tests/support/postgres_test.h
// gtest helpers: a PostgreSQL server per test run (or per test process), a fresh database per test.
#ifndef WARPWATCH_TESTS_SUPPORT_POSTGRES_TEST_H_
#define WARPWATCH_TESTS_SUPPORT_POSTGRES_TEST_H_

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/status/status.h"
#include "tests/support/postgres_server.h"

namespace warpwatch::testing {

// The environment variable tests/run.sh sets to the port of the server it started for the whole
// ctest run (shared_postgres_main.cc).
inline constexpr const char* kSharedPostgresPortEnv = "WARPWATCH_TEST_POSTGRES_PORT";

// The server tests share: the run's shared server when kSharedPostgresPortEnv names one (attached,
// never stopped by a test), else OwnPostgres(). The error of the first failed attach or start is
// returned again on every later call.
StatusOr<PostgresServer*> SharedPostgres();

// This process's own server, started on first use (from the main test thread) and removed at
// exit: for tests that stop, restart or replicate their server.
StatusOr<PostgresServer*> OwnPostgres();

// A database that fresh databases may be copies of (CREATE DATABASE ... TEMPLATE): `name` (letters,
// digits, underscore; it should change whenever what `fill` does changes) is built once per server
// by `fill`, which receives its URL and must leave no connection to it open.
struct DatabaseTemplate {
  std::string name;
  std::function<Status(const std::string& url)> fill;
};

// Creates a new database with a unique name on `server` (SharedPostgres() when null): empty, or a
// copy of `from` (built first if this server has none yet; safe when test processes race, under an
// advisory lock). Returns its URL.
StatusOr<std::string> FreshDatabaseUrl(PostgresServer* server = nullptr,
                                       const DatabaseTemplate* from = nullptr);

// Fixture: url_ names a fresh database on the shared server, which is (re)started if an earlier
// test left it stopped. A derived fixture sets own_server_ in its constructor when its tests stop
// or replicate the server (then server() is this process's own), and overrides Template() to get
// a copy of a prepared database instead of an empty one.
class PostgresTest : public ::testing::Test {
 protected:
  void SetUp() override;
  PostgresServer& server() { return *server_; }
  virtual const DatabaseTemplate* Template() const { return nullptr; }

  bool own_server_ = false;
  PostgresServer* server_ = nullptr;
  std::string url_;
};

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SUPPORT_POSTGRES_TEST_H_
