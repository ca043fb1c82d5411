// File: server/store/pg_store_regression_counts.cc
// Counts of the detector's unresolved findings, for the server's metrics.
#include <pqxx/pqxx>

#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {

StatusOr<std::vector<RegressionCount>> PgStore::CountOpenRegressions() {
  using Counts = std::vector<RegressionCount>;
  return Run<Counts>("CountOpenRegressions", [&](pqxx::work& tx) -> StatusOr<Counts> {
    Counts counts;
    for (const auto& row : tx.exec(
             "SELECT gpu_model, family, kind, state, count(*) FROM regression"
             " WHERE state IN ('OPEN', 'ACKNOWLEDGED') GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4")) {
      RegressionCount c;
      c.gpu_model = row[0].as<std::string>();
      c.family = row[1].as<std::string>();
      c.kind = row[2].as<std::string>();
      c.state = row[3].as<std::string>();
      c.count = row[4].as<int64_t>();
      counts.push_back(std::move(c));
    }
    return counts;
  });
}

}  // namespace warpwatch::server::detail
