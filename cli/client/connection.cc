// File: cli/client/connection.cc
#include "cli/client/connection.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
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

// Whether gRPC target `server` is on this host (loopback or a unix socket).
bool IsLocalTarget(const std::string& server) {
  if (server.rfind("unix:", 0) == 0) return true;
  std::string host = server;
  if (host.rfind("dns:///", 0) == 0) host = host.substr(7);
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.find(']');
    host = close == std::string::npos ? "" : host.substr(1, close - 1);
  } else {
    const size_t colon = host.rfind(':');
    if (colon != std::string::npos) host = host.substr(0, colon);
  }
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace

void AddClientFlags(CLI::App& app, ClientOptions* o) {
  app.add_option("--server", o->server, "server address host:port")
      ->envname("WARPWATCH_SERVER")
      ->capture_default_str();
  if (const char* token = std::getenv("WARPWATCH_TOKEN")) o->token = token;
  app.add_option("--token-file", o->token_file,
                 "file holding the bearer token (or the environment variable WARPWATCH_TOKEN)")
      ->envname("WARPWATCH_TOKEN_FILE")
      ->check([o](const std::string& path) -> std::string {
        StatusOr<std::string> text = ReadFile(path, "--token-file");
        if (!text.ok()) return std::string(text.status().message());
        const size_t first = text->find_first_not_of(" \t\r\n");
        const size_t last = text->find_last_not_of(" \t\r\n");
        if (first == std::string::npos) return path + ": empty";
        o->token = text->substr(first, last - first + 1);
        return "";
      });
  app.add_flag("--allow-plaintext-token", o->allow_plaintext_token,
               "send the token without TLS to a server that is not on this host");
  // Hidden: a token on the command line is readable by every user of the host (ps).
  static std::string refused_token;
  app.add_option("--token", refused_token)
      ->check([](const std::string&) -> std::string {
        return "a token on the command line is visible to every user of this host (ps); use "
               "--token-file FILE or the WARPWATCH_TOKEN environment variable";
      })
      ->group("");
  app.add_option("--tls-ca", o->tls_ca, "PEM CA that signed the server's certificate; enables TLS")
      ->envname("WARPWATCH_TLS_CA");
  app.add_option("--tls-cert", o->tls_cert, "PEM client certificate (servers with mTLS)")
      ->envname("WARPWATCH_TLS_CERT");
  app.add_option("--tls-key", o->tls_key, "PEM key of --tls-cert")->envname("WARPWATCH_TLS_KEY");
  app.add_flag("--json", o->json, "print protobuf JSON instead of tables");
}

StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const ClientOptions& options) {
  if (!options.token.empty() && options.tls_ca.empty() && !IsLocalTarget(options.server) &&
      !options.allow_plaintext_token) {
    return InvalidArgumentError(
        "the bearer token would travel in plaintext to " + options.server +
        "; give --tls-ca (TLS), or --allow-plaintext-token to send it anyway");
  }
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
