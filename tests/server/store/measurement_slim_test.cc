// File: tests/server/store/measurement_slim_test.cc
// Slim documents (server/store/detail/measurement_slim.h) without a database: the columns a row
// would give are the column fields of the whole document, as MeasurementFromColumns reads them.
#include "server/store/detail/measurement_slim.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <cmath>

#include "server/store/detail/measurement_columns.h"
#include "server/store/detail/measurement_row.h"
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using detail::ColumnFields;
using detail::IsSlimDocument;
using detail::MeasurementFromSlimDocument;
using detail::SlimDocumentOf;

// What a row's columns give for `full`: its column fields, nothing else.
v1::Measurement ColumnsOf(v1::Measurement full) {
  v1::Measurement columns;
  columns.GetReflection()->SwapFields(&columns, &full, ColumnFields());
  return columns;
}

// CounterPassMeasurement with a second kernel, launched second, with counters of its own.
v1::Measurement TwoKernelMeasurement() {
  v1::Measurement m = CounterPassMeasurement();
  m.set_series_id("reduce/two_pass?n=16777216@NVIDIA H100");
  m.set_run_id(7);
  v1::KernelInfo* k = m.add_kernels();
  k->set_name("FinalSum");
  k->set_mangled("_Z8FinalSumPKfPf");
  (*k->mutable_counters())["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 2.5;
  v1::KernelLaunch* launch = m.add_launches();
  launch->set_kernel(1);
  *launch->mutable_counters() = k->counters();
  return m;
}

// `a` and `b` serialize to the same bytes (maps in key order); ExpectSameMessage names the field
// when not.
void ExpectSameBytes(const v1::Measurement& a, const v1::Measurement& b) {
  ExpectSameMessage(a, b);
  std::string a_bytes, b_bytes;
  google::protobuf::io::StringOutputStream a_stream(&a_bytes), b_stream(&b_bytes);
  {
    google::protobuf::io::CodedOutputStream a_coded(&a_stream), b_coded(&b_stream);
    a_coded.SetSerializationDeterministic(true);
    b_coded.SetSerializationDeterministic(true);
    a.SerializeToCodedStream(&a_coded);
    b.SerializeToCodedStream(&b_coded);
  }
  EXPECT_EQ(a_bytes, b_bytes);
}

v1::Measurement RoundTrip(const v1::Measurement& full, const v1::Measurement& columns) {
  const std::string slim = SlimDocumentOf(full, columns);
  StatusOr<v1::Measurement> back = MeasurementFromSlimDocument(slim.data(), slim.size(), columns);
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  return back.ok() ? *back : v1::Measurement();
}

TEST(MeasurementSlimTest, ASlimDocumentIsToldApartFromAWholeOneByItsFirstByte) {
  v1::Measurement every;
  FillEveryField(&every);
  every.clear_samples_seconds();
  ASSERT_OK_AND_ASSIGN(const std::string whole, detail::MeasurementDocument(1, "s", every));
  EXPECT_EQ(whole[0], '\x0a');  // the case, field 1, comes first
  EXPECT_FALSE(IsSlimDocument(whole.data(), whole.size()));
  const std::string slim = SlimDocumentOf(every, ColumnsOf(every));
  EXPECT_TRUE(IsSlimDocument(slim.data(), slim.size()));
  EXPECT_FALSE(IsSlimDocument("", 0));
}

TEST(MeasurementSlimTest, EveryFieldComesBackFromTheColumnsAndTheSlimDocument) {
  v1::Measurement every;
  FillEveryField(&every);
  for (auto* samples : {every.mutable_samples_seconds(), every.mutable_sample_sm_clock_mhz(),
                        every.mutable_sample_kernel_seconds()}) {
    samples->Clear();
  }
  every.clear_sample_throttled();
  every.clear_sample_group();
  ExpectSameBytes(RoundTrip(every, ColumnsOf(every)), every);
}

TEST(MeasurementSlimTest, TheSlimDocumentHoldsNoColumnFieldAndNoCounterCopy) {
  const v1::Measurement m = TwoKernelMeasurement();
  const std::string slim = SlimDocumentOf(m, ColumnsOf(m));
  ASSERT_OK_AND_ASSIGN(const std::string whole, detail::MeasurementDocument(7, m.series_id(), m));
  // Left: the kernels' mangled names, the second kernel's name, the second launch's counters (its
  // own), the launches' kernel indexes and the markers.
  auto count = [](const std::string& bytes, const std::string& what) {
    int n = 0;
    for (size_t at = bytes.find(what); at != std::string::npos; at = bytes.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(whole, "dram__throughput"), 5);  // the measurement, two kernels, two launches
  EXPECT_EQ(count(slim, "dram__throughput"), 1);
  EXPECT_EQ(count(slim, "reduce/two_pass"), 0);  // case and series id: columns
  EXPECT_EQ(count(slim, "\x0bPartialSums"), 0);  // kernel 0's name is kernel_name
  EXPECT_LT(slim.size(), whole.size() / 2) << slim.size() << " of " << whole.size();
  ExpectSameBytes(RoundTrip(m, ColumnsOf(m)), m);
}

TEST(MeasurementSlimTest, AColumnThatDoesNotGiveTheValueBackLeavesItInTheDocument) {
  v1::Measurement m = TwoKernelMeasurement();
  m.mutable_measured_at()->set_seconds(1763900000);
  m.mutable_measured_at()->set_nanos(123456789);
  m.set_status(static_cast<v1::PointStatus>(9));  // from a newer worker
  v1::Measurement columns = ColumnsOf(m);
  columns.mutable_measured_at()->set_nanos(123456000);  // timestamptz keeps microseconds
  columns.set_status(v1::POINT_STATUS_UNSPECIFIED);     // the status column's text for it
  ExpectSameBytes(RoundTrip(m, columns), m);
}

TEST(MeasurementSlimTest, ADifferenceTheComparisonMissesKeepsTheWholeDocument) {
  v1::Measurement m = TwoKernelMeasurement();
  (*m.mutable_counters())["sm__cycles_active.avg"] = -0.0;
  (*m.mutable_counters())["l1tex__hit_rate.pct"] = std::nan("");
  v1::Measurement columns = ColumnsOf(m);
  (*columns.mutable_counters())["sm__cycles_active.avg"] = 0.0;  // jsonb has no -0
  const v1::Measurement back = RoundTrip(m, columns);
  EXPECT_TRUE(std::signbit(back.counters().at("sm__cycles_active.avg")));
  EXPECT_TRUE(std::isnan(back.counters().at("l1tex__hit_rate.pct")));
  ExpectSameBytes(back, m);
}

TEST(MeasurementSlimTest, SlimmingARebuiltMeasurementAgainGivesTheSameBytes) {
  const v1::Measurement m = TwoKernelMeasurement();
  const v1::Measurement columns = ColumnsOf(m);
  const std::string once = SlimDocumentOf(m, columns);
  ASSERT_OK_AND_ASSIGN(const v1::Measurement back,
                       MeasurementFromSlimDocument(once.data(), once.size(), columns));
  EXPECT_EQ(SlimDocumentOf(back, columns), once);
}

TEST(MeasurementSlimTest, AnUnknownFormatOrAMissingKernelIsAnError) {
  const std::string newer = "\x08\x02";
  EXPECT_EQ(MeasurementFromSlimDocument(newer.data(), newer.size(), {}).status().code(),
            StatusCode::kInternal);
  EXPECT_EQ(MeasurementFromSlimDocument("\x08\x01\x22\x01\x05", 5, {}).status().code(),
            StatusCode::kInternal);  // launch 5 of none
}

}  // namespace
}  // namespace warpwatch::server::testing
