// File: server/auth/authorizer.cc
#include "server/auth/authorizer.h"

#include <cctype>
#include <string>

namespace warpwatch::server::auth {
namespace {

constexpr std::string_view kMetadataKey = "authorization";

// The token of "Bearer <token>" (scheme case-insensitive); empty when the header is not that.
std::string_view BearerToken(std::string_view header) {
  constexpr std::string_view kScheme = "bearer ";
  if (header.size() <= kScheme.size()) return {};
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(header[i])) != kScheme[i]) return {};
  }
  std::string_view token = header.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  return token;
}

}  // namespace

Authorizer::Authorizer(const TokenTable& tokens) : open_(false) {
  tokens_.reserve(tokens.size());
  for (const auto& [token, principal] : tokens) tokens_.push_back({DigestToken(token), principal});
}

StatusOr<Principal> Authorizer::Authorize(std::string_view authorization_header,
                                          std::string_view method) const {
  if (open()) return Principal{kAnonymousName, Role::kAdmin};
  std::string_view token = BearerToken(authorization_header);
  if (token.empty()) {
    return UnauthenticatedError(
        "missing bearer token (metadata \"authorization: Bearer <token>\")");
  }
  // Every entry is compared, with no early exit: the time taken does not depend on which token,
  // if any, matched, nor on how much of it.
  const TokenDigest digest = DigestToken(token);
  const Principal* found = nullptr;
  for (const Entry& entry : tokens_) {
    if (DigestsEqual(entry.digest, digest)) found = &entry.principal;
  }
  if (found == nullptr) return UnauthenticatedError("unknown bearer token");
  const Principal& principal = *found;
  if (!RoleAllows(principal.role, method)) {
    return PermissionDeniedError("role " + std::string(RoleName(principal.role)) + " of \"" +
                                 principal.name + "\" may not call " + std::string(method));
  }
  return principal;
}

StatusOr<Principal> Authorizer::Authorize(const grpc::ServerContextBase& context,
                                          std::string_view method) const {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find(grpc::string_ref(kMetadataKey.data(), kMetadataKey.size()));
  std::string_view header;
  if (it != metadata.end()) header = std::string_view(it->second.data(), it->second.size());
  return Authorize(header, method);
}

}  // namespace warpwatch::server::auth
