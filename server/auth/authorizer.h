// File: server/auth/authorizer.h
// Decides, at the top of each RPC handler, who is calling and whether they may call this method.
#ifndef WARPWATCH_SERVER_AUTH_AUTHORIZER_H_
#define WARPWATCH_SERVER_AUTH_AUTHORIZER_H_

#include <grpcpp/server_context.h>

#include <string_view>
#include <vector>

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
  // Token mode: callers must send "authorization: Bearer <token>" with a token of `tokens`.
  // Only the tokens' SHA-256 digests are kept (token_digest.h).
  explicit Authorizer(const TokenTable& tokens);

  bool open() const { return open_; }

  // The principal of the call when it may call `method` (full path, "/pkg.Service/Method").
  // UNAUTHENTICATED without a bearer token or with an unknown one; PERMISSION_DENIED when the
  // token's role does not allow the method. The presented token's digest is compared with every
  // known digest in constant time, whichever matches.
  StatusOr<Principal> Authorize(std::string_view authorization_header,
                                std::string_view method) const;
  // Same, reading the header from the call's metadata.
  StatusOr<Principal> Authorize(const grpc::ServerContextBase& context,
                                std::string_view method) const;

 private:
  struct Entry {
    TokenDigest digest;
    Principal principal;
  };
  bool open_ = true;
  std::vector<Entry> tokens_;
};

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_AUTHORIZER_H_
