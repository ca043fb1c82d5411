// File: server/store/detail/page_token.h
// Opaque page tokens: the keyset position where the next page starts, bound to a fingerprint of
// the query's filters, so a token is refused when reused with other filters (AIP-158) instead of
// silently paging a different result. Not a secret: tampering only moves the position.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PAGE_TOKEN_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PAGE_TOKEN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::server::detail {

// Builds a fingerprint of a query's filters from its parts (order matters). Stable across
// processes and versions of this server.
class FilterFingerprint {
 public:
  FilterFingerprint& Add(std::string_view part);
  FilterFingerprint& Add(int64_t part);
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 14695981039346656037ull;  // FNV-1a 64
};

// The token of a page that ends at `position` (keyset parts, each any bytes).
std::string EncodePageToken(const std::vector<std::string>& position,
                            const FilterFingerprint& filters);

// The position of a token from EncodePageToken with the same filters, with `parts` parts.
// INVALID_ARGUMENT "page_token: ..." for a malformed token, or one from a query with other
// filters.
StatusOr<std::vector<std::string>> DecodePageToken(const std::string& token,
                                                   const FilterFingerprint& filters, size_t parts);

// The token's text encoding, exposed for tests and fuzzers that build tokens by hand: base64url
// without padding, and back (false on a character outside the alphabet; trailing bits that do
// not make a byte are dropped).
std::string Base64Url(std::string_view bytes);
bool FromBase64Url(std::string_view text, std::string* bytes);

// A positive int64 from a decoded part; INVALID_ARGUMENT for anything else (no overflow: 19+
// digit values past INT64_MAX are refused).
StatusOr<int64_t> PositiveIdFromPart(const std::string& part);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PAGE_TOKEN_H_
