// File: tests/server/store/migrated_template.h
// The template test databases are copies of when a test wants the current schema: every embedded
// migration applied once per PostgreSQL server, then CREATE DATABASE ... TEMPLATE per test (a
// file copy) instead of running the migrations again (about 0.5 s a test on the 2-core VM).
#ifndef WARPWATCH_TESTS_SERVER_STORE_MIGRATED_TEMPLATE_H_
#define WARPWATCH_TESTS_SERVER_STORE_MIGRATED_TEMPLATE_H_

#include "tests/support/postgres_test.h"

namespace warpwatch::server::testing {

// Named after a hash of the embedded migrations (a changed migration makes a new template).
const warpwatch::testing::DatabaseTemplate& MigratedTemplate();

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_STORE_MIGRATED_TEMPLATE_H_
