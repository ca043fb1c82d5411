// File: tests/server/tls/tls_rpc_test.cc
// TLS and mutual TLS with a throwaway CA made by the openssl command line for each test.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class TlsRpcTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_TRUE(MakeCa("ca"));
    ASSERT_TRUE(MakeCert("ca", "server", "/CN=localhost",
                         "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                         "extendedKeyUsage=serverAuth\n"));
    ASSERT_TRUE(MakeCert("ca", "client", "/CN=test-client", "extendedKeyUsage=clientAuth\n"));
    ASSERT_TRUE(MakeCa("other_ca"));
    ASSERT_TRUE(MakeCert("other_ca", "stranger", "/CN=stranger", "extendedKeyUsage=clientAuth\n"));
  }

  bool Run(const std::string& command) {
    const std::string full = "cd " + dir_.path() + " && " + command + " >>openssl.log 2>&1";
    const int rc = std::system(full.c_str());
    if (rc != 0) ADD_FAILURE() << command << "\n" << ReadAll(dir_.path() + "/openssl.log");
    return rc == 0;
  }

  bool MakeCa(const std::string& name) {
    return Run(
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
        name + ".key -out " + name + ".pem -days 1 -subj /CN=" + name);
  }

  bool MakeCert(const std::string& ca, const std::string& name, const std::string& subject,
                const std::string& extensions) {
    dir_.Write(name + ".ext", extensions);
    return Run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " +
               name + ".key -out " + name + ".csr -subj " + subject) &&
           Run("openssl x509 -req -in " + name + ".csr -CA " + ca + ".pem -CAkey " + ca +
               ".key -CAcreateserial -out " + name + ".pem -days 1 -extfile " + name + ".ext");
  }

  std::string File(const std::string& name) const { return dir_.path() + "/" + name; }

  void StartTls(bool mutual) {
    server::ServerConfig config = TestConfig();
    config.tls_cert = File("server.pem");
    config.tls_key = File("server.key");
    if (mutual) config.tls_client_ca = File("ca.pem");
    StartServer(config);
  }

  // ListJobs over TLS trusting `trusted` (a CA's PEM), optionally presenting client `cert`.
  grpc::Status ListOverTls(const std::string& cert = "", const std::string& trusted = "ca.pem") {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadAll(File(trusted));
    if (!cert.empty()) {
      ssl.pem_cert_chain = ReadAll(File(cert + ".pem"));
      ssl.pem_private_key = ReadAll(File(cert + ".key"));
    }
    grpc::ChannelArguments args;
    args.SetSslTargetNameOverride("localhost");
    auto channel = grpc::CreateCustomChannel(Address(), grpc::SslCredentials(ssl), args);
    v1::ListJobsResponse response;
    return v1::JobService::NewStub(channel)->ListJobs(Context().get(), v1::ListJobsRequest(),
                                                      &response);
  }

  grpc::Status ListPlaintext() {
    v1::ListJobsResponse response;
    return JobStub()->ListJobs(Context().get(), v1::ListJobsRequest(), &response);
  }

  TempDir dir_;
};

TEST_F(TlsRpcTest, AClientTrustingTheCaTalksToATlsServer) {
  StartTls(/*mutual=*/false);
  ASSERT_TRUE(runtime_->tls());
  grpc::Status status = ListOverTls();
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(TlsRpcTest, APlaintextClientIsRefusedByATlsServer) {
  StartTls(/*mutual=*/false);
  EXPECT_EQ(ListPlaintext().error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsRpcTest, MutualTlsAcceptsAClientCertificateSignedByTheClientCa) {
  StartTls(/*mutual=*/true);
  grpc::Status status = ListOverTls("client");
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(TlsRpcTest, MutualTlsRefusesAClientWithoutACertificate) {
  StartTls(/*mutual=*/true);
  grpc::Status status = ListOverTls();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
}

TEST_F(TlsRpcTest, MutualTlsRefusesACertificateFromAnotherCa) {
  StartTls(/*mutual=*/true);
  grpc::Status status = ListOverTls("stranger");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
}

TEST_F(TlsRpcTest, AClientTrustingAnotherCaIsRefusedAndTrustedClientsGoOn) {
  StartTls(/*mutual=*/false);
  for (int i = 0; i < 20; ++i) {  // a client misconfigured in a retry loop
    grpc::Status status = ListOverTls("", "other_ca.pem");
    ASSERT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
  }
  grpc::Status status = ListOverTls();
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(TlsRpcTest, AMissingCertificateFileStopsTheServerFromStarting) {
  server::ServerConfig config = TestConfig();
  config.tls_cert = File("absent.pem");
  config.tls_key = File("server.key");
  auto runtime = server::ServerRuntime::Start(config);
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.status().code(), StatusCode::kNotFound);
  EXPECT_NE(runtime.status().message().find("--tls-cert"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::testing
