// File: server/auth/token_digest.h
// Bearer tokens are kept and compared as SHA-256 digests: the server holds no token text after
// start, and comparing fixed-size digests in constant time leaks nothing about how much of a
// guessed token matched (a std::map lookup on the token text does).
#ifndef WARPWATCH_SERVER_AUTH_TOKEN_DIGEST_H_
#define WARPWATCH_SERVER_AUTH_TOKEN_DIGEST_H_

#include <array>
#include <string_view>

namespace warpwatch::server::auth {

using TokenDigest = std::array<unsigned char, 32>;

// SHA-256 of `token`.
TokenDigest DigestToken(std::string_view token);

// a == b, in time independent of where they differ.
bool DigestsEqual(const TokenDigest& a, const TokenDigest& b);

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_TOKEN_DIGEST_H_
