// File: tests/fuzz/page_token_fuzzer.cc
// Page tokens (server/store/detail/page_token) as a client sends them: any bytes, decoded under
// fixed filters. No crash; a token that decodes re-encodes to a token that decodes to the same
// position (the round trip the server relies on); PositiveIdFromPart on every part accepts only
// positive int64s. The first byte picks how many parts the query expects (1 to 4, low bits) and
// whether the rest is the token itself or, so that the fuzzer reaches the parts' parsing without
// having to guess the filters' fingerprint, the payload to put behind a valid prefix and
// fingerprint (high bit).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "server/store/detail/page_token.h"

namespace {

// Base64url (no padding) of bytes, and back: enough of the token layout (page_token.cc) to append
// raw bytes to an encoded payload.
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Decode(const std::string& in) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    const char* at = std::strchr(kAlphabet, c);
    if (c == '\0' || at == nullptr) continue;
    buffer = (buffer << 6) | static_cast<uint32_t>(at - kAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

std::string Encode(const std::string& in) {
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

// "p1." + base64url(payload of `token` + extra).
std::string WithPayload(const std::string& token, const std::string& extra) {
  return "p1." + Encode(Decode(token.substr(3)) + extra);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using warpwatch::server::detail::DecodePageToken;
  using warpwatch::server::detail::EncodePageToken;
  using warpwatch::server::detail::FilterFingerprint;
  using warpwatch::server::detail::PositiveIdFromPart;
  if (size == 0) return 0;
  const size_t parts = 1 + data[0] % 4;
  const bool payload_mode = (data[0] & 0x80) != 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  FilterFingerprint filters;
  filters.Add("fuzz").Add(int64_t{42});
  std::string token = rest;
  if (payload_mode) {
    // A token with no parts carries the fingerprint alone: re-encode it with `rest` appended.
    token = WithPayload(EncodePageToken({}, filters), rest);
  }

  auto position = DecodePageToken(token, filters, parts);
  if (!position.ok()) return 0;
  if (position->size() != parts) std::abort();
  for (const std::string& part : *position) {
    auto id = PositiveIdFromPart(part);
    if (id.ok() && *id <= 0) std::abort();
  }
  const std::string again = EncodePageToken(*position, filters);
  auto round_trip = DecodePageToken(again, filters, parts);
  if (!round_trip.ok() || *round_trip != *position) std::abort();
  // Another query's filters must refuse it.
  FilterFingerprint other;
  other.Add("fuzz").Add(int64_t{43});
  if (DecodePageToken(again, other, parts).ok()) std::abort();
  return 0;
}
