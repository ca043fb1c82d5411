// File: server/auth/token_file.cc
#include "server/auth/token_file.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

namespace warpwatch::server::auth {
namespace {

constexpr size_t kMinTokenLength = 16;

bool IsTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._~+/=-", c) != nullptr;
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._@-", c) != nullptr;
}

template <typename Pred>
bool All(const std::string& s, Pred pred) {
  for (char c : s) {
    if (!pred(c)) return false;
  }
  return !s.empty();
}

constexpr std::string_view kExpiresPrefix = "expires=";

}  // namespace

std::optional<std::chrono::system_clock::time_point> ParseUtcTimestamp(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char zone = 0;
  int consumed = 0;
  if (text.size() != 20 ||
      std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &year, &month, &day, &hour, &minute,
                  &second, &zone, &consumed) != 7 ||
      consumed != 20 || zone != 'Z') {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  const std::time_t t = timegm(&tm);
  // timegm normalises 2027-02-30 to March 2: a date that moved was not a real one.
  std::tm back{};
  if (t == static_cast<std::time_t>(-1) || gmtime_r(&t, &back) == nullptr ||
      back.tm_year != year - 1900 || back.tm_mon != month - 1 || back.tm_mday != day ||
      back.tm_hour != hour || back.tm_min != minute || back.tm_sec != second) {
    return std::nullopt;
  }
  return std::chrono::system_clock::from_time_t(t);
}

StatusOr<TokenTable> ParseTokenFile(const std::string& text, const std::string& source) {
  TokenTable table;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number) + ": ";
    std::istringstream fields(line);
    std::vector<std::string> parts;
    for (std::string part; fields >> part;) parts.push_back(part);
    if (parts.empty() || parts[0][0] == '#') continue;
    if (parts.size() != 3 && parts.size() != 4) {
      return InvalidArgumentError(where + "expected \"<token> <role> <name> [expires=<UTC time>]\", got " +
                                  std::to_string(parts.size()) + " fields");
    }
    const std::string& token = parts[0];
    if (token.size() < kMinTokenLength || !All(token, IsTokenChar)) {
      return InvalidArgumentError(where + "token must be at least " +
                                  std::to_string(kMinTokenLength) +
                                  " characters of [A-Za-z0-9._~+/=-]");
    }
    std::optional<Role> role = ParseRole(parts[1]);
    if (!role) {
      // The message reaches the server's log: a role field as long as a token may be one (the
      // columns swapped), so only a short one is quoted.
      const std::string shown = parts[1].size() < kMinTokenLength
                                    ? "\"" + parts[1] + "\""
                                    : "(" + std::to_string(parts[1].size()) +
                                          " characters, not shown: it may be a token)";
      return InvalidArgumentError(where + "unknown role " + shown +
                                  " (reader, submitter, worker, admin)");
    }
    if (!All(parts[2], IsNameChar)) {
      return InvalidArgumentError(where + "name must be [A-Za-z0-9._@-]+");
    }
    Principal principal{parts[2], *role, std::nullopt};
    if (parts.size() == 4) {
      const std::string& field = parts[3];
      if (field.compare(0, kExpiresPrefix.size(), kExpiresPrefix) != 0) {
        return InvalidArgumentError(where + "fourth field must be expires=<YYYY-MM-DDTHH:MM:SSZ>");
      }
      principal.expires_at = ParseUtcTimestamp(field.substr(kExpiresPrefix.size()));
      if (!principal.expires_at) {
        return InvalidArgumentError(where + "expires must be a UTC time YYYY-MM-DDTHH:MM:SSZ");
      }
    }
    if (!table.emplace(token, std::move(principal)).second) {
      return InvalidArgumentError(where + "token already listed on an earlier line");
    }
  }
  if (table.empty()) {
    return InvalidArgumentError(source + ": no tokens (every call would be refused); " +
                                "omit --tokens-file to run open");
  }
  return table;
}

StatusOr<TokenTable> LoadTokenFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return NotFoundError("tokens file " + path + ": cannot open: " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseTokenFile(text.str(), path);
}

}  // namespace warpwatch::server::auth
