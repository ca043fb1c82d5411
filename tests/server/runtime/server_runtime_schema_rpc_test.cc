// File: tests/server/runtime/server_runtime_schema_rpc_test.cc
// A server whose binary is older than its database's schema (the database records a migration
// the binary does not know) refuses to start, saying so (issue 23). Real PostgreSQL.
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>

#include "server/store/migrations.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

class ServerRuntimeSchemaRpcTest : public RpcTest {};

TEST_F(ServerRuntimeSchemaRpcTest, AServerOlderThanItsSchemaRefusesToStart) {
  ASSERT_TRUE(server::RunMigrations(url_).ok());
  {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec("INSERT INTO schema_version (version, name) VALUES (9999, '9999_newer_release.sql')");
    tx.commit();
  }
  StatusOr<std::unique_ptr<server::ServerRuntime>> runtime =
      server::ServerRuntime::Start(TestConfig());
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(runtime.status().message().find("9999_newer_release.sql"), std::string::npos)
      << runtime.status().message();
  EXPECT_NE(runtime.status().message().find("newer release"), std::string::npos)
      << runtime.status().message();
}

TEST_F(ServerRuntimeSchemaRpcTest, AServerOfTheSchemasReleaseStarts) {
  ASSERT_TRUE(server::RunMigrations(url_).ok());
  StartServer();
  v1::GetJobRequest request;
  request.set_job_id(1);
  v1::Job job;
  EXPECT_EQ(JobStub()->GetJob(Context().get(), request, &job).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace warpwatch::testing
