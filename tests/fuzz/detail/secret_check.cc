// File: tests/fuzz/detail/secret_check.cc
#include "tests/fuzz/detail/secret_check.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warpwatch::fuzz {
namespace {

bool IsTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._~+/=-", c) != nullptr;
}

}  // namespace

std::vector<std::string> TokenShapedRuns(std::string_view text, size_t min_length) {
  std::vector<std::string> runs;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\0' && IsTokenChar(text[i])) continue;
    if (i - start >= min_length) runs.emplace_back(text.substr(start, i - start));
    start = i + 1;
  }
  return runs;
}

void CheckNoSecretEchoed(std::string_view input, std::string_view message,
                         const std::vector<std::string_view>& allowed) {
  std::string scrubbed(message);
  for (std::string_view phrase : allowed) {
    for (size_t at = scrubbed.find(phrase); at != std::string::npos; at = scrubbed.find(phrase)) {
      scrubbed.replace(at, phrase.size(), " ");
    }
  }
  for (const std::string& run : TokenShapedRuns(input)) {
    // Any 16 consecutive characters of a secret are too many to show.
    for (size_t i = 0; i + 16 <= run.size(); ++i) {
      if (scrubbed.find(run.substr(i, 16)) != std::string::npos) {
        std::fprintf(stderr, "secret echoed: the error message shows 16+ characters (%.4s...) of a "
                             "token-shaped input\n", run.c_str() + i);
        std::abort();
      }
    }
  }
}

}  // namespace warpwatch::fuzz
