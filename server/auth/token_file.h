// File: server/auth/token_file.h
// The bearer tokens file: who may call the server, and as what.
//
// Format, one token per line:
//   # comment (whole line; blank lines are ignored too)
//   <token> <role> <name> [expires=<YYYY-MM-DDTHH:MM:SSZ>]
// token: at least 16 characters from [A-Za-z0-9._~+/=-] (no spaces); role: reader, submitter,
// worker or admin (auth/role.h); name: [A-Za-z0-9._@-]+, recorded as Job.submitted_by and in logs;
// expires (optional, UTC): from that instant on the token is refused as expired, so a token handed
// to a contractor or a CI system can run out without an edit and a restart. A token may appear
// once. Errors never quote a field that could be a token. Example:
//   9f2c1e7a55d04b8e8c1f3a2b  submitter  ci-nightly  expires=2027-01-31T00:00:00Z
#ifndef WARPWATCH_SERVER_AUTH_TOKEN_FILE_H_
#define WARPWATCH_SERVER_AUTH_TOKEN_FILE_H_

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "common/status/status.h"
#include "server/auth/role.h"

namespace warpwatch::server::auth {

// The caller an RPC runs for.
struct Principal {
  std::string name;
  Role role = Role::kReader;
  // When the token stops being accepted; nullopt: never.
  std::optional<std::chrono::system_clock::time_point> expires_at;
};

// "2027-01-31T00:00:00Z" -> that instant; nullopt unless exactly that form and a real date.
std::optional<std::chrono::system_clock::time_point> ParseUtcTimestamp(const std::string& text);

// token -> principal.
using TokenTable = std::map<std::string, Principal>;

// Parses the file's text. INVALID_ARGUMENT "<source>:<line>: <what is wrong>" on the first bad
// line, and for a file without any token (an empty tokens file would lock everyone out silently).
StatusOr<TokenTable> ParseTokenFile(const std::string& text, const std::string& source);

// Reads and parses `path`. NOT_FOUND when it cannot be read.
StatusOr<TokenTable> LoadTokenFile(const std::string& path);

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_TOKEN_FILE_H_
