// File: server/auth/authorizer.cc
#include "server/auth/authorizer.h"

#include <cctype>
#include <cstring>
#include <ctime>
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

std::string FormatUtc(std::chrono::system_clock::time_point at) {
  const std::time_t t = std::chrono::system_clock::to_time_t(at);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

size_t Authorizer::DigestHash::operator()(const TokenDigest& digest) const {
  size_t hash;
  std::memcpy(&hash, digest.data(), sizeof hash);  // a SHA-256 digest is already well mixed
  return hash;
}

Authorizer::Authorizer(const TokenTable& tokens, Clock now) : open_(false), now_(std::move(now)) {
  tokens_.reserve(tokens.size());
  for (const auto& [token, principal] : tokens) tokens_.emplace(DigestToken(token), principal);
}

StatusOr<Principal> Authorizer::Authorize(std::string_view authorization_header,
                                          std::string_view method) const {
  if (open()) return Principal{kAnonymousName, Role::kAdmin, std::nullopt};
  std::string_view token = BearerToken(authorization_header);
  if (token.empty()) {
    return UnauthenticatedError(
        "missing bearer token (metadata \"authorization: Bearer <token>\")");
  }
  auto found = tokens_.find(DigestToken(token));
  if (found == tokens_.end()) return UnauthenticatedError("unknown bearer token");
  const Principal& principal = found->second;
  if (principal.expires_at && now_() >= *principal.expires_at) {
    return UnauthenticatedError("bearer token of \"" + principal.name + "\" expired at " +
                                FormatUtc(*principal.expires_at));
  }
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
