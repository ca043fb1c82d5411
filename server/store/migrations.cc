// File: server/store/migrations.cc
// Applies embedded migrations one transaction at a time under a cluster-wide advisory lock.
#include "server/store/migrations.h"

#include <cctype>
#include <cstdlib>
#include <pqxx/pqxx>
#include <set>
#include <sstream>
#include <string_view>

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

// Digits with an optional unit PostgreSQL reads: "0", "1500ms", "30s", "5min", "2h".
bool IsDuration(const std::string& value) {
  size_t i = 0;
  while (i < value.size() && std::isdigit(static_cast<unsigned char>(value[i]))) ++i;
  if (i == 0 || i > 9) return false;
  const std::string unit = value.substr(i);
  return unit.empty() || unit == "ms" || unit == "s" || unit == "min" || unit == "h";
}

// FAILED_PRECONDITION naming the first version the database records that `migrations` lacks.
// Precondition: schema_version exists.
Status CheckVersionsKnown(pqxx::work& tx, const std::vector<Migration>& migrations) {
  std::set<int> known;
  for (const Migration& m : migrations) known.insert(m.version);
  for (const auto& row : tx.exec("SELECT version, name FROM schema_version ORDER BY version")) {
    const int version = row[0].as<int>();
    if (known.count(version) > 0) continue;
    const std::string newest = migrations.empty() ? "none" : migrations.back().name;
    return FailedPreconditionError(
        "the database's schema has migration " + row[1].as<std::string>() + " (version " +
        std::to_string(version) + "), which this warpwatch-server does not know (its newest is " +
        newest +
        "): a newer release migrated this database. Run that release or a newer one; an older "
        "server must not run against a newer schema (docs/operations.md, Upgrade)");
  }
  return OkStatus();
}

// The error of a migration that failed, saying which timeout ended it when one did.
Status MigrationFailure(const Migration& m, const MigrationTimeouts& timeouts,
                        const pqxx::sql_error& e) {
  std::string why = e.what();
  if (e.sqlstate() == "55P03") {
    why = "lock_timeout " + timeouts.lock_timeout +
          " passed waiting for a table lock (another session holds one this migration needs; "
          "it is tried again at the next health probe): " +
          why;
  } else if (e.sqlstate() == "57014") {
    why = "statement_timeout " + timeouts.statement_timeout +
          " passed (a migration that must run longer states its own: \"-- warpwatch: "
          "statement_timeout=...\"): " +
          why;
  }
  return InternalError("migration " + m.name + " failed: " + why);
}

}  // namespace

StatusOr<MigrationTimeouts> TimeoutsOf(const Migration& migration,
                                       const MigrationTimeouts& defaults) {
  constexpr std::string_view kDirective = "-- warpwatch:";
  MigrationTimeouts timeouts = defaults;
  std::istringstream lines(migration.sql);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos) continue;      // blank
    if (line.compare(start, 2, "--") != 0) break;  // the first statement: the header is over
    if (line.compare(start, kDirective.size(), kDirective) != 0) continue;  // a plain comment
    std::istringstream words(line.substr(start + kDirective.size()));
    for (std::string word; words >> word;) {
      const size_t eq = word.find('=');
      const std::string name = word.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
      const std::string where = migration.name + " line " + std::to_string(number) + ": ";
      if (!IsDuration(value)) {
        return InternalError(where + "\"" + word +
                             "\": want name=DURATION, digits with ms, s, min or h (0 = none)");
      }
      if (name == "lock_timeout") {
        timeouts.lock_timeout = value;
      } else if (name == "statement_timeout") {
        timeouts.statement_timeout = value;
      } else {
        return InternalError(where + "unknown setting \"" + name +
                             "\" (lock_timeout or statement_timeout)");
      }
    }
  }
  return timeouts;
}

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

Status RunMigrations(const std::string& url, const MigrationTimeouts& timeouts) {
  return RunMigrations(url, EmbeddedMigrations(), timeouts);
}

Status RunMigrations(const std::string& url, const std::vector<Migration>& migrations,
                     const MigrationTimeouts& timeouts) {
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
      // The timeouts are set after it is held: waiting for another server's migration is no
      // lock this one should give up on.
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLockKey);
      tx.exec(kCreateVersionTable);
      RETURN_IF_ERROR(CheckVersionsKnown(tx, migrations));
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
      ASSIGN_OR_RETURN(MigrationTimeouts own, TimeoutsOf(*next, timeouts));
      tx.exec_params("SELECT set_config('lock_timeout', $1, true)", own.lock_timeout);
      tx.exec_params("SELECT set_config('statement_timeout', $1, true)", own.statement_timeout);
      try {
        tx.exec(next->sql);
      } catch (const pqxx::sql_error& e) {
        return MigrationFailure(*next, own, e);
      }
      tx.exec_params("INSERT INTO schema_version (version, name) VALUES ($1, $2)", next->version,
                     next->name);
      tx.commit();
    }
  } catch (...) {
    return detail::ClassifyCurrentException("RunMigrations").status;
  }
}

Status CheckSchemaKnown(const std::string& url) {
  try {
    pqxx::connection conn(detail::WithConnectTimeout(url, 1));
    pqxx::work tx(conn);
    const bool exists =
        tx.exec("SELECT to_regclass('schema_version') IS NOT NULL").at(0).at(0).as<bool>();
    if (!exists) return OkStatus();
    return CheckVersionsKnown(tx, EmbeddedMigrations());
  } catch (...) {
    return detail::ClassifyCurrentException("CheckSchemaKnown").status;
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
