// File: tests/fuzz/token_file_fuzzer.cc
// The tokens file parser (server/auth/token_file) on arbitrary text: no crash, every entry it
// accepts obeys the format, and no error message shows a token-shaped secret of the file (the
// server logs these messages at start-up).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/auth/token_file.h"
#include "tests/fuzz/detail/secret_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using warpwatch::server::auth::ParseTokenFile;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto table = ParseTokenFile(text, "tokens");
  if (!table.ok()) {
    // The character classes quoted in the format errors are the code's own text.
    warpwatch::fuzz::CheckNoSecretEchoed(text, table.status().message(),
                                         {"[A-Za-z0-9._~+/=-]", "[A-Za-z0-9._@-]"});
    return 0;
  }
  if (table->empty()) std::abort();  // an empty table must be an error
  for (const auto& [token, principal] : *table) {
    if (token.size() < 16 || principal.name.empty()) std::abort();
    if (text.find(token) == std::string::npos) std::abort();
  }
  return 0;
}
