// File: server/auth/token_digest.cc
#include "server/auth/token_digest.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

namespace warpwatch::server::auth {

TokenDigest DigestToken(std::string_view token) {
  TokenDigest digest;
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), digest.data());
  return digest;
}

bool DigestsEqual(const TokenDigest& a, const TokenDigest& b) {
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace warpwatch::server::auth
