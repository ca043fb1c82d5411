// Pinned baselines in the store (Store::PinBaseline, UnpinBaseline, ListBaselines;
// server/store/pg_store_baselines.cc) on a real PostgreSQL: what may be pinned, and what a pin
// holds and lists.
#include <gtest/gtest.h>

#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

// Store tests act as an admin would: every pin may be removed.
const Store::PinGuard kBaselineStoreAnyPin = [](const v1::BaselinePin&) { return OkStatus(); };

class BaselineStoreTest : public AnalysisTest {
 protected:
  StatusOr<v1::BaselinePin> Pin(const std::vector<int64_t>& runs, const std::string& series = "",
                                const std::string& by = "ci") {
    BaselinePinRequest request;
    request.run_ids = runs;
    request.series_id = series;
    request.note = "release";
    request.pinned_by = by;
    return store_->PinBaseline(request, 0.05);
  }
  // A fired schedule run grouping the jobs of `runs`.
  int64_t ScheduleRunOf(const std::vector<int64_t>& runs) {
    const int64_t schedule =
        Sql("INSERT INTO schedule (name, cron, job_template) VALUES ($1, '0 2 * * *', '{}')"
            " RETURNING id",
            "nightly-" + std::to_string(++schedules_))
            .at(0).at(0).as<int64_t>();
    const int64_t id = Sql("INSERT INTO schedule_run (schedule_id, due_at, trigger, state)"
                           " VALUES ($1, now(), 'CRON', 'FIRED') RETURNING id",
                           schedule)
                           .at(0).at(0).as<int64_t>();
    for (int64_t run : runs) {
      Sql("UPDATE job SET schedule_run_id = $1 WHERE id = (SELECT job_id FROM run WHERE id = $2)",
          id, run);
    }
    return id;
  }
  StatusOr<v1::BaselinePin> PinScheduleRun(int64_t schedule_run, const std::string& series = "") {
    BaselinePinRequest request;
    request.schedule_run_id = schedule_run;
    request.series_id = series;
    request.pinned_by = "ci";
    return store_->PinBaseline(request, 0.05);
  }
  int schedules_ = 0;
  std::vector<int64_t> Ids(const BaselinePage& page) {
    std::vector<int64_t> ids;
    for (const v1::BaselinePin& p : page.pins) ids.push_back(p.id());
    return ids;
  }
};

TEST_F(BaselineStoreTest, APinHoldsItsRunsOnceInOrderWithWhoAndWhy) {
  const int64_t a = AddRun({Point()});
  const int64_t b = AddRun({Point()}, OnDevice(kDeviceB));
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin pin, Pin({b, a, b}, SeriesOf(Point()), "alice"));
  EXPECT_GT(pin.id(), 0);
  ASSERT_EQ(pin.run_ids_size(), 2);
  EXPECT_EQ(pin.run_ids(0), a);
  EXPECT_EQ(pin.run_ids(1), b);
  EXPECT_EQ(pin.series_id(), SeriesOf(Point()));
  EXPECT_EQ(pin.pinned_by(), "alice");
  EXPECT_EQ(pin.note(), "release");
  EXPECT_GT(pin.pinned_at().seconds(), 0);
}

TEST_F(BaselineStoreTest, AScheduleRunPinsItsSucceededRunsThatHaveAGoodPoint) {
  const int64_t a = AddRun({Point()});
  const int64_t b = AddRun({Point()}, OnDevice(kDeviceB));
  const int64_t failed = AddRun({Point()}, Ending("FAILED"));
  AddRun({Point()});  // not part of the schedule run
  const int64_t night = ScheduleRunOf({a, b, failed});
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin pin, PinScheduleRun(night));
  EXPECT_EQ(std::vector<int64_t>(pin.run_ids().begin(), pin.run_ids().end()),
            (std::vector<int64_t>{a, b}));
  EXPECT_EQ(pin.pinned_by(), "ci");
}

TEST_F(BaselineStoreTest, AnUnknownScheduleRunIsNotFoundAndOneWithNothingGoodIsRefused) {
  EXPECT_EQ(PinScheduleRun(999).status().code(), StatusCode::kNotFound);
  const int64_t failed = AddRun({Point()}, Ending("FAILED"));
  const int64_t night = ScheduleRunOf({failed});
  StatusOr<v1::BaselinePin> pin = PinScheduleRun(night);
  ASSERT_FALSE(pin.ok());
  EXPECT_EQ(pin.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(pin.status().message().find("schedule run " + std::to_string(night)),
            std::string::npos)
      << pin.status().message();
  EXPECT_EQ(Sql("SELECT count(*) FROM baseline_pin").at(0).at(0).as<int>(), 0);
}

TEST_F(BaselineStoreTest, AnUnknownRunIsNotFound) {
  const int64_t a = AddRun({Point()});
  StatusOr<v1::BaselinePin> pin = Pin({a, a + 1000});
  EXPECT_EQ(pin.status().code(), StatusCode::kNotFound);
  EXPECT_NE(pin.status().message().find("run " + std::to_string(a + 1000)), std::string::npos);
  EXPECT_EQ(Sql("SELECT count(*) FROM baseline_pin").at(0).at(0).as<int>(), 0);
}

TEST_F(BaselineStoreTest, AFailedRunIsRefused) {
  const int64_t failed = AddRun({Point()}, Ending("FAILED"));
  StatusOr<v1::BaselinePin> pin = Pin({failed});
  EXPECT_EQ(pin.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(pin.status().message().find("is FAILED"), std::string::npos) << pin.status().ToString();
}

TEST_F(BaselineStoreTest, ASeriesTheRunDidNotMeasureIsNamed) {
  const int64_t a = AddRun({Point()});
  Point other;
  other.variant = "scattered";
  StatusOr<v1::BaselinePin> pin = Pin({a}, SeriesOf(other));
  EXPECT_EQ(pin.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(pin.status().message().find("did not measure series " + SeriesOf(other)),
            std::string::npos)
      << pin.status().ToString();
}

TEST_F(BaselineStoreTest, AnUnverifiedPointIsRefused) {
  Point unverified;
  unverified.verified = false;
  const int64_t a = AddRun({unverified});
  StatusOr<v1::BaselinePin> pin = Pin({a}, SeriesOf(unverified));
  EXPECT_EQ(pin.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(pin.status().message().find("unverified"), std::string::npos)
      << pin.status().ToString();
  StatusOr<v1::BaselinePin> every = Pin({a});
  EXPECT_EQ(every.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(every.status().message().find("no good point"), std::string::npos)
      << every.status().ToString();
}

TEST_F(BaselineStoreTest, ListFiltersBySeriesAndRunNewestFirst) {
  Point other;
  other.variant = "scattered";
  const int64_t a = AddRun({Point()});
  const int64_t b = AddRun({other});
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin every_a, Pin({a}));
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin series_b, Pin({b}, SeriesOf(other)));
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin every_b, Pin({b}));
  BaselineFilter all;
  ASSERT_OK_AND_ASSIGN(BaselinePage page, store_->ListBaselines(all));
  EXPECT_EQ(Ids(page), (std::vector<int64_t>{every_b.id(), series_b.id(), every_a.id()}));
  BaselineFilter by_series;
  by_series.series_id = SeriesOf(other);  // its own pin, and the every-series pin of run b
  ASSERT_OK_AND_ASSIGN(page, store_->ListBaselines(by_series));
  EXPECT_EQ(Ids(page), (std::vector<int64_t>{every_b.id(), series_b.id()}));
  BaselineFilter by_run;
  by_run.run_id = a;
  ASSERT_OK_AND_ASSIGN(page, store_->ListBaselines(by_run));
  EXPECT_EQ(Ids(page), (std::vector<int64_t>{every_a.id()}));
}

TEST_F(BaselineStoreTest, ListPagesWithTokensBoundToTheFilter) {
  const int64_t a = AddRun({Point()});
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(Pin({a}).ok());
  BaselineFilter filter;
  filter.page_size = 2;
  ASSERT_OK_AND_ASSIGN(BaselinePage first, store_->ListBaselines(filter));
  ASSERT_EQ(first.pins.size(), 2u);
  ASSERT_FALSE(first.next_page_token.empty());
  filter.page_token = first.next_page_token;
  ASSERT_OK_AND_ASSIGN(BaselinePage second, store_->ListBaselines(filter));
  EXPECT_EQ(second.pins.size(), 1u);
  EXPECT_TRUE(second.next_page_token.empty());
  filter.run_id = a;  // another filter: the token is refused
  EXPECT_EQ(store_->ListBaselines(filter).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(BaselineStoreTest, UnpinDeletesThePinAndReturnsIt) {
  const int64_t a = AddRun({Point()});
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin pin, Pin({a}));
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin removed,
                       store_->UnpinBaseline(pin.id(), kBaselineStoreAnyPin));
  EXPECT_EQ(removed.id(), pin.id());
  ASSERT_EQ(removed.run_ids_size(), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM baseline_pin_run").at(0).at(0).as<int>(), 0);
  EXPECT_EQ(store_->UnpinBaseline(pin.id(), kBaselineStoreAnyPin).status().code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace warpwatch::server::testing
