// PrincipalRate and PrincipalSlots (server/service/detail): per-principal bounds with a fake clock.
#include "server/service/detail/principal_rate.h"

#include <gtest/gtest.h>

#include "server/service/detail/principal_slots.h"

namespace warpwatch::server::detail {
namespace {

using std::chrono::seconds;
using std::chrono::steady_clock;

TEST(PrincipalRateTest, ACallPastTheLimitWaitsUntilTheOldestLeavesTheMinute) {
  steady_clock::time_point now{};
  PrincipalRate rate(2, "UploadRun calls", "--max-uploads-per-minute", [&] { return now; });
  EXPECT_TRUE(rate.Admit("ci").ok());
  now += seconds(10);
  EXPECT_TRUE(rate.Admit("ci").ok());
  now += seconds(10);
  Status refused = rate.Admit("ci");
  EXPECT_EQ(refused.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.message().find("--max-uploads-per-minute"), std::string::npos);
  EXPECT_NE(refused.message().find("in 40 s"), std::string::npos) << refused.message();
  EXPECT_TRUE(rate.Admit("bob").ok());  // another principal's minute
  now += seconds(40);                   // the first call left the minute
  EXPECT_TRUE(rate.Admit("ci").ok());
  EXPECT_FALSE(rate.Admit("ci").ok());  // refused calls were not counted: still two in it
}

TEST(PrincipalSlotsTest, ASlotComesBackWhenItsHolderGoes) {
  PrincipalSlots slots(1, "WatchJob streams", "--max-watch-streams-per-principal");
  {
    StatusOr<PrincipalSlots::Slot> held = slots.Acquire("ci");
    ASSERT_TRUE(held.ok());
    EXPECT_EQ(slots.held("ci"), 1);
    StatusOr<PrincipalSlots::Slot> second = slots.Acquire("ci");
    EXPECT_EQ(second.status().code(), StatusCode::kResourceExhausted);
    EXPECT_NE(second.status().message().find("--max-watch-streams-per-principal"),
              std::string::npos);
    EXPECT_TRUE(slots.Acquire("bob").ok());
    PrincipalSlots::Slot moved = std::move(held).value();
    EXPECT_EQ(slots.held("ci"), 1);
  }
  EXPECT_EQ(slots.held("ci"), 0);
  EXPECT_EQ(slots.held("bob"), 0);
}

}  // namespace
}  // namespace warpwatch::server::detail
