// File: server/database/replica_lag.cc
#include "server/database/replica_lag.h"

namespace warpwatch::server {

void ReplicaLag::Observe(Clock::time_point now, const WalPositions& positions) {
  if (positions.primary_wal_bytes.has_value()) {
    pending_.emplace_back(now, *positions.primary_wal_bytes);
    if (pending_.size() > kMaxPending) {
      if (!caught_up_at_.has_value()) caught_up_at_ = pending_.front().first;
      pending_.pop_front();
    }
  }
  while (!pending_.empty() && pending_.front().second <= positions.standby_replay_bytes) {
    caught_up_at_ = pending_.front().first;
    pending_.pop_front();
  }
}

std::optional<std::chrono::milliseconds> ReplicaLag::Lag(Clock::time_point now) const {
  if (pending_.empty()) {
    if (!caught_up_at_.has_value()) return std::nullopt;
    return std::chrono::milliseconds(0);
  }
  // Never caught up since the first reading: at least as old as that reading.
  const Clock::time_point since = caught_up_at_.value_or(pending_.front().first);
  return std::chrono::duration_cast<std::chrono::milliseconds>(now - since);
}

}  // namespace warpwatch::server
