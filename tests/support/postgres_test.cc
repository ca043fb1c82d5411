// File: tests/support/postgres_test.cc
#include "tests/support/postgres_test.h"

#include <unistd.h>

#include <atomic>
#include <memory>

namespace warpwatch::testing {

StatusOr<PostgresServer*> SharedPostgres() {
  static StatusOr<std::unique_ptr<PostgresServer>>* server =
      new StatusOr<std::unique_ptr<PostgresServer>>(PostgresServer::Create());
  // Destroyed at exit so the server and its temp dir go away with the process.
  static struct Reaper {
    ~Reaper() {
      if (server->ok()) server->value().reset();
    }
  } reaper;
  if (!server->ok()) return server->status();
  return server->value().get();
}

StatusOr<std::string> FreshDatabaseUrl() {
  static std::atomic<int> counter{0};
  ASSIGN_OR_RETURN(PostgresServer * server, SharedPostgres());
  return server->CreateDatabase("t" + std::to_string(getpid()) + "_" + std::to_string(++counter));
}

void PostgresTest::SetUp() {
  StatusOr<PostgresServer*> server = SharedPostgres();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  server_ = *server;
  Status started = server_->Start();
  ASSERT_TRUE(started.ok()) << started.ToString();
  StatusOr<std::string> url = FreshDatabaseUrl();
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  url_ = *url;
}

}  // namespace warpwatch::testing
