// Pure tests of the store's value conversions (no database).
#include "server/store/detail/conversions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "server/store/detail/connection_pool.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::detail {
namespace {

TEST(ConversionsTest, JobStateNamesRoundTrip) {
  for (v1::JobState s : {v1::JOB_STATE_QUEUED, v1::JOB_STATE_RUNNING, v1::JOB_STATE_SUCCEEDED,
                         v1::JOB_STATE_FAILED, v1::JOB_STATE_CANCELLED}) {
    EXPECT_EQ(JobStateFromName(JobStateName(s)), s);
  }
  EXPECT_EQ(JobStateName(v1::JOB_STATE_UNSPECIFIED), "");
  EXPECT_EQ(JobStateFromName("bogus"), v1::JOB_STATE_UNSPECIFIED);
}

// Found by tests/fuzz upload_measurements (corpus: measured_at_out_of_range.pb): a worker's
// measured_at, or a reader's time filter, with seconds or nanos out of range overflowed int64 in
// the conversion to microseconds.
TEST(ConversionsTest, MicrosFromTimestampClampsOutOfRangeValuesInsteadOfOverflowing) {
  google::protobuf::Timestamp huge;
  huge.set_seconds(std::numeric_limits<int64_t>::max());
  huge.set_nanos(std::numeric_limits<int32_t>::max());
  EXPECT_EQ(MicrosFromTimestamp(huge), 253402300799LL * 1000000 + 999999);
  google::protobuf::Timestamp tiny;
  tiny.set_seconds(std::numeric_limits<int64_t>::min());
  tiny.set_nanos(-5);
  EXPECT_EQ(MicrosFromTimestamp(tiny), -62135596800LL * 1000000);
}

TEST(ConversionsTest, TimestampsRoundTripThroughMicrosAndZeroMeansUnset) {
  google::protobuf::Timestamp ts = TimestampFromMicros(1700000000123456);
  EXPECT_EQ(ts.seconds(), 1700000000);
  EXPECT_EQ(ts.nanos(), 123456000);
  EXPECT_EQ(MicrosFromTimestamp(ts), 1700000000123456);
  EXPECT_EQ(TimestampFromMicros(0).seconds(), 0);
}

TEST(ConversionsTest, ArrayLiteralsQuoteAndSpellSpecialValues) {
  EXPECT_EQ(BigintArrayLiteral({}), "{}");
  EXPECT_EQ(BigintArrayLiteral({1, -2, 3}), "{1,-2,3}");
  EXPECT_EQ(BoolArrayLiteral({true, false}), "{t,f}");
  EXPECT_EQ(TextArrayLiteral({"a", "b\"c", "d\\e", "x,y"}), R"({"a","b\"c","d\\e","x,y"})");
  EXPECT_EQ(DoubleArrayLiteral({0.1, std::nan(""), std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity()}),
            "{0.1,NaN,Infinity,-Infinity}");
}

TEST(ConversionsTest, MessagesRoundTripThroughJsonWithProtoFieldNames) {
  v1::JobSpec spec;
  spec.add_families("memory.*");
  spec.mutable_selector()->set_gpu_model("*H100*");
  (*spec.mutable_labels())["git_sha"] = "abc";
  StatusOr<std::string> json = MessageToJson(spec);
  ASSERT_TRUE(json.ok());
  EXPECT_NE(json->find("\"gpu_model\""), std::string::npos) << *json;
  v1::JobSpec back;
  ASSERT_TRUE(MessageFromJson(*json, &back).ok());
  EXPECT_EQ(back.SerializeAsString(), spec.SerializeAsString());
  EXPECT_EQ(MessageFromJson("not json", &back).code(), StatusCode::kInternal);
}

TEST(ConversionsTest, StringMapsRoundTripThroughJson) {
  const std::map<std::string, std::string> labels = {{"a", "1"}, {"quote\"", "x\ny"}};
  StatusOr<std::map<std::string, std::string>> back = StringMapFromJson(StringMapToJson(labels));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, labels);
  EXPECT_EQ(StringMapToJson({}), "{}");
  EXPECT_FALSE(StringMapFromJson("[1]").ok());
  EXPECT_FALSE(StringMapFromJson("{\"a\": 1}").ok());
}

TEST(ConnectionPoolTest, ConnectTimeoutIsAddedToUrlsAndKeywordStrings) {
  EXPECT_EQ(WithConnectTimeout("postgresql://u@h:5432/db", 1),
            "postgresql://u@h:5432/db?connect_timeout=1");
  EXPECT_EQ(WithConnectTimeout("postgresql://u@h/db?sslmode=disable", 1),
            "postgresql://u@h/db?sslmode=disable&connect_timeout=1");
  EXPECT_EQ(WithConnectTimeout("host=h dbname=db", 2), "host=h dbname=db connect_timeout=2");
  EXPECT_EQ(WithConnectTimeout("postgresql://h/db?connect_timeout=5", 1),
            "postgresql://h/db?connect_timeout=5");
}

TEST(ConnectionPoolTest, AcquireAnswersUnavailableWhenNothingListens) {
  PoolOptions options;
  options.url = WithConnectTimeout("postgresql://postgres@127.0.0.1:1/none", 1);
  options.max_size = 1;
  ConnectionPool pool(options);
  StatusOr<ConnectionPool::Handle> handle = pool.Acquire();
  EXPECT_EQ(handle.status().code(), StatusCode::kUnavailable);
  // The failed attempt gave its slot back: the next one is tried (and fails) too, not starved.
  EXPECT_EQ(pool.Acquire().status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace warpwatch::server::detail
