// File: server/store/replication_probe.h
// How far a hot standby is behind its primary, read from both (the read replica's health check).
#ifndef WARPWATCH_SERVER_STORE_REPLICATION_PROBE_H_
#define WARPWATCH_SERVER_STORE_REPLICATION_PROBE_H_

#include <cstdint>
#include <optional>

#include "common/status/status.h"

namespace warpwatch::server {

// One reading, taken primary first: a standby whose replay position is at or past
// primary_wal_bytes holds everything the primary had committed when it was read.
struct WalPositions {
  // pg_current_wal_lsn() on the primary as bytes; nullopt when the primary did not answer.
  std::optional<uint64_t> primary_wal_bytes;
  uint64_t standby_replay_bytes = 0;  // pg_last_wal_replay_lsn() on the standby, as bytes
  bool standby_in_recovery = false;   // false: it was promoted (or is no standby at all)
};

// Not thread-safe: one caller (the health checker) at a time.
class ReplicationProbe {
 public:
  virtual ~ReplicationProbe() = default;
  // UNAVAILABLE when the standby does not answer (within about a second); INTERNAL for other
  // errors. A primary that does not answer is not an error (primary_wal_bytes empty).
  virtual StatusOr<WalPositions> Read() = 0;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_REPLICATION_PROBE_H_
