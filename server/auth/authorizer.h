// File: server/auth/authorizer.h
// Decides, at the top of each RPC handler, who is calling and whether they may call this method.
#ifndef WARPWATCH_SERVER_AUTH_AUTHORIZER_H_
#define WARPWATCH_SERVER_AUTH_AUTHORIZER_H_

#include <grpcpp/server_context.h>

#include <chrono>
#include <functional>
#include <string_view>
#include <unordered_map>

#include "common/status/status.h"
#include "server/auth/token_digest.h"
#include "server/auth/token_file.h"

namespace warpwatch::server::auth {

// Name given to callers of an open server (Job.submitted_by).
inline constexpr const char* kAnonymousName = "anonymous";

// Immutable after construction; thread-safe.
class Authorizer {
 public:
  // Open mode: every call is allowed, as an admin named "anonymous".
  Authorizer() = default;
  using Clock = std::function<std::chrono::system_clock::time_point()>;
  // Token mode: callers must send "authorization: Bearer <token>" with a token of `tokens`.
  // Only the tokens' SHA-256 digests are kept (token_digest.h). `now` tells expiry (tests pass a
  // fake clock).
  explicit Authorizer(const TokenTable& tokens, Clock now = std::chrono::system_clock::now);

  bool open() const { return open_; }

  // The principal of the call when it may call `method` (full path, "/pkg.Service/Method").
  // UNAUTHENTICATED without a bearer token, with an unknown one or an expired one (the message
  // names the token's principal and when it expired, never the token); PERMISSION_DENIED when
  // the token's role does not allow the method. The presented token is looked up by its SHA-256
  // digest: how long the lookup takes depends on the digest's hash, which a caller cannot steer
  // towards a valid token without a SHA-256 preimage, and never on how much of a guessed token
  // matched; one lookup whatever the number of tokens.
  StatusOr<Principal> Authorize(std::string_view authorization_header,
                                std::string_view method) const;
  // Same, reading the header from the call's metadata.
  StatusOr<Principal> Authorize(const grpc::ServerContextBase& context,
                                std::string_view method) const;

 private:
  struct DigestHash {
    size_t operator()(const TokenDigest& digest) const;
  };
  struct DigestEqual {  // constant time, as token_digest.h
    bool operator()(const TokenDigest& a, const TokenDigest& b) const { return DigestsEqual(a, b); }
  };
  bool open_ = true;
  Clock now_;
  std::unordered_map<TokenDigest, Principal, DigestHash, DigestEqual> tokens_;
};

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_AUTHORIZER_H_
