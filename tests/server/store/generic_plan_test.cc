// File: tests/server/store/generic_plan_test.cc
// ExecGenericPlan (server/store/detail/generic_plan.h) against a real PostgreSQL: the statement is
// prepared once per connection and executed with its generic plan, and the transaction's other
// statements keep the session's plan_cache_mode.
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>

#include "server/store/detail/generic_plan.h"
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

class GenericPlanTest : public StoreTest {
 protected:
  // A read over the partitioned table, whose plan PostgreSQL would otherwise redo every call.
  static constexpr const char* kCount =
      "SELECT count(*) FROM measurement m WHERE m.series_id = $1 AND m.run_id > $2::bigint";

  // generic_plans, custom_plans of `name` on this connection ("" if it is not prepared).
  static std::string Plans(pqxx::connection& conn, const std::string& name) {
    pqxx::nontransaction tx(conn);
    pqxx::result r = tx.exec_params(
        "SELECT generic_plans || ',' || custom_plans FROM pg_prepared_statements WHERE name = $1",
        name);
    return r.empty() ? "" : r[0][0].as<std::string>();
  }
};

TEST_F(GenericPlanTest, AStatementIsPreparedOnceAndRunsItsGenericPlanEveryCall) {
  pqxx::connection conn(url_);
  const std::string name = detail::GenericPlanName(kCount);
  ASSERT_EQ(Plans(conn, name), "");
  for (int call = 0; call < 3; ++call) {
    pqxx::work tx(conn);
    pqxx::result r = detail::ExecGenericPlan(tx, kCount, "fam/v?n=1@Model", call);
    EXPECT_EQ(r[0][0].as<int64_t>(), 0);
    // Set back for the rest of the transaction: other statements plan as before.
    EXPECT_EQ(tx.exec("SHOW plan_cache_mode")[0][0].as<std::string>(), "auto");
    tx.commit();
  }
  // PostgreSQL's own choice would have made five custom plans first.
  EXPECT_EQ(Plans(conn, name), "3,0");
  // Another text is another statement; the same text keeps its name.
  EXPECT_NE(detail::GenericPlanName(std::string(kCount) + " "), name);
  EXPECT_EQ(detail::GenericPlanName(kCount), name);
}

TEST_F(GenericPlanTest, AFailedCallLeavesTheStatementUsableOnTheConnection) {
  pqxx::connection conn(url_);
  {
    pqxx::work tx(conn);
    EXPECT_THROW(detail::ExecGenericPlan(tx, kCount, "s", "not a number"), pqxx::data_exception);
  }
  pqxx::work tx(conn);
  EXPECT_EQ(detail::ExecGenericPlan(tx, kCount, "s", 0)[0][0].as<int64_t>(), 0);
  EXPECT_EQ(tx.exec("SHOW plan_cache_mode")[0][0].as<std::string>(), "auto");
}

}  // namespace
}  // namespace warpwatch::server::testing
