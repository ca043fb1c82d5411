// File: tests/server/runtime/rpc_test_fixture.h
// An in-process warpwatch-server on a free port over a fresh PostgreSQL database (the shared
// throwaway server of tests/support), with helpers for real gRPC channels to it.
#ifndef WARPWATCH_TESTS_SERVER_RUNTIME_RPC_TEST_FIXTURE_H_
#define WARPWATCH_TESTS_SERVER_RUNTIME_RPC_TEST_FIXTURE_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "server/config/server_config.h"
#include "server/runtime/server_runtime.h"
#include "tests/server/store/migrated_template.h"
#include "tests/support/postgres_test.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::testing {

// A temp dir removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  // Writes `text` to path()/name and returns the full path.
  std::string Write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

class RpcTest : public PostgresTest {
 public:
  // A context with "authorization: Bearer <token>" (none when empty) and a 10 s deadline.
  static std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "");
  // A spec that the catalog accepts: family reduce, one variant, the nightly axes.
  static v1::JobSpec ValidSpec();

 protected:
  void TearDown() override;
  // A copy of the migrated template: the server's start-up migration then finds nothing to do.
  const DatabaseTemplate* Template() const override { return &server::testing::MigratedTemplate(); }

  // A config for this test: listen 127.0.0.1:0, no metrics exporter, url_, fast health probes
  // (0.1 s) and watch polls (0.05 s).
  server::ServerConfig TestConfig() const;
  // Starts the server (ASSERTs success); Address() then names it.
  void StartServer(const server::ServerConfig& config);
  void StartServer() { StartServer(TestConfig()); }
  std::string Address() const;

  // Plaintext channel to the server.
  std::shared_ptr<grpc::Channel> Channel() const;
  std::unique_ptr<v1::JobService::Stub> JobStub() const;

  std::unique_ptr<server::ServerRuntime> runtime_;
};

// Polls `condition` every 20 ms until it holds or `timeout` passes; returns its last value.
bool WaitUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout);

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SERVER_RUNTIME_RPC_TEST_FIXTURE_H_
