// File: server/tls/server_credentials.cc
#include "server/tls/server_credentials.h"

#include <grpcpp/security/server_credentials.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace warpwatch::server::tls {

StatusOr<std::string> ReadPemFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError(what + " " + path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().find("-----BEGIN ") == std::string::npos) {
    return InvalidArgumentError(what + " " + path + ": no PEM block");
  }
  return text.str();
}

StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const TlsFiles& files) {
  if (files.cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options;
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  ASSIGN_OR_RETURN(pair.cert_chain, ReadPemFile(files.cert, "--tls-cert"));
  ASSIGN_OR_RETURN(pair.private_key, ReadPemFile(files.key, "--tls-key"));
  options.pem_key_cert_pairs.push_back(std::move(pair));
  if (!files.client_ca.empty()) {
    ASSIGN_OR_RETURN(options.pem_root_certs, ReadPemFile(files.client_ca, "--tls-client-ca"));
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace warpwatch::server::tls
