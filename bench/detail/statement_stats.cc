// File: bench/detail/statement_stats.cc
#include "bench/detail/statement_stats.h"

#include <cstdio>
#include <pqxx/pqxx>

namespace warpwatch::bench {

void ResetStatementStats(const std::string& url) {
  pqxx::connection conn(url);
  pqxx::nontransaction tx(conn);
  tx.exec("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  tx.exec("ALTER SYSTEM SET pg_stat_statements.track_planning = on");  // known once loaded
  tx.exec("SELECT pg_reload_conf()");
  tx.exec("SELECT pg_stat_statements_reset()");
}

void PrintStatementStats(const std::string& url, int limit, int min_calls, int text_chars) {
  pqxx::connection conn(url);
  pqxx::work tx(conn);
  std::printf("\n%8s %10s %8s %8s %8s %8s %8s  %s\n", "calls", "total s", "plan ms", "exec ms",
              "rows", "hit", "read", "statement (pg_stat_statements; ms, rows, pages per call)");
  for (const pqxx::row& row :
       tx.exec_params("SELECT calls, (total_exec_time + total_plan_time) / 1000, mean_plan_time,"
                      " mean_exec_time, rows::float8 / calls, shared_blks_hit::float8 / calls,"
                      " shared_blks_read::float8 / calls,"
                      " left(regexp_replace(query, '\\s+', ' ', 'g'), $3)"
                      " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
                      "   WHERE datname = current_database()) AND calls >= $2"
                      " ORDER BY total_exec_time + total_plan_time DESC LIMIT $1",
                      limit, min_calls, text_chars)) {
    std::printf("%8s %10.2f %8.3f %8.3f %8.1f %8.1f %8.1f  %s\n", row[0].c_str(),
                row[1].as<double>(), row[2].as<double>(), row[3].as<double>(), row[4].as<double>(),
                row[5].as<double>(), row[6].as<double>(), row[7].c_str());
  }
  std::fflush(stdout);
}

}  // namespace warpwatch::bench
