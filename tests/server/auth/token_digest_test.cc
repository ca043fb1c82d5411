// File: tests/server/auth/token_digest_test.cc
// Tokens are held as SHA-256 digests and matched by digest (server/auth/token_digest.h).
#include "server/auth/token_digest.h"

#include <gtest/gtest.h>

#include "server/auth/authorizer.h"

namespace warpwatch::server::auth {
namespace {

constexpr std::string_view kTokenDigestMethod = "/warpwatch.v1.JobService/GetJob";

TEST(TokenDigestTest, IsTheSha256OfTheToken) {
  // SHA-256("abc"), FIPS 180-2 appendix B.1.
  const TokenDigest d = DigestToken("abc");
  const unsigned char expected[] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                    0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                    0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  EXPECT_TRUE(std::equal(d.begin(), d.end(), std::begin(expected)));
  EXPECT_TRUE(DigestsEqual(d, DigestToken("abc")));
  EXPECT_FALSE(DigestsEqual(d, DigestToken("abd")));
}

TEST(TokenDigestTest, TokensDifferingOnlyInTheirLastCharacterAreTwoPrincipals) {
  TokenTable tokens;
  tokens["prefix-shared-token-A"] = Principal{"alice", Role::kReader, std::nullopt};
  tokens["prefix-shared-token-B"] = Principal{"bob", Role::kReader, std::nullopt};
  const Authorizer authorizer(tokens);
  auto alice = authorizer.Authorize("Bearer prefix-shared-token-A", kTokenDigestMethod);
  auto bob = authorizer.Authorize("Bearer prefix-shared-token-B", kTokenDigestMethod);
  ASSERT_TRUE(alice.ok() && bob.ok());
  EXPECT_EQ(alice->name, "alice");
  EXPECT_EQ(bob->name, "bob");
  EXPECT_EQ(
      authorizer.Authorize("Bearer prefix-shared-token-C", kTokenDigestMethod).status().code(),
      StatusCode::kUnauthenticated);
  EXPECT_EQ(authorizer.Authorize("Bearer prefix-shared-token-", kTokenDigestMethod).status().code(),
            StatusCode::kUnauthenticated);
}

}  // namespace
}  // namespace warpwatch::server::auth
