// File: tests/fuzz/detail/secret_check.h
// The fuzzers' check that an error message never echoes a token-shaped secret from the input:
// a run of 16 or more characters of the tokens file's token alphabet ([A-Za-z0-9._~+/=-],
// server/auth/token_file.h) is what a bearer token looks like, wherever it was pasted.
#ifndef WARPWATCH_TESTS_FUZZ_DETAIL_SECRET_CHECK_H_
#define WARPWATCH_TESTS_FUZZ_DETAIL_SECRET_CHECK_H_

#include <string>
#include <string_view>
#include <vector>

namespace warpwatch::fuzz {

// The maximal runs of token characters of at least `min_length` in `text`.
std::vector<std::string> TokenShapedRuns(std::string_view text, size_t min_length = 16);

// Aborts (a fuzzer crash, printing the message without the secret's middle) when `message`
// contains a token-shaped run of `input`. Runs that are part of message text the code always
// writes (`allowed`, e.g. a character class quoted in the message) are not secrets.
void CheckNoSecretEchoed(std::string_view input, std::string_view message,
                         const std::vector<std::string_view>& allowed = {});

}  // namespace warpwatch::fuzz

#endif  // WARPWATCH_TESTS_FUZZ_DETAIL_SECRET_CHECK_H_
