// File: tests/support/postgres_test.h
// gtest helpers: one PostgresServer per test process, a fresh database per test.
#ifndef WARPWATCH_TESTS_SUPPORT_POSTGRES_TEST_H_
#define WARPWATCH_TESTS_SUPPORT_POSTGRES_TEST_H_

#include <gtest/gtest.h>

#include <string>

#include "common/status/status.h"
#include "tests/support/postgres_server.h"

namespace warpwatch::testing {

// The process's shared server, started on first use (from the main test thread) and removed at
// exit. The error of the first failed start is returned again on every later call.
StatusOr<PostgresServer*> SharedPostgres();

// Creates a new, empty database with a unique name on SharedPostgres(); returns its URL.
StatusOr<std::string> FreshDatabaseUrl();

// Fixture: url_ names a fresh empty database on the shared server, which is (re)started if an
// earlier test left it stopped.
class PostgresTest : public ::testing::Test {
 protected:
  void SetUp() override;
  PostgresServer& server() { return *server_; }

  PostgresServer* server_ = nullptr;
  std::string url_;
};

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SUPPORT_POSTGRES_TEST_H_
