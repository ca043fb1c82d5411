// File: worker/client/channel.cc
#include "worker/client/channel.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>

#include <fstream>
#include <sstream>
#include <string>

#include "common/net/local_target.h"

namespace warpwatch::worker {
namespace {

// `what` names the file in errors ("TLS CA file").
StatusOr<std::string> ReadFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot read " + what + " " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) return InvalidArgumentError(what + " " + path + " is empty");
  return text.str();
}

int Millis(double seconds) { return static_cast<int>(seconds * 1000); }

}  // namespace

StatusOr<std::shared_ptr<grpc::Channel>> MakeServerChannel(const ClientOptions& options) {
  if (!options.token.empty() && options.tls_ca_file.empty() && !IsLocalTarget(options.server) &&
      !options.allow_plaintext_token) {
    return InvalidArgumentError(
        "the bearer token would travel in plaintext to " + options.server +
        ", which is not on this host; give --tls-ca (TLS), or --allow-plaintext-token to send it "
        "anyway (a private network, or a proxy that terminates TLS)");
  }
  if (options.tls_cert_file.empty() != options.tls_key_file.empty()) {
    return InvalidArgumentError("--tls-cert and --tls-key: give both or neither");
  }
  if (!options.tls_cert_file.empty() && options.tls_ca_file.empty()) {
    return InvalidArgumentError("--tls-cert: needs --tls-ca (a client certificate is TLS)");
  }
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!options.tls_ca_file.empty()) {
    grpc::SslCredentialsOptions ssl;
    ASSIGN_OR_RETURN(ssl.pem_root_certs, ReadFile(options.tls_ca_file, "TLS CA file"));
    if (!options.tls_cert_file.empty()) {
      ASSIGN_OR_RETURN(ssl.pem_cert_chain, ReadFile(options.tls_cert_file, "TLS certificate file"));
      ASSIGN_OR_RETURN(ssl.pem_private_key, ReadFile(options.tls_key_file, "TLS key file"));
    }
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments args;
  // GRPC_ARG_MIN_RECONNECT_BACKOFF_MS stays at its default: gRPC also uses it as the minimum
  // connect timeout, and a small one aborts handshakes with a server that is just starting.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, Millis(options.reconnect_initial_seconds));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, Millis(options.reconnect_max_seconds));
  return grpc::CreateCustomChannel(options.server, credentials, args);
}

}  // namespace warpwatch::worker
