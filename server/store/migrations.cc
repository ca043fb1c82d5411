// File: server/store/migrations.cc
// Applies embedded migrations one transaction at a time under a cluster-wide advisory lock.
#include "server/store/migrations.h"

#include <cstdlib>
#include <pqxx/pqxx>

#include "server/store/detail/connection_pool.h"
#include "server/store/detail/embedded_migrations.h"
#include "server/store/detail/pg_errors.h"

namespace warpwatch::server {
namespace {

// pg_advisory_xact_lock key shared by every warpwatch server ("wwmigrat" in ASCII).
constexpr int64_t kMigrationLockKey = 0x77776d6967726174;

constexpr const char* kCreateVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "  version integer PRIMARY KEY,"
    "  name text NOT NULL,"
    "  applied_at timestamptz NOT NULL DEFAULT now())";

int CurrentVersion(pqxx::work& tx) {
  return tx.exec("SELECT coalesce(max(version), 0) FROM schema_version").at(0).at(0).as<int>();
}

}  // namespace

const std::vector<Migration>& EmbeddedMigrations() {
  static const std::vector<Migration> migrations = [] {
    std::vector<Migration> out;
    for (const detail::EmbeddedFile& f : detail::EmbeddedMigrationFiles()) {
      out.push_back(Migration{std::atoi(f.name), f.name, f.text});
    }
    return out;
  }();
  return migrations;
}

Status RunMigrations(const std::string& url) {
  const std::vector<Migration>& migrations = EmbeddedMigrations();
  for (size_t i = 1; i < migrations.size(); ++i) {
    if (migrations[i].version <= migrations[i - 1].version) {
      return InternalError("duplicate migration version in " + migrations[i].name);
    }
  }
  try {
    pqxx::connection conn(detail::WithConnectTimeout(url, 1));
    while (true) {
      pqxx::work tx(conn);
      // Held until commit: a second server waits here, then sees the version this one recorded.
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLockKey);
      tx.exec(kCreateVersionTable);
      const int current = CurrentVersion(tx);
      const Migration* next = nullptr;
      for (const Migration& m : migrations) {
        if (m.version > current) {
          next = &m;
          break;
        }
      }
      if (next == nullptr) {
        tx.commit();
        return OkStatus();
      }
      try {
        tx.exec(next->sql);
      } catch (const pqxx::sql_error& e) {
        return InternalError("migration " + next->name + " failed: " + e.what());
      }
      tx.exec_params("INSERT INTO schema_version (version, name) VALUES ($1, $2)", next->version,
                     next->name);
      tx.commit();
    }
  } catch (...) {
    return detail::ClassifyCurrentException("RunMigrations").status;
  }
}

StatusOr<int> SchemaVersion(const std::string& url) {
  try {
    pqxx::connection conn(detail::WithConnectTimeout(url, 1));
    pqxx::work tx(conn);
    const bool exists =
        tx.exec("SELECT to_regclass('schema_version') IS NOT NULL").at(0).at(0).as<bool>();
    if (!exists) return 0;
    return CurrentVersion(tx);
  } catch (...) {
    return detail::ClassifyCurrentException("SchemaVersion").status;
  }
}

}  // namespace warpwatch::server
