// File: worker/client/channel.h
// The gRPC channel to the server: plaintext or TLS, with reconnect pacing from ClientOptions.
#ifndef WARPWATCH_WORKER_CLIENT_CHANNEL_H_
#define WARPWATCH_WORKER_CLIENT_CHANNEL_H_

#include <grpcpp/channel.h>

#include <memory>

#include "common/status/status.h"
#include "worker/client/client_options.h"

namespace warpwatch::worker {

// A channel to options.server. With tls_ca_file set, TLS verified against that CA, presenting
// tls_cert_file/tls_key_file when set (mTLS). NOT_FOUND when a file cannot be read;
// INVALID_ARGUMENT when one is empty, for a certificate without its key (or the reverse) or
// without a CA, and for a token that would travel in plaintext to a server that is not on this
// host (common/net/local_target.h) unless allow_plaintext_token. The channel connects lazily: an
// unreachable server is not an error here; calls then answer UNAVAILABLE.
StatusOr<std::shared_ptr<grpc::Channel>> MakeServerChannel(const ClientOptions& options);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLIENT_CHANNEL_H_
