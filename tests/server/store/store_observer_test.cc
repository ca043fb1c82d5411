// File: tests/server/store/store_observer_test.cc
// What the PostgreSQL store reports to its StoreObserver (database errors, pool use), and the
// open-regression counts that feed warpwatch_regressions_open.
#include "server/store/store_observer.h"

#include <gtest/gtest.h>

#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <utility>
#include <vector>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

class RecordingObserver : public StoreObserver {
 public:
  struct Use {
    int in_use, idle, max_size;
  };
  void OnDatabaseError(const std::string& operation, DatabaseErrorKind kind) override {
    std::lock_guard<std::mutex> lock(mu_);
    errors_.emplace_back(operation, kind);
  }
  void OnPoolUse(int in_use, int idle, int max_size) override {
    std::lock_guard<std::mutex> lock(mu_);
    uses_.push_back({in_use, idle, max_size});
  }
  std::vector<std::pair<std::string, DatabaseErrorKind>> errors() {
    std::lock_guard<std::mutex> lock(mu_);
    return errors_;
  }
  std::vector<Use> uses() {
    std::lock_guard<std::mutex> lock(mu_);
    return uses_;
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<std::string, DatabaseErrorKind>> errors_;
  std::vector<Use> uses_;
};

class StoreObserverTest : public StoreTest {
 protected:
  std::unique_ptr<Store> OpenObserved(const std::string& url) {
    PgStoreOptions options;
    options.url = url;
    options.pool_size = 3;
    options.acquire_timeout = std::chrono::milliseconds(500);
    options.observer = &observer_;
    StatusOr<std::unique_ptr<Store>> store = OpenPgStore(options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }
  void Exec(const std::string& sql) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec(sql);
    tx.commit();
  }

  RecordingObserver observer_;
};

TEST_F(StoreObserverTest, EachCallBorrowsAConnectionAndGivesItBackToThePool) {
  std::unique_ptr<Store> store = OpenObserved(url_);
  ASSERT_NE(store, nullptr);
  ASSERT_OK(store->Ping());
  ASSERT_OK(store->Ping());
  const auto uses = observer_.uses();
  ASSERT_EQ(uses.size(), 4u);  // borrow, return, borrow (the idle one), return
  EXPECT_EQ(uses[0].in_use, 1);
  EXPECT_EQ(uses[0].idle, 0);
  EXPECT_EQ(uses[0].max_size, 3);
  EXPECT_EQ(uses[1].in_use, 0);
  EXPECT_EQ(uses[1].idle, 1);
  EXPECT_EQ(uses[2].in_use, 1);
  EXPECT_EQ(uses[2].idle, 0);
  EXPECT_EQ(uses[3].in_use, 0);
  EXPECT_TRUE(observer_.errors().empty());
}

TEST_F(StoreObserverTest, AnUnreachableDatabaseIsReportedAsUnavailableUnderTheOperationsName) {
  // Port 1: nothing listens there.
  std::unique_ptr<Store> store = OpenObserved("postgresql://nobody@127.0.0.1:1/none");
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->Ping().code(), StatusCode::kUnavailable);
  const auto errors = observer_.errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].first, "Ping");
  EXPECT_EQ(errors[0].second, DatabaseErrorKind::kUnavailable);
}

TEST_F(StoreObserverTest, AStatementTheDatabaseRefusesIsReportedAsAQueryError) {
  std::unique_ptr<Store> store = OpenObserved(url_);
  ASSERT_NE(store, nullptr);
  Exec("ALTER TABLE regression RENAME TO regression_gone");
  EXPECT_FALSE(store->CountOpenRegressions().ok());
  const auto errors = observer_.errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].first, "CountOpenRegressions");
  EXPECT_EQ(errors[0].second, DatabaseErrorKind::kQuery);
  EXPECT_STREQ(DatabaseErrorKindName(errors[0].second), "query");
}

TEST_F(StoreObserverTest, OpenRegressionsAreCountedByModelFamilyAndKindLeavingResolvedOnesOut) {
  Exec("INSERT INTO run (id, state) VALUES (1, 'SUCCEEDED')");
  const char* rows[][4] = {
      {"NVIDIA H100", "reduce", "REGRESSION", "OPEN"},
      {"NVIDIA H100", "reduce", "REGRESSION", "ACKNOWLEDGED"},
      {"NVIDIA H100", "reduce", "REGRESSION", "FIXED"},
      {"NVIDIA H100", "reduce", "REGRESSION", "SUSPECTED"},
      {"NVIDIA H100", "reduce", "OUTLIER", "OPEN"},
      {"NVIDIA H200", "memory.coalescing", "REGRESSION", "DISMISSED"},
      {"NVIDIA H200", "memory.coalescing", "REGRESSION", "NOISE"},
  };
  int i = 0;
  for (const auto& r : rows) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec_params(
        "INSERT INTO regression (series_id, case_canonical, family, gpu_model, run_id,"
        " baseline_median_seconds, new_median_seconds, change, method, kind, state)"
        " VALUES ($1, $1, $2, $3, 1, 1, 1.1, 0.1, 'test', $4, $5)",
        "case" + std::to_string(i++), std::string(r[1]), std::string(r[0]), std::string(r[2]),
        std::string(r[3]));
    tx.commit();
  }
  ASSERT_OK_AND_ASSIGN(std::vector<RegressionCount> counts, store_->CountOpenRegressions());
  // FIXED, SUSPECTED, DISMISSED and NOISE are not open.
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0].gpu_model, "NVIDIA H100");
  EXPECT_EQ(counts[0].family, "reduce");
  EXPECT_EQ(counts[0].kind, "OUTLIER");
  EXPECT_EQ(counts[0].state, "OPEN");
  EXPECT_EQ(counts[0].count, 1);
  EXPECT_EQ(counts[1].kind, "REGRESSION");
  EXPECT_EQ(counts[1].state, "ACKNOWLEDGED");
  EXPECT_EQ(counts[1].count, 1);
  EXPECT_EQ(counts[2].kind, "REGRESSION");
  EXPECT_EQ(counts[2].state, "OPEN");
  EXPECT_EQ(counts[2].count, 1);
}

}  // namespace
}  // namespace warpwatch::server::testing
