// Pinned baselines in the analysis of finished runs, on a real PostgreSQL: a series judged against
// its pin instead of its rolling window (migration 0012, run_analyzer.cc), the method and baseline
// runs recorded on the regression, the confirmation judged against the same pin, and unpinning.
#include <gtest/gtest.h>

#include "server/store/detail/conversions.h"
#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

// Store tests act as an admin would: every pin may be removed.
const Store::PinGuard kPinnedBaselineAnyPin = [](const v1::BaselinePin&) { return OkStatus(); };

constexpr double kRelease = 1e-4;  // the release build's median
constexpr double kSlow = 1.06e-4;  // where the series crept to, a little each night

class PinnedBaselineTest : public AnalysisTest {
 protected:
  Point At(double median) {
    Point p;
    p.median = median;
    return p;
  }

  // The release run, then ten nights already at the slow level (each like the night before, so
  // the rolling window never flags them); all analysed.
  int64_t AddReleaseAndSlowNights() {
    const int64_t release = AddRun({At(kRelease)});
    AddNoisyRuns(At(kSlow), 10, 0.001);
    EXPECT_EQ(AnalyzeAll(), 11);
    return release;
  }

  int64_t Pin(const std::vector<int64_t>& runs, const std::string& series = "") {
    BaselinePinRequest request;
    request.run_ids = runs;
    request.series_id = series;
    request.note = "release 1.0";
    request.pinned_by = "ci";
    StatusOr<v1::BaselinePin> pin = store_->PinBaseline(request, 0.05);
    EXPECT_TRUE(pin.ok()) << pin.status().ToString();
    return pin.ok() ? pin->id() : 0;
  }

  pqxx::result RegressionsOf(int64_t run) {
    return Sql(
        "SELECT kind, state, method, baseline_run_ids::text, baseline_median_seconds, change"
        " FROM regression WHERE run_id = $1 AND kind <> 'OUTLIER'",
        run);
  }
};

TEST_F(PinnedBaselineTest, TheRollingWindowMissesWhatCreptInSlowly) {
  AddReleaseAndSlowNights();
  const int64_t night = AddRun({At(kSlow)});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(RegressionsOf(night).size(), 0u);
}

TEST_F(PinnedBaselineTest, APinnedFastReleaseRunFlagsTheSlowNight) {
  const int64_t release = AddReleaseAndSlowNights();
  const int64_t pin = Pin({release}, SeriesOf(At(kRelease)));
  const int64_t night = AddRun({At(kSlow)});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = RegressionsOf(night);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "REGRESSION");
  EXPECT_EQ(r[0][1].as<std::string>(), "SUSPECTED");
  const std::string method = r[0][2].as<std::string>();
  EXPECT_EQ(method.rfind("pinned: baseline pin " + std::to_string(pin), 0), 0u) << method;
  EXPECT_NE(method.find("rolling window's 10 runs"), std::string::npos) << method;
  EXPECT_EQ(r[0][3].as<std::string>(), detail::BigintArrayLiteral({release}));
  EXPECT_DOUBLE_EQ(r[0][4].as<double>(), kRelease);
  EXPECT_NEAR(r[0][5].as<double>(), 0.06, 1e-9);
}

TEST_F(PinnedBaselineTest, AnEverySeriesPinCoversTheSeriesItsRunMeasured) {
  const int64_t release = AddReleaseAndSlowNights();
  Pin({release});
  const int64_t night = AddRun({At(kSlow)});
  ASSERT_EQ(AnalyzeAll(), 1);
  ASSERT_EQ(RegressionsOf(night).size(), 1u);
}

TEST_F(PinnedBaselineTest, TheConfirmationIsJudgedAgainstThePinToo) {
  const int64_t release = AddReleaseAndSlowNights();
  Pin({release});
  const int64_t night = AddRun({At(kSlow)});
  ASSERT_EQ(AnalyzeAll(), 1);
  const int64_t job =
      Sql("SELECT id FROM job WHERE confirms_run_id = $1", night).at(0).at(0).as<int64_t>();
  AddRun({At(kSlow * 1.0005)}, OfJob(job));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = RegressionsOf(night);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][1].as<std::string>(), "OPEN");  // confirmed, not "unconfirmed: too few runs"
  pqxx::result e = Sql("SELECT note FROM regression_event WHERE to_state = 'OPEN'");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0][0].as<std::string>().rfind("confirmed", 0), 0u) << e[0][0].as<std::string>();
}

TEST_F(PinnedBaselineTest, UnpinningReturnsTheSeriesToItsRollingWindow) {
  const int64_t release = AddReleaseAndSlowNights();
  const int64_t pin = Pin({release});
  ASSERT_TRUE(store_->UnpinBaseline(pin, kPinnedBaselineAnyPin).ok());
  const int64_t night = AddRun({At(kSlow)});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(RegressionsOf(night).size(), 0u);
}

TEST_F(PinnedBaselineTest, APinWithoutAGoodPointOfTheSeriesLeavesItToTheRollingWindow) {
  AddReleaseAndSlowNights();
  Point other = At(kRelease);
  other.variant = "scattered";
  const int64_t unrelated = AddRun({other});
  ASSERT_EQ(AnalyzeAll(), 1);
  Pin({unrelated});  // measured another series only
  const int64_t night = AddRun({At(kSlow)});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(RegressionsOf(night).size(), 0u);
}

}  // namespace
}  // namespace warpwatch::server::testing
