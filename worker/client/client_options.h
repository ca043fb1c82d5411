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
  std::string tls_cert_file;   // PEM client certificate (servers that require mTLS); needs CA
  std::string tls_key_file;    // PEM private key of tls_cert_file
  // Send the token without TLS to a server that is not on this host (a private network or a
  // TLS-terminating proxy); refused otherwise.
  bool allow_plaintext_token = false;
  double call_timeout_seconds = 10;   // deadline of every unary call except AcquireJob
  double acquire_extra_seconds = 10;  // AcquireJob deadline = wait_seconds + this
  // gRPC's own channel reconnect pacing (its default grows to 120 s, far longer than the daemon's
  // backoff): kept at the daemon's backoff bounds so a returning server is seen promptly.
  double reconnect_initial_seconds = 0.2;
  double reconnect_max_seconds = 10;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLIENT_CLIENT_OPTIONS_H_
