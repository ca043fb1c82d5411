// File: server/store/pg_replication_probe.cc
// Reads pg_current_wal_lsn() on the primary, then pg_last_wal_replay_lsn() on the standby.
#include "server/store/pg_replication_probe.h"

#include <pqxx/pqxx>

#include "server/store/detail/connection_pool.h"
#include "server/store/detail/pg_errors.h"

namespace warpwatch::server {
namespace {

class PgReplicationProbe : public ReplicationProbe {
 public:
  PgReplicationProbe(std::string primary_url, std::string standby_url)
      : primary_url_(detail::WithConnectTimeout(primary_url, 1)),
        standby_url_(detail::WithConnectTimeout(standby_url, 1)) {}

  StatusOr<WalPositions> Read() override {
    WalPositions out;
    // Primary first: the standby's position read afterwards is compared with it.
    try {
      out.primary_wal_bytes = static_cast<uint64_t>(
          Query(primary_, primary_url_,
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")[0][0]
              .as<int64_t>());
    } catch (const std::exception&) {
      primary_.reset();  // unreachable or failing: not this probe's error to report
    }
    try {
      // NULL replay position: the standby has replayed nothing yet (or is a primary).
      pqxx::result r = Query(standby_, standby_url_,
                             "SELECT pg_is_in_recovery(),"
                             " coalesce(pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0'), 0)"
                             "::bigint");
      out.standby_in_recovery = r[0][0].as<bool>();
      out.standby_replay_bytes = static_cast<uint64_t>(r[0][1].as<int64_t>());
    } catch (...) {
      standby_.reset();
      return detail::ClassifyCurrentException("read replica probe").status;
    }
    return out;
  }

 private:
  static pqxx::result Query(std::unique_ptr<pqxx::connection>& conn, const std::string& url,
                            const char* sql) {
    if (conn == nullptr || !conn->is_open()) {
      conn = std::make_unique<pqxx::connection>(url);
      pqxx::nontransaction setup(*conn);
      // A hung server must not stall health checks; the name tells the probe apart in
      // pg_stat_activity from the history reads' pool.
      setup.exec("SET statement_timeout = 1000; SET application_name = 'warpwatch-replica-probe'");
    }
    pqxx::nontransaction tx(*conn);
    return tx.exec(sql);
  }

  const std::string primary_url_;
  const std::string standby_url_;
  std::unique_ptr<pqxx::connection> primary_;
  std::unique_ptr<pqxx::connection> standby_;
};

}  // namespace

StatusOr<std::unique_ptr<ReplicationProbe>> OpenPgReplicationProbe(const std::string& primary_url,
                                                                   const std::string& standby_url) {
  if (primary_url.empty() || standby_url.empty()) {
    return InvalidArgumentError("replication probe: empty database url");
  }
  return std::unique_ptr<ReplicationProbe>(
      std::make_unique<PgReplicationProbe>(primary_url, standby_url));
}

}  // namespace warpwatch::server
