// File: server/store/detail/generic_plan.cc
#include "server/store/detail/generic_plan.h"

#include <cstdint>
#include <cstdio>

namespace warpwatch::server::detail {

std::string GenericPlanName(const std::string& sql) {
  // FNV-1a, 64 bits: stable across builds and processes (std::hash is not), so a statement keeps
  // its name in pg_prepared_statements and the logs. Two texts of one hash would make libpqxx
  // refuse the second definition (an error, never the wrong statement).
  uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : sql) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("ww_generic_") + hex;
}

}  // namespace warpwatch::server::detail
