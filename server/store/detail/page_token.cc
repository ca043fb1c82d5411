// File: server/store/detail/page_token.cc
// Token layout: "p1." + base64url(fingerprint as 16 hex digits, then each part as
// "<length>:<bytes>"), so parts may hold any bytes.
#include "server/store/detail/page_token.h"

#include <charconv>
#include <cstdio>

namespace warpwatch::server::detail {
namespace {

constexpr std::string_view kPrefix = "p1.";
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

Status Malformed() { return InvalidArgumentError("page_token: malformed"); }

}  // namespace

std::string Base64Url(std::string_view in) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : in) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(buffer >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 63];
  return out;
}

bool FromBase64Url(std::string_view in, std::string* out) {
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '-')
      v = 62;
    else if (c == '_')
      v = 63;
    else
      return false;
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return true;
}

FilterFingerprint& FilterFingerprint::Add(std::string_view part) {
  // Length first, so ("ab", "c") and ("a", "bc") differ.
  const std::string length = std::to_string(part.size()) + ":";
  for (std::string_view s : {std::string_view(length), part}) {
    for (unsigned char c : s) {
      hash_ ^= c;
      hash_ *= 1099511628211ull;
    }
  }
  return *this;
}

FilterFingerprint& FilterFingerprint::Add(int64_t part) { return Add(std::to_string(part)); }

std::string EncodePageToken(const std::vector<std::string>& position,
                            const FilterFingerprint& filters) {
  char fingerprint[17];
  std::snprintf(fingerprint, sizeof(fingerprint), "%016llx",
                static_cast<unsigned long long>(filters.value()));
  std::string payload = fingerprint;
  for (const std::string& part : position) payload += std::to_string(part.size()) + ":" + part;
  return std::string(kPrefix) + Base64Url(payload);
}

StatusOr<std::vector<std::string>> DecodePageToken(const std::string& token,
                                                   const FilterFingerprint& filters, size_t parts) {
  if (token.rfind(kPrefix, 0) != 0) return Malformed();
  std::string payload;
  if (!FromBase64Url(std::string_view(token).substr(kPrefix.size()), &payload)) return Malformed();
  if (payload.size() < 16) return Malformed();
  char fingerprint[17];
  std::snprintf(fingerprint, sizeof(fingerprint), "%016llx",
                static_cast<unsigned long long>(filters.value()));
  if (payload.compare(0, 16, fingerprint) != 0) {
    return InvalidArgumentError(
        "page_token: from a request with other filters; repeat the first request's filters, or "
        "start again without a token");
  }
  std::vector<std::string> out;
  size_t at = 16;
  while (at < payload.size()) {
    const size_t colon = payload.find(':', at);
    if (colon == std::string::npos) return Malformed();
    size_t length = 0;
    const auto [end, error] = std::from_chars(payload.data() + at, payload.data() + colon, length);
    if (error != std::errc() || end != payload.data() + colon) return Malformed();
    if (length > payload.size() - colon - 1) return Malformed();
    out.push_back(payload.substr(colon + 1, length));
    at = colon + 1 + length;
  }
  if (out.size() != parts) return Malformed();
  return out;
}

StatusOr<int64_t> PositiveIdFromPart(const std::string& part) {
  int64_t id = 0;
  const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), id);
  if (part.empty() || error != std::errc() || end != part.data() + part.size() || id <= 0) {
    return Malformed();
  }
  return id;
}

}  // namespace warpwatch::server::detail
