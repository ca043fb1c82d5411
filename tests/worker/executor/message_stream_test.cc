// Tests of the length-prefixed framing.
#include "worker/executor/message_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {
namespace {

TEST(MessageStream, RoundTripsThroughAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  v1::Measurement a, b;
  a.set_error("first");
  a.add_samples_seconds(1.5e-3);
  b.set_error("second");
  ASSERT_TRUE(WriteMessage(fds[1], a).ok());
  ASSERT_TRUE(WriteMessage(fds[1], b).ok());
  close(fds[1]);
  v1::Measurement got;
  ASSERT_TRUE(ReadMessage(fds[0], &got).ok());
  EXPECT_EQ(got.error(), "first");
  EXPECT_EQ(got.samples_seconds(0), 1.5e-3);
  ASSERT_TRUE(ReadMessage(fds[0], &got).ok());
  EXPECT_EQ(got.error(), "second");
  EXPECT_EQ(ReadMessage(fds[0], &got).code(), StatusCode::kNotFound);
  close(fds[0]);
}

TEST(MessageStream, TruncatedFrameIsDataLoss) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const char partial[] = {10, 0, 0, 0, 1, 2};
  ASSERT_EQ(write(fds[1], partial, sizeof partial), static_cast<ssize_t>(sizeof partial));
  close(fds[1]);
  v1::Measurement got;
  EXPECT_EQ(ReadMessage(fds[0], &got).code(), StatusCode::kDataLoss);
  close(fds[0]);
}

// ReadMessage reads a payload a chunk (1 MiB) at a time: a frame of several chunks, written from a
// thread because it is larger than a pipe holds, arrives whole.
TEST(MessageStream, ReadsAFrameLargerThanOneReadChunk) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  v1::Measurement big;
  big.set_error(std::string((5u << 20) / 2, 'x'));
  for (int i = 0; i < 400000; ++i) big.add_samples_seconds(i * 1e-6);
  std::thread writer([&] {
    EXPECT_TRUE(WriteMessage(fds[1], big).ok());
    close(fds[1]);
  });
  v1::Measurement got;
  const Status status = ReadMessage(fds[0], &got);
  writer.join();
  close(fds[0]);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(got.error().size(), big.error().size());
  ASSERT_EQ(got.samples_seconds_size(), 400000);
  EXPECT_EQ(got.samples_seconds(399999), 399999 * 1e-6);
}

// A length prefix that promises far more than the stream holds: DATA_LOSS once it ends (the payload
// is not allocated at the promised size up front).
TEST(MessageStream, LengthPromisingMoreThanTheStreamHoldsIsDataLoss) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const uint32_t len = kMaxFrameBytes;
  const char partial[] = {static_cast<char>(len & 0xff), static_cast<char>((len >> 8) & 0xff),
                          static_cast<char>((len >> 16) & 0xff),
                          static_cast<char>((len >> 24) & 0xff), 1, 2, 3};
  ASSERT_EQ(write(fds[1], partial, sizeof partial), static_cast<ssize_t>(sizeof partial));
  close(fds[1]);
  v1::Measurement got;
  EXPECT_EQ(ReadMessage(fds[0], &got).code(), StatusCode::kDataLoss);
  close(fds[0]);
}

TEST(FrameReader, AssemblesFramesFedByteByByte) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  v1::Measurement a;
  a.set_error("bytewise");
  ASSERT_TRUE(WriteMessage(fds[1], a).ok());
  close(fds[1]);
  FrameReader reader;
  std::string payload;
  char c;
  int frames = 0;
  while (read(fds[0], &c, 1) == 1) {
    reader.Feed(&c, 1);
    auto next = reader.Next(&payload);
    ASSERT_TRUE(next.ok());
    if (*next) ++frames;
  }
  close(fds[0]);
  EXPECT_EQ(frames, 1);
  v1::Measurement got;
  ASSERT_TRUE(got.ParseFromString(payload));
  EXPECT_EQ(got.error(), "bytewise");
  EXPECT_EQ(reader.pending(), 0u);
}

TEST(FrameReader, OversizedLengthIsDataLoss) {
  FrameReader reader;
  const char huge[] = {'\xff', '\xff', '\xff', '\xff'};
  reader.Feed(huge, 4);
  std::string payload;
  EXPECT_EQ(reader.Next(&payload).status().code(), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace warpwatch::worker
