// File: server/auth/authorizer.h
// Decides, at the top of each RPC handler, who is calling and whether they may call this method.
#ifndef WARPWATCH_SERVER_AUTH_AUTHORIZER_H_
#define WARPWATCH_SERVER_AUTH_AUTHORIZER_H_

#include <grpcpp/server_context.h>

#include <optional>
#include <string_view>

#include "common/status/status.h"
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
  explicit Authorizer(TokenTable tokens) : tokens_(std::move(tokens)) {}

  bool open() const { return !tokens_.has_value(); }

  // The principal of the call when it may call `method` (full path, "/pkg.Service/Method").
  // UNAUTHENTICATED without a bearer token or with an unknown one; PERMISSION_DENIED when the
  // token's role does not allow the method.
  StatusOr<Principal> Authorize(std::string_view authorization_header,
                                std::string_view method) const;
  // Same, reading the header from the call's metadata.
  StatusOr<Principal> Authorize(const grpc::ServerContextBase& context,
                                std::string_view method) const;

 private:
  std::optional<TokenTable> tokens_;
};

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_AUTHORIZER_H_
