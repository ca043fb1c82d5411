// File: server/database/database.cc
#include "server/database/database.h"

#include <spdlog/spdlog.h>

#include "server/logging/logging.h"

namespace warpwatch::server {

Database::Database(std::unique_ptr<Store> store, Migrator migrator,
                   std::unique_ptr<ReadReplica> replica)
    : store_(std::move(store)), migrator_(std::move(migrator)), replica_(std::move(replica)) {}

StatusOr<Store*> Database::ReadyStore() {
  if (!schema_ready_.load()) {
    return UnavailableError("database not reachable yet (schema migrations pending); retry");
  }
  return store_.get();
}

StatusOr<Store*> Database::HistoryStore() {
  ASSIGN_OR_RETURN(Store * primary, ReadyStore());
  if (replica_ != nullptr) {
    if (Store* standby = replica_->UsableStore(); standby != nullptr) return standby;
  }
  return primary;
}

Status Database::Probe() {
  std::lock_guard<std::mutex> lock(probe_mu_);
  Status primary = ProbePrimary();
  if (replica_ != nullptr) replica_->Probe();
  return primary;
}

Status Database::ProbePrimary() {
  if (!schema_ready_.load()) {
    Status migrated = migrator_();
    if (!migrated.ok()) {
      // A schema this binary must not run on (a newer release migrated it) stays so until an
      // operator acts; the health checker logs only changes of serving state, so say it here,
      // once per distinct refusal.
      if (migrated.code() == StatusCode::kFailedPrecondition && migrated.message() != refusal_) {
        refusal_ = migrated.message();
        spdlog::critical("msg=\"refusing to serve this database\" error=\"{}\"",
                         LogEscape(migrated.ToString()));
      }
      return migrated.Annotate("migrations");
    }
    schema_ready_.store(true);
    spdlog::info("msg=\"database schema is current\"");
  }
  return store_->Ping();
}

}  // namespace warpwatch::server
