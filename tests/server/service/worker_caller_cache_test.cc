// File: tests/server/service/worker_caller_cache_test.cc
#include "server/service/detail/worker_caller_cache.h"

#include <gtest/gtest.h>

namespace warpwatch::server::detail {
namespace {

using Clock = WorkerCallerCache::Clock;
using std::chrono::seconds;

TEST(WorkerCallerCacheTest, AnswersYesOnlyForTheRememberedPrincipalWithinTheTtl) {
  WorkerCallerCache cache(seconds(30));
  const Clock::time_point t0 = Clock::now();
  EXPECT_FALSE(cache.Allowed("w-1", "worker:node-1", t0));
  cache.Remember("w-1", "worker:node-1", t0);
  EXPECT_TRUE(cache.Allowed("w-1", "worker:node-1", t0 + seconds(29)));
  EXPECT_FALSE(cache.Allowed("w-1", "worker:node-2", t0 + seconds(1)));  // another principal
  EXPECT_FALSE(cache.Allowed("w-2", "worker:node-1", t0 + seconds(1)));  // another worker
  EXPECT_FALSE(cache.Allowed("w-1", "worker:node-1", t0 + seconds(30)));  // expired
}

TEST(WorkerCallerCacheTest, AFullCacheStartsOverInsteadOfGrowing) {
  WorkerCallerCache cache(seconds(30), /*max_entries=*/2);
  const Clock::time_point t0 = Clock::now();
  cache.Remember("w-1", "a", t0);
  cache.Remember("w-2", "b", t0);
  cache.Remember("w-3", "c", t0);
  EXPECT_FALSE(cache.Allowed("w-1", "a", t0));
  EXPECT_TRUE(cache.Allowed("w-3", "c", t0));
}

}  // namespace
}  // namespace warpwatch::server::detail
