// File: worker/client/channel.cc
#include "worker/client/channel.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>

#include <fstream>
#include <sstream>
#include <string>

namespace warpwatch::worker {
namespace {

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot read TLS CA file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) return InvalidArgumentError("TLS CA file " + path + " is empty");
  return text.str();
}

int Millis(double seconds) { return static_cast<int>(seconds * 1000); }

}  // namespace

StatusOr<std::shared_ptr<grpc::Channel>> MakeServerChannel(const ClientOptions& options) {
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!options.tls_ca_file.empty()) {
    ASSIGN_OR_RETURN(std::string ca, ReadFile(options.tls_ca_file));
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ca;
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
