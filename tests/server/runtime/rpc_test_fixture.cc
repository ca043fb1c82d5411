// File: tests/server/runtime/rpc_test_fixture.cc
#include "tests/server/runtime/rpc_test_fixture.h"

#include <grpcpp/create_channel.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace warpwatch::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "warpwatch-edge-XXXXXX").string();
  char* made = mkdtemp(pattern.data());
  if (made == nullptr) std::abort();
  path_ = made;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::Write(const std::string& name, const std::string& text) const {
  const std::string full = path_ + "/" + name;
  std::ofstream(full, std::ios::binary) << text;
  return full;
}

void RpcTest::TearDown() {
  if (runtime_) runtime_->Shutdown(std::chrono::milliseconds(2000));
  runtime_.reset();
}

server::ServerConfig RpcTest::TestConfig() const {
  server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  config.database_url = url_;
  config.pool_size = 4;
  config.health_interval_seconds = 0.1;
  config.watch_poll_seconds = 0.05;
  config.log_level = "warn";
  return config;
}

void RpcTest::StartServer(const server::ServerConfig& config) {
  StatusOr<std::unique_ptr<server::ServerRuntime>> runtime = server::ServerRuntime::Start(config);
  ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
  runtime_ = std::move(*runtime);
}

std::string RpcTest::Address() const { return "127.0.0.1:" + std::to_string(runtime_->port()); }

std::shared_ptr<grpc::Channel> RpcTest::Channel() const {
  return grpc::CreateChannel(Address(), grpc::InsecureChannelCredentials());
}

std::unique_ptr<v1::JobService::Stub> RpcTest::JobStub() const {
  return v1::JobService::NewStub(Channel());
}

std::unique_ptr<grpc::ClientContext> RpcTest::Context(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!token.empty()) context->AddMetadata("authorization", "Bearer " + token);
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  return context;
}

v1::JobSpec RpcTest::ValidSpec() {
  v1::JobSpec spec;
  spec.add_families("reduce");
  spec.add_variants("warp_shuffle");
  return spec;
}

bool WaitUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return condition();
}

}  // namespace warpwatch::testing
