// File: tests/server/runtime/server_runtime_schema_rpc_test.cc
// A server whose binary is older than its database's schema (the database records a migration
// the binary does not know) refuses to start, saying so (issue 23). Real PostgreSQL.
#include <gtest/gtest.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>

#include "server/store/migrations.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

// Keeps what is logged; Contains() may be called while other threads log.
class TextSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  bool Contains(const std::string& part) {
    std::lock_guard<std::mutex> lock(mutex_);
    return text_.find(part) != std::string::npos;
  }
  std::string Text() {
    std::lock_guard<std::mutex> lock(mutex_);
    return text_;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    text_.append(msg.payload.data(), msg.payload.size());
    text_ += '\n';
  }
  void flush_() override {}

 private:
  std::string text_;  // guarded by mutex_
};

class ServerRuntimeSchemaRpcTest : public RpcTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  ServerRuntimeSchemaRpcTest() { own_server_ = true; }
  // An empty database: these tests are about what the server's start-up migration does.
  const DatabaseTemplate* Template() const override { return nullptr; }
  // Migrates url_ and records a migration of a release newer than this binary.
  void MigrateAsANewerRelease() {
    ASSERT_TRUE(server::RunMigrations(url_).ok());
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec("INSERT INTO schema_version (version, name) VALUES (9999, '9999_newer_release.sql')");
    tx.commit();
  }
};

TEST_F(ServerRuntimeSchemaRpcTest, AServerOlderThanItsSchemaRefusesToStart) {
  MigrateAsANewerRelease();
  StatusOr<std::unique_ptr<server::ServerRuntime>> runtime =
      server::ServerRuntime::Start(TestConfig());
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(runtime.status().message().find("9999_newer_release.sql"), std::string::npos)
      << runtime.status().message();
  EXPECT_NE(runtime.status().message().find("newer release"), std::string::npos)
      << runtime.status().message();
}

TEST_F(ServerRuntimeSchemaRpcTest,
       AServerStartedWhileItsDatabaseWasDownRefusesToServeANewerSchema) {
  MigrateAsANewerRelease();
  auto sink = std::make_shared<TextSink>();
  spdlog::default_logger()->sinks().push_back(sink);  // before the server's threads log
  ASSERT_TRUE(server().Stop().ok());
  StartServer();  // the database is down: the server starts, NOT_SERVING
  ASSERT_TRUE(server().Start().ok());
  const bool logged = WaitUntil(
      [&] {
        return sink->Contains("refusing to serve this database") &&
               sink->Contains("9999_newer_release.sql");
      },
      std::chrono::seconds(10));
  v1::GetJobRequest request;
  request.set_job_id(1);
  v1::Job job;
  const grpc::Status status = JobStub()->GetJob(Context().get(), request, &job);
  runtime_.reset();  // its threads stop logging before the sink goes
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());
  EXPECT_TRUE(logged) << sink->Text();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);  // never migrated, never served
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
