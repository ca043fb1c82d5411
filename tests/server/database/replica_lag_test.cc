// Tests of ReplicaLag: a standby's lag in time from sampled WAL positions.
#include "server/database/replica_lag.h"

#include <gtest/gtest.h>

namespace warpwatch::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

WalPositions At(std::optional<uint64_t> primary, uint64_t replay) {
  WalPositions p;
  p.primary_wal_bytes = primary;
  p.standby_replay_bytes = replay;
  p.standby_in_recovery = true;
  return p;
}

const ReplicaLag::Clock::time_point kT0{seconds(1000)};

TEST(ReplicaLagTest, IsUnknownBeforeAnyPrimaryReading) {
  ReplicaLag lag;
  EXPECT_FALSE(lag.Lag(kT0).has_value());
  lag.Observe(kT0, At(std::nullopt, 50));
  EXPECT_FALSE(lag.Lag(kT0).has_value());
}

TEST(ReplicaLagTest, IsZeroWhileTheStandbyKeepsUpEvenWithAnIdlePrimary) {
  ReplicaLag lag;
  lag.Observe(kT0, At(100, 100));
  lag.Observe(kT0 + seconds(60), At(100, 100));  // nothing written for a minute
  EXPECT_EQ(lag.Lag(kT0 + seconds(60)), milliseconds(0));
}

TEST(ReplicaLagTest, GrowsFromTheLastPositionTheStandbyReached) {
  ReplicaLag lag;
  lag.Observe(kT0, At(100, 100));
  lag.Observe(kT0 + seconds(1), At(200, 100));  // replay stalls here
  lag.Observe(kT0 + seconds(2), At(300, 150));
  lag.Observe(kT0 + seconds(5), At(400, 150));
  EXPECT_EQ(lag.Lag(kT0 + seconds(5)), milliseconds(5000));
  lag.Observe(kT0 + seconds(6), At(400, 250));  // reached the position of t0+1
  EXPECT_EQ(lag.Lag(kT0 + seconds(6)), milliseconds(5000));
  lag.Observe(kT0 + seconds(7), At(400, 400));
  EXPECT_EQ(lag.Lag(kT0 + seconds(7)), milliseconds(0));
}

TEST(ReplicaLagTest, CountsFromTheFirstReadingWhenTheStandbyNeverCaughtUp) {
  ReplicaLag lag;
  lag.Observe(kT0, At(100, 10));
  lag.Observe(kT0 + seconds(3), At(100, 10));
  EXPECT_EQ(lag.Lag(kT0 + seconds(3)), milliseconds(3000));
}

}  // namespace
}  // namespace warpwatch::server
