// File: server/tls/server_credentials.h
// gRPC server credentials from the TLS flags: plaintext, TLS, or mutual TLS.
#ifndef WARPWATCH_SERVER_TLS_SERVER_CREDENTIALS_H_
#define WARPWATCH_SERVER_TLS_SERVER_CREDENTIALS_H_

#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <string>

#include "common/status/status.h"

namespace warpwatch::server::tls {

struct TlsFiles {
  std::string cert;       // PEM certificate chain; empty = plaintext (then key and client_ca too)
  std::string key;        // PEM private key of cert
  std::string client_ca;  // PEM CA bundle; set = clients must present a certificate it signed
};

// Insecure credentials when files.cert is empty; TLS otherwise; mTLS (client certificate required
// and verified) when client_ca is set. NOT_FOUND naming the file when one cannot be read,
// INVALID_ARGUMENT when one holds no PEM block. Certificate/key mismatches surface when the
// server starts listening (grpc refuses to bind).
StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const TlsFiles& files);

// Reads a whole file. NOT_FOUND naming it when it cannot be read.
StatusOr<std::string> ReadPemFile(const std::string& path, const std::string& what);

}  // namespace warpwatch::server::tls

#endif  // WARPWATCH_SERVER_TLS_SERVER_CREDENTIALS_H_
