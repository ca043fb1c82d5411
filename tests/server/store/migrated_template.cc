// File: tests/server/store/migrated_template.cc
#include "tests/server/store/migrated_template.h"

#include <cstdio>
#include <functional>
#include <string>

#include "server/store/migrations.h"

namespace warpwatch::server::testing {

const warpwatch::testing::DatabaseTemplate& MigratedTemplate() {
  static const warpwatch::testing::DatabaseTemplate* tmpl = [] {
    std::string all;
    for (const Migration& m : EmbeddedMigrations()) all += m.name + "\n" + m.sql + "\n";
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(all));
    return new warpwatch::testing::DatabaseTemplate{
        std::string("migrated_") + hash, [](const std::string& url) { return RunMigrations(url); }};
  }();
  return *tmpl;
}

}  // namespace warpwatch::server::testing
