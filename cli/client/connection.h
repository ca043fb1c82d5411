// File: cli/client/connection.h
// How the CLI reaches the server: the shared flags (--server, --token-file, --tls-*, --json), the
// channel they describe, and per-call contexts carrying the bearer token and a deadline.
// The token never comes from the command line (every user of the host can read it in ps): it is
// read from --token-file (WARPWATCH_TOKEN_FILE) or the WARPWATCH_TOKEN environment variable.
#ifndef WARPWATCH_CLI_CLIENT_CONNECTION_H_
#define WARPWATCH_CLI_CLIENT_CONNECTION_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <chrono>
#include <memory>
#include <string>

#include "common/status/status.h"

namespace CLI {
class App;
}  // namespace CLI

namespace warpwatch::cli {

struct ClientOptions {
  std::string server = "localhost:50051";  // host:port
  std::string token;                       // bearer token; empty = none
  std::string token_file;                  // file the token was read from (whitespace trimmed)
  bool allow_plaintext_token = false;      // send the token without TLS to a non-local server
  std::string tls_ca;                      // PEM CA to verify the server; set = TLS
  std::string tls_cert;                    // PEM client certificate (mTLS)
  std::string tls_key;                     // PEM key of tls_cert
  bool json = false;                       // protobuf JSON on stdout instead of tables
};

// Registers the shared flags on `app` (WARPWATCH_SERVER, WARPWATCH_TOKEN_FILE, WARPWATCH_TLS_CA,
// WARPWATCH_TLS_CERT, WARPWATCH_TLS_KEY as fallbacks) and takes the token from WARPWATCH_TOKEN.
// --token-file is read while parsing (a usage error when it cannot be). A --token flag is refused
// with a usage error naming the alternatives. `options` must outlive parsing.
void AddClientFlags(CLI::App& app, ClientOptions* options);

// An open channel to the server (TLS when tls_ca is set). NOT_FOUND when a TLS file cannot be
// read, INVALID_ARGUMENT for a client certificate without its key, and for a token that would
// travel in plaintext to a server that is not on this host (without --allow-plaintext-token).
// Connecting happens lazily.
StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const ClientOptions& options);

// A context with the bearer token (when set) and a deadline `timeout` from now
// (no deadline when timeout is zero: streams that last as long as a job).
std::unique_ptr<grpc::ClientContext> MakeContext(const ClientOptions& options,
                                                 std::chrono::milliseconds timeout);

// Deadline of unary calls.
inline constexpr std::chrono::milliseconds kCallTimeout{15000};

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_CLIENT_CONNECTION_H_
