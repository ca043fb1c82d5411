// Tests of the store's regression listing and triage.
#include <gtest/gtest.h>

#include "tests/server/store/history_test_util.h"

namespace warpwatch::server::testing {
namespace {

class RegressionStoreTest : public HistoryStoreTest {
 protected:
  void SetUp() override {
    HistoryStoreTest::SetUp();
    if (HasFatalFailure()) return;
    run_ = MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1e-3)});
    ASSERT_GT(run_, 0);
  }
  int64_t run_ = 0;
};

TEST_F(RegressionStoreTest, ListRegressionsFiltersByStateKindModelFamilyDeviceAndRun) {
  const int64_t open = InsertRegression(run_, "reduce/tree?n=1", "reduce", kH100, "OPEN");
  const int64_t suspected =
      InsertRegression(run_, "reduce/tree?n=2", "reduce", kH100, "SUSPECTED");
  const int64_t outlier = InsertRegression(run_, "memory.copy/c?n=1", "memory.copy", kA100,
                                           "OPEN", "OUTLIER", "GPU-x");
  RegressionFilter f;
  f.states = {v1::REGRESSION_STATE_OPEN};
  ASSERT_OK_AND_ASSIGN(RegressionPage page, store_->ListRegressions(f));
  ASSERT_EQ(page.regressions.size(), 2u);
  EXPECT_EQ(page.regressions[0].id(), outlier);  // newest first
  EXPECT_EQ(page.regressions[1].id(), open);

  f.kinds = {v1::REGRESSION_KIND_OUTLIER};
  ASSERT_OK_AND_ASSIGN(page, store_->ListRegressions(f));
  ASSERT_EQ(page.regressions.size(), 1u);
  EXPECT_EQ(page.regressions[0].device_uuid(), "GPU-x");
  EXPECT_EQ(page.regressions[0].kind(), v1::REGRESSION_KIND_OUTLIER);

  RegressionFilter by_family;
  by_family.family = "reduce";
  by_family.gpu_model = kH100;
  ASSERT_OK_AND_ASSIGN(page, store_->ListRegressions(by_family));
  ASSERT_EQ(page.regressions.size(), 2u);
  EXPECT_EQ(page.regressions[0].id(), suspected);
  EXPECT_EQ(page.regressions[0].state(), v1::REGRESSION_STATE_SUSPECTED);
  const v1::Regression& g = page.regressions[1];
  EXPECT_EQ(g.case_().canonical(), "reduce/tree?n=1");
  EXPECT_EQ(g.case_().params().at("n"), 1);
  EXPECT_EQ(g.case_().variant(), "tree");
  EXPECT_EQ(g.run_id(), run_);
  ASSERT_EQ(g.baseline_run_ids_size(), 2);
  EXPECT_EQ(g.baseline_run_ids(1), 2);
  EXPECT_DOUBLE_EQ(g.z(), 6.5);
  EXPECT_DOUBLE_EQ(g.p_value(), 0.004);
  EXPECT_FALSE(g.has_cycles_change());  // NULL in the row
  EXPECT_EQ(g.blame(), v1::BLAME_CODE);

  RegressionFilter by_device;
  by_device.device_uuid = "GPU-x";
  ASSERT_OK_AND_ASSIGN(page, store_->ListRegressions(by_device));
  EXPECT_EQ(page.regressions.size(), 1u);
  RegressionFilter by_run;
  by_run.run_id = run_ + 1000;
  ASSERT_OK_AND_ASSIGN(page, store_->ListRegressions(by_run));
  EXPECT_TRUE(page.regressions.empty());
}

TEST_F(RegressionStoreTest, ListRegressionsPagesAndRefusesAForeignToken) {
  for (int i = 0; i < 5; ++i) {
    InsertRegression(run_, "reduce/tree?n=" + std::to_string(i), "reduce", kH100, "OPEN");
  }
  RegressionFilter f;
  f.page_size = 2;
  int seen = 0;
  std::string first_token;
  for (int pages = 0; pages < 10; ++pages) {
    ASSERT_OK_AND_ASSIGN(RegressionPage page, store_->ListRegressions(f));
    seen += static_cast<int>(page.regressions.size());
    if (first_token.empty()) first_token = page.next_page_token;
    if (page.next_page_token.empty()) break;
    f.page_token = page.next_page_token;
  }
  EXPECT_EQ(seen, 5);
  RegressionFilter other;
  other.states = {v1::REGRESSION_STATE_OPEN};
  other.page_token = first_token;
  EXPECT_EQ(store_->ListRegressions(other).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(RegressionStoreTest, TriageRecordsTheStateNoteActorAndAnEvent) {
  const int64_t id = InsertRegression(run_, "reduce/tree?n=1", "reduce", kH100, "OPEN");
  ASSERT_OK_AND_ASSIGN(v1::Regression g,
                       store_->UpdateRegression(id, v1::REGRESSION_STATE_ACKNOWLEDGED,
                                                "looking", "alice"));
  EXPECT_EQ(g.state(), v1::REGRESSION_STATE_ACKNOWLEDGED);
  EXPECT_EQ(g.note(), "looking");
  EXPECT_EQ(g.updated_by(), "alice");
  ASSERT_OK_AND_ASSIGN(g, store_->UpdateRegression(id, v1::REGRESSION_STATE_FIXED, "driver 555",
                                                   "bob"));
  EXPECT_EQ(g.state(), v1::REGRESSION_STATE_FIXED);
  EXPECT_EQ(Sql("SELECT string_agg(from_state || '>' || to_state || ':' || actor || ':' || note,"
                " ' ' ORDER BY id) FROM regression_event WHERE regression_id = $1::bigint",
                std::to_string(id)),
            "OPEN>ACKNOWLEDGED:alice:looking ACKNOWLEDGED>FIXED:bob:driver 555");
}

TEST_F(RegressionStoreTest, AClosedRegressionCannotBeTriagedAgain) {
  const int64_t id = InsertRegression(run_, "reduce/tree?n=1", "reduce", kH100, "OPEN");
  ASSERT_OK(store_->UpdateRegression(id, v1::REGRESSION_STATE_DISMISSED, "", "alice").status());
  StatusOr<v1::Regression> again =
      store_->UpdateRegression(id, v1::REGRESSION_STATE_FIXED, "", "alice");
  EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(again.status().message().find("DISMISSED -> FIXED"), std::string::npos)
      << again.status().message();
  EXPECT_EQ(Sql("SELECT count(*) FROM regression_event WHERE regression_id = $1::bigint",
                std::to_string(id)),
            "1");
}

TEST_F(RegressionStoreTest, DetectorStatesAreNotTriageable) {
  const int64_t suspected = InsertRegression(run_, "reduce/tree?n=1", "reduce", kH100, "SUSPECTED");
  StatusOr<v1::Regression> r =
      store_->UpdateRegression(suspected, v1::REGRESSION_STATE_ACKNOWLEDGED, "", "alice");
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("SUSPECTED"), std::string::npos);
  const int64_t open = InsertRegression(run_, "reduce/tree?n=2", "reduce", kH100, "OPEN");
  r = store_->UpdateRegression(open, v1::REGRESSION_STATE_OPEN, "", "alice");
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("OPEN is not a triage state"), std::string::npos);
  r = store_->UpdateRegression(open, v1::REGRESSION_STATE_NOISE, "", "alice");
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(RegressionStoreTest, TriageOfAnUnknownRegressionIsNotFound) {
  StatusOr<v1::Regression> r =
      store_->UpdateRegression(77777, v1::REGRESSION_STATE_FIXED, "", "alice");
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("77777"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::server::testing
