// File: worker/client/client_options.h
// How the worker reaches the server: address, bearer token, TLS, call deadlines, reconnect pacing.
#ifndef WARPWATCH_WORKER_CLIENT_CLIENT_OPTIONS_H_
#define WARPWATCH_WORKER_CLIENT_CLIENT_OPTIONS_H_

#include <string>

namespace warpwatch::worker {

struct ClientOptions {
  std::string server;          // "host:port" (a gRPC target)
  std::string token;           // sent as "authorization: Bearer <token>"; empty = none
  std::string tls_ca_file;     // PEM CA to verify the server with; empty = plaintext
  double call_timeout_seconds = 10;   // deadline of every unary call except AcquireJob
  double acquire_extra_seconds = 10;  // AcquireJob deadline = wait_seconds + this
  // gRPC's own channel reconnect pacing (its default grows to 120 s, far longer than the daemon's
  // backoff): kept at the daemon's backoff bounds so a returning server is seen promptly.
  double reconnect_initial_seconds = 0.2;
  double reconnect_max_seconds = 10;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLIENT_CLIENT_OPTIONS_H_
