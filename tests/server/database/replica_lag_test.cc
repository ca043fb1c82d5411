// Tests of ReplicaLag: a standby's lag in time from sampled WAL positions.
#include "server/database/replica_lag.h"

#include <gtest/gtest.h>

namespace warpwatch::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

WalPositions ReplicaLagAt(std::optional<uint64_t> primary, uint64_t replay) {
  WalPositions p;
  p.primary_wal_bytes = primary;
  p.standby_replay_bytes = replay;
  p.standby_in_recovery = true;
  return p;
}

const ReplicaLag::Clock::time_point kReplicaLagT0{seconds(1000)};

TEST(ReplicaLagTest, IsUnknownBeforeAnyPrimaryReading) {
  ReplicaLag lag;
  EXPECT_FALSE(lag.Lag(kReplicaLagT0).has_value());
  lag.Observe(kReplicaLagT0, ReplicaLagAt(std::nullopt, 50));
  EXPECT_FALSE(lag.Lag(kReplicaLagT0).has_value());
}

TEST(ReplicaLagTest, IsZeroWhileTheStandbyKeepsUpEvenWithAnIdlePrimary) {
  ReplicaLag lag;
  lag.Observe(kReplicaLagT0, ReplicaLagAt(100, 100));
  lag.Observe(kReplicaLagT0 + seconds(60), ReplicaLagAt(100, 100));  // nothing written for a minute
  EXPECT_EQ(lag.Lag(kReplicaLagT0 + seconds(60)), milliseconds(0));
}

TEST(ReplicaLagTest, GrowsFromTheLastPositionTheStandbyReached) {
  ReplicaLag lag;
  lag.Observe(kReplicaLagT0, ReplicaLagAt(100, 100));
  lag.Observe(kReplicaLagT0 + seconds(1), ReplicaLagAt(200, 100));  // replay stalls here
  lag.Observe(kReplicaLagT0 + seconds(2), ReplicaLagAt(300, 150));
  lag.Observe(kReplicaLagT0 + seconds(5), ReplicaLagAt(400, 150));
  EXPECT_EQ(lag.Lag(kReplicaLagT0 + seconds(5)), milliseconds(5000));
  lag.Observe(kReplicaLagT0 + seconds(6), ReplicaLagAt(400, 250));  // reached the position of t0+1
  EXPECT_EQ(lag.Lag(kReplicaLagT0 + seconds(6)), milliseconds(5000));
  lag.Observe(kReplicaLagT0 + seconds(7), ReplicaLagAt(400, 400));
  EXPECT_EQ(lag.Lag(kReplicaLagT0 + seconds(7)), milliseconds(0));
}

TEST(ReplicaLagTest, CountsFromTheFirstReadingWhenTheStandbyNeverCaughtUp) {
  ReplicaLag lag;
  lag.Observe(kReplicaLagT0, ReplicaLagAt(100, 10));
  lag.Observe(kReplicaLagT0 + seconds(3), ReplicaLagAt(100, 10));
  EXPECT_EQ(lag.Lag(kReplicaLagT0 + seconds(3)), milliseconds(3000));
}

}  // namespace
}  // namespace warpwatch::server
