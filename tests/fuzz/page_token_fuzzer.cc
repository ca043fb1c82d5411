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
#include <string>
#include <vector>

#include "server/store/detail/page_token.h"

namespace {

// "p1." + base64url(payload of `token` + extra).
std::string WithPayload(const std::string& token, const std::string& extra) {
  using warpwatch::server::detail::Base64Url;
  using warpwatch::server::detail::FromBase64Url;
  std::string payload;
  if (!FromBase64Url(token.substr(3), &payload)) std::abort();  // the server's own token
  return "p1." + Base64Url(payload + extra);
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
