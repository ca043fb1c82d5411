// File: server/database/replica_lag.h
// A standby's lag as time, from WAL positions sampled on the primary and the standby: how long
// ago the standby last held everything the primary had committed.
#ifndef WARPWATCH_SERVER_DATABASE_REPLICA_LAG_H_
#define WARPWATCH_SERVER_DATABASE_REPLICA_LAG_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "server/store/replication_probe.h"

namespace warpwatch::server {

// Each reading with a primary position is remembered until the standby replays past it; the lag
// is the age of the newest remembered position the standby has reached (0 once it has reached
// the latest). Unlike now() - pg_last_xact_replay_timestamp(), an idle primary reads as no lag,
// and unlike the standby's own receive/replay positions, a standby cut off from its primary
// reads as lagging. Resolution: the probe period. Not thread-safe.
class ReplicaLag {
 public:
  using Clock = std::chrono::steady_clock;

  // Records one probe reading taken at `now` (non-decreasing across calls).
  void Observe(Clock::time_point now, const WalPositions& positions);
  // The lag at `now`; nullopt before any reading with a primary position.
  std::optional<std::chrono::milliseconds> Lag(Clock::time_point now) const;

  // Positions remembered at most; the oldest go first (the lag then reads from the oldest kept).
  static constexpr size_t kMaxPending = 100000;

 private:
  // Primary positions the standby had not reached at the last reading, oldest first.
  std::deque<std::pair<Clock::time_point, uint64_t>> pending_;
  // When the primary was at the newest position the standby has reached.
  std::optional<Clock::time_point> caught_up_at_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_DATABASE_REPLICA_LAG_H_
