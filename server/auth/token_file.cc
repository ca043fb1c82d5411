// File: server/auth/token_file.cc
#include "server/auth/token_file.h"

#include <cctype>
#include <cerrno>
#include <cstring>
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

}  // namespace

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
    if (parts.size() != 3) {
      return InvalidArgumentError(where + "expected \"<token> <role> <name>\", got " +
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
    if (!table.emplace(token, Principal{parts[2], *role}).second) {
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
