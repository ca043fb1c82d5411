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

// Applies every embedded migration newer than the database's schema_version, each in its own
// transaction that also records it in schema_version. Serialized across processes with
// pg_advisory_xact_lock, so servers starting at once never apply one twice. Idempotent.
// UNAVAILABLE when the database cannot be reached, INTERNAL with the SQL error otherwise.
Status RunMigrations(const std::string& url);

// Highest applied version (0 for an empty database).
StatusOr<int> SchemaVersion(const std::string& url);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_MIGRATIONS_H_
