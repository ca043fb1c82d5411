// File: tests/worker/daemon/backoff_test.cc
#include "worker/daemon/backoff.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(Backoff, DelaysGrowExponentiallyWithJitterAndStopAtTheCap) {
  BackoffPolicy policy{0.1, 1.0, 2};
  Backoff backoff(policy, 42);
  const double bases[] = {0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0};
  for (double base : bases) {
    double delay = backoff.NextDelay().count() / 1000.0;
    EXPECT_GE(delay, base * 0.5 - 1e-3) << base;
    EXPECT_LE(delay, base + 1e-3) << base;
  }
}

TEST(Backoff, JitterSpreadsWorkersApart) {
  Backoff a(BackoffPolicy{1, 10, 2}, 1);
  Backoff b(BackoffPolicy{1, 10, 2}, 2);
  int same = 0;
  for (int i = 0; i < 5; ++i) same += a.NextDelay() == b.NextDelay();
  EXPECT_LT(same, 5);
}

TEST(Backoff, ResetStartsAgainFromTheInitialDelay) {
  Backoff backoff(BackoffPolicy{0.1, 10, 2}, 7);
  for (int i = 0; i < 6; ++i) backoff.NextDelay();
  backoff.Reset();
  EXPECT_EQ(backoff.attempt(), 0);
  EXPECT_LE(backoff.NextDelay().count(), 100);
}

}  // namespace
}  // namespace warpwatch::worker
