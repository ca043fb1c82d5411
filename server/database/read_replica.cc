// File: server/database/read_replica.cc
#include "server/database/read_replica.h"

#include <spdlog/spdlog.h>

#include "server/logging/logging.h"

namespace warpwatch::server {

ReadReplica::ReadReplica(std::unique_ptr<Store> store, std::unique_ptr<ReplicationProbe> probe,
                         std::chrono::milliseconds max_lag, std::function<void(bool)> on_probe)
    : store_(std::move(store)),
      probe_(std::move(probe)),
      max_lag_(max_lag),
      on_probe_(std::move(on_probe)) {}

void ReadReplica::Probe(ReplicaLag::Clock::time_point now) {
  std::string why;  // empty: usable
  StatusOr<WalPositions> positions = probe_->Read();
  if (!positions.ok()) {
    why = "standby unreachable: " + positions.status().ToString();
  } else if (!positions->standby_in_recovery) {
    why = "not in recovery (promoted, or not a standby)";
  } else {
    lag_.Observe(now, *positions);
    const std::optional<std::chrono::milliseconds> lag = lag_.Lag(now);
    // No primary reading: the primary is down (or was never reached); the standby is the
    // freshest data the server can reach.
    if (positions->primary_wal_bytes.has_value() && lag.has_value() && *lag > max_lag_) {
      why = "replay lag " + std::to_string(lag->count()) + " ms over the limit of " +
            std::to_string(max_lag_.count()) + " ms";
    }
  }
  const bool usable = why.empty();
  // Log changes only (and the first probe's answer), not every probe.
  if (!probed_ || usable != usable_.load()) {
    if (usable) {
      spdlog::info("msg=\"read replica in use for history reads\"");
    } else {
      spdlog::warn("msg=\"read replica not used; history reads go to the primary\" why=\"{}\"",
                   LogEscape(why));
    }
  }
  probed_ = true;
  usable_.store(usable);
  if (on_probe_) on_probe_(usable);
}

}  // namespace warpwatch::server
