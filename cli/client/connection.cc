// File: cli/client/connection.cc
#include "cli/client/connection.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace warpwatch::cli {
namespace {

StatusOr<std::string> ReadFile(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError(flag + " " + path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

void AddClientFlags(CLI::App& app, ClientOptions* o) {
  app.add_option("--server", o->server, "server address host:port")
      ->envname("WARPWATCH_SERVER")
      ->capture_default_str();
  app.add_option("--token", o->token, "bearer token")->envname("WARPWATCH_TOKEN");
  app.add_option("--tls-ca", o->tls_ca, "PEM CA that signed the server's certificate; enables TLS")
      ->envname("WARPWATCH_TLS_CA");
  app.add_option("--tls-cert", o->tls_cert, "PEM client certificate (servers with mTLS)")
      ->envname("WARPWATCH_TLS_CERT");
  app.add_option("--tls-key", o->tls_key, "PEM key of --tls-cert")->envname("WARPWATCH_TLS_KEY");
  app.add_flag("--json", o->json, "print protobuf JSON instead of tables");
}

StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const ClientOptions& options) {
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    return InvalidArgumentError("--tls-cert and --tls-key: give both or neither");
  }
  if (options.tls_ca.empty() && !options.tls_cert.empty()) {
    return InvalidArgumentError("--tls-cert: needs --tls-ca");
  }
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!options.tls_ca.empty()) {
    grpc::SslCredentialsOptions ssl;
    ASSIGN_OR_RETURN(ssl.pem_root_certs, ReadFile(options.tls_ca, "--tls-ca"));
    if (!options.tls_cert.empty()) {
      ASSIGN_OR_RETURN(ssl.pem_cert_chain, ReadFile(options.tls_cert, "--tls-cert"));
      ASSIGN_OR_RETURN(ssl.pem_private_key, ReadFile(options.tls_key, "--tls-key"));
    }
    credentials = grpc::SslCredentials(ssl);
  }
  return grpc::CreateChannel(options.server, credentials);
}

std::unique_ptr<grpc::ClientContext> MakeContext(const ClientOptions& options,
                                                 std::chrono::milliseconds timeout) {
  auto context = std::make_unique<grpc::ClientContext>();
  if (!options.token.empty()) context->AddMetadata("authorization", "Bearer " + options.token);
  if (timeout.count() > 0) context->set_deadline(std::chrono::system_clock::now() + timeout);
  return context;
}

}  // namespace warpwatch::cli
