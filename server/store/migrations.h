// File: server/store/migrations.h
// Applies the numbered SQL migrations (server/store/migrations/NNNN_*.sql, embedded at build time).
#ifndef WARPWATCH_SERVER_STORE_MIGRATIONS_H_
#define WARPWATCH_SERVER_STORE_MIGRATIONS_H_

#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::server {

struct Migration {
  int version = 0;   // NNNN of the file name
  std::string name;  // file name, "0001_initial.sql"
  std::string sql;
};

// The embedded migrations, sorted by version.
const std::vector<Migration>& EmbeddedMigrations();

// Limits each migration runs under, as PostgreSQL duration text ("10s", "5min", "0" = none):
// lock_timeout bounds how long it waits for a table lock (a migration queued behind a long query
// would otherwise block every query queued behind it), statement_timeout how long one statement
// runs. A migration that must run long states its own in a header line before its first
// statement, e.g. "-- warpwatch: statement_timeout=0" or "-- warpwatch: lock_timeout=1min".
struct MigrationTimeouts {
  std::string lock_timeout = "10s";        // --migration-lock-timeout-seconds
  std::string statement_timeout = "600s";  // --migration-statement-timeout-seconds
};

// `defaults` overridden by what `migration`'s header states. INTERNAL naming the file and the
// line for a "-- warpwatch:" line that is not "name=value" with a known name and a value of
// digits with an optional unit (ms, s, min, h).
StatusOr<MigrationTimeouts> TimeoutsOf(const Migration& migration,
                                       const MigrationTimeouts& defaults);

// Applies every migration of `migrations` (sorted by version; the embedded ones by default) newer
// than the database's schema_version, each in its own transaction that also records it in
// schema_version, under its TimeoutsOf (set after the advisory lock is held, so a server waiting
// for another's migration is not cut short). Serialized across processes with
// pg_advisory_xact_lock, so servers starting at once never apply one twice. Idempotent.
// UNAVAILABLE when the database cannot be reached; FAILED_PRECONDITION when the database records
// a version `migrations` lacks (a newer release migrated it: this binary must not run on it);
// INTERNAL naming the migration with the SQL error otherwise (a timeout says which).
Status RunMigrations(const std::string& url, const MigrationTimeouts& timeouts = {});
Status RunMigrations(const std::string& url, const std::vector<Migration>& migrations,
                     const MigrationTimeouts& timeouts);

// OK when every version the database records is one of the embedded migrations (or it has none).
// FAILED_PRECONDITION naming the unknown version and this binary's newest; UNAVAILABLE when the
// database cannot be reached. Read-only: the server checks this before it starts serving.
Status CheckSchemaKnown(const std::string& url);

// Highest applied version (0 for an empty database).
StatusOr<int> SchemaVersion(const std::string& url);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_MIGRATIONS_H_
