// File: tests/worker/client/channel_test.cc
// The worker's channel is as careful as the CLI's (issue 23): no bearer token in plaintext to
// another host unless told to, and a client certificate for servers that require mTLS, tested
// against a real gRPC server requiring client certificates, with a CA the openssl command line
// makes for each test.
#include "worker/client/channel.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "common/net/local_target.h"
#include "tests/worker/daemon/fake_worker_service.h"

namespace warpwatch::worker {
namespace {

using testing::FakeWorkerService;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ClientOptions WithToken(const std::string& server) {
  ClientOptions options;
  options.server = server;
  options.token = "worker-token-0f1e2d3c4b";
  return options;
}

TEST(LocalTargetTest, OnlyLoopbackAddressesAndUnixSocketsAreLocal) {
  for (const char* local : {"localhost:50051", "127.0.0.1:50051", "127.1.2.3:1", "[::1]:50051",
                            "ipv4:127.0.0.1:50051", "ipv4:127.0.0.1:1,127.0.0.2:2",
                            "ipv6:[::1]:50051", "dns:///localhost:50051", "unix:/run/ww.sock"}) {
    EXPECT_TRUE(IsLocalTarget(local)) << local;
  }
  for (const char* remote : {"10.0.0.7:50051", "warpwatch-server.warpwatch.svc:50051",
                             "dns:///gpu-head:50051", "ipv4:127.0.0.1:1,10.0.0.7:2",
                             "[2001:db8::1]:50051", "localhost.example.com:1", "128.0.0.1:1", ""}) {
    EXPECT_FALSE(IsLocalTarget(remote)) << remote;
  }
}

TEST(ServerChannelTest, ATokenIsNotSentInPlaintextToAnotherHost) {
  const StatusOr<std::shared_ptr<grpc::Channel>> refused =
      MakeServerChannel(WithToken("10.0.0.7:50051"));
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("plaintext to 10.0.0.7:50051"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("--allow-plaintext-token"), std::string::npos);
  EXPECT_EQ(refused.status().message().find("worker-token-"), std::string::npos);

  ClientOptions allowed = WithToken("10.0.0.7:50051");
  allowed.allow_plaintext_token = true;
  EXPECT_TRUE(MakeServerChannel(allowed).ok());
  EXPECT_TRUE(MakeServerChannel(WithToken("ipv4:127.0.0.1:50051")).ok());
  ClientOptions no_token;
  no_token.server = "10.0.0.7:50051";
  EXPECT_TRUE(MakeServerChannel(no_token).ok());  // an open server: nothing to leak
}

TEST(ServerChannelTest, ACertificateNeedsItsKeyAndACa) {
  ClientOptions half = WithToken("localhost:1");
  half.tls_ca_file = "/nonexistent/ca.pem";
  half.tls_cert_file = "/nonexistent/client.pem";
  EXPECT_EQ(MakeServerChannel(half).status().code(), StatusCode::kInvalidArgument);
  ClientOptions no_ca = WithToken("localhost:1");
  no_ca.tls_cert_file = "/nonexistent/client.pem";
  no_ca.tls_key_file = "/nonexistent/client.key";
  const Status status = MakeServerChannel(no_ca).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("--tls-ca"), std::string::npos) << status.message();
}

// A FakeWorkerService behind TLS that requires and verifies client certificates of ca.pem.
class MutualTlsChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "warpwatch-mtls-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    ASSERT_TRUE(MakeCa("ca"));
    ASSERT_TRUE(
        MakeCert("ca", "server", "/CN=localhost",
                 "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"));
    ASSERT_TRUE(MakeCert("ca", "worker", "/CN=node-1", "extendedKeyUsage=clientAuth\n"));
    ASSERT_TRUE(MakeCa("other_ca"));
    ASSERT_TRUE(MakeCert("other_ca", "stranger", "/CN=stranger", "extendedKeyUsage=clientAuth\n"));

    grpc::SslServerCredentialsOptions ssl(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    ssl.pem_root_certs = ReadAll(File("ca.pem"));
    ssl.pem_key_cert_pairs.push_back({ReadAll(File("server.key")), ReadAll(File("server.pem"))});
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::SslServerCredentials(ssl), &port_);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_NE(port_, 0);
  }

  void TearDown() override {
    if (server_) server_->Shutdown(std::chrono::system_clock::now());
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  bool Run(const std::string& command) {
    const std::string full = "cd " + dir_ + " && " + command + " >>openssl.log 2>&1";
    const int rc = std::system(full.c_str());
    if (rc != 0) ADD_FAILURE() << command << "\n" << ReadAll(dir_ + "/openssl.log");
    return rc == 0;
  }
  bool MakeCa(const std::string& name) {
    return Run(
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
        name + ".key -out " + name + ".pem -days 1 -subj /CN=" + name);
  }
  bool MakeCert(const std::string& ca, const std::string& name, const std::string& subject,
                const std::string& extensions) {
    std::ofstream(File(name + ".ext")) << extensions;
    return Run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
               name + ".key -out " + name + ".csr -subj " + subject) &&
           Run("openssl x509 -req -in " + name + ".csr -CA " + ca + ".pem -CAkey " + ca +
               ".key -CAcreateserial -out " + name + ".pem -days 1 -extfile " + name + ".ext");
  }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }

  // Register over MakeServerChannel(options): its status once the call ends.
  grpc::Status RegisterWith(const ClientOptions& options) {
    StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeServerChannel(options);
    if (!channel.ok()) return grpc::Status(grpc::StatusCode::INTERNAL, channel.status().ToString());
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    context.AddMetadata("authorization", "Bearer " + options.token);
    v1::RegisterRequest request;
    request.set_hostname("node-1");
    v1::RegisterResponse response;
    return v1::WorkerService::NewStub(*channel)->Register(&context, request, &response);
  }

  // TLS to the server (by the name its certificate carries), trusting ca.pem, presenting `cert`.
  ClientOptions Tls(const std::string& cert) const {
    ClientOptions options = WithToken("localhost:" + std::to_string(port_));
    options.tls_ca_file = File("ca.pem");
    if (!cert.empty()) {
      options.tls_cert_file = File(cert + ".pem");
      options.tls_key_file = File(cert + ".key");
    }
    return options;
  }

  std::string dir_;
  FakeWorkerService service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

TEST_F(MutualTlsChannelTest, AWorkerPresentingItsCertificateIsServed) {
  const grpc::Status status = RegisterWith(Tls("worker"));
  EXPECT_TRUE(status.ok()) << status.error_code() << " " << status.error_message();
  EXPECT_EQ(service_.Get().registers.size(), 1u);
}

TEST_F(MutualTlsChannelTest, AWorkerWithoutACertificateIsRefusedAtTheHandshake) {
  const grpc::Status status = RegisterWith(Tls(""));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_TRUE(service_.Get().registers.empty());
}

TEST_F(MutualTlsChannelTest, ACertificateOfAnotherCaIsRefusedAtTheHandshake) {
  const grpc::Status status = RegisterWith(Tls("stranger"));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  EXPECT_TRUE(service_.Get().registers.empty());
}

}  // namespace
}  // namespace warpwatch::worker
