// Tests of ReadReplica's policy: when the standby answers history reads.
#include "server/database/read_replica.h"

#include <gtest/gtest.h>

#include "server/store/pg_store.h"

namespace warpwatch::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Hands out the readings a test queues; UNAVAILABLE when none is queued.
class FakeProbe : public ReplicationProbe {
 public:
  explicit FakeProbe(std::vector<StatusOr<WalPositions>>* readings) : readings_(readings) {}
  StatusOr<WalPositions> Read() override {
    if (readings_->empty()) return UnavailableError("standby down");
    StatusOr<WalPositions> r = readings_->front();
    readings_->erase(readings_->begin());
    return r;
  }

 private:
  std::vector<StatusOr<WalPositions>>* readings_;
};

WalPositions At(std::optional<uint64_t> primary, uint64_t replay, bool in_recovery = true) {
  WalPositions p;
  p.primary_wal_bytes = primary;
  p.standby_replay_bytes = replay;
  p.standby_in_recovery = in_recovery;
  return p;
}

const ReplicaLag::Clock::time_point kT0{seconds(1000)};

class ReadReplicaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Never connects: the tests only look at which store would answer.
    PgStoreOptions options;
    options.url = "postgresql://nobody@127.0.0.1:1/none";
    options.listen_for_jobs = false;
    StatusOr<std::unique_ptr<Store>> store = OpenPgStore(options);
    ASSERT_TRUE(store.ok());
    standby_ = store->get();
    replica_ = std::make_unique<ReadReplica>(std::move(*store),
                                             std::make_unique<FakeProbe>(&readings_), seconds(2));
  }

  std::vector<StatusOr<WalPositions>> readings_;
  Store* standby_ = nullptr;
  std::unique_ptr<ReadReplica> replica_;
};

TEST_F(ReadReplicaTest, IsNotUsedBeforeItsFirstProbe) {
  EXPECT_EQ(replica_->UsableStore(), nullptr);
}

TEST_F(ReadReplicaTest, IsUsedWhileCaughtUp) {
  readings_.push_back(At(100, 100));
  replica_->Probe(kT0);
  EXPECT_EQ(replica_->UsableStore(), standby_);
}

TEST_F(ReadReplicaTest, IsLeftWhileItLagsMoreThanTheLimitAndUsedAgainOnceCaughtUp) {
  readings_ = {At(100, 100), At(200, 100), At(300, 100), At(300, 300)};
  replica_->Probe(kT0);
  replica_->Probe(kT0 + seconds(1));
  EXPECT_EQ(replica_->UsableStore(), standby_) << "1 s behind, limit 2 s";
  replica_->Probe(kT0 + seconds(4));
  EXPECT_EQ(replica_->UsableStore(), nullptr) << "4 s behind";
  replica_->Probe(kT0 + seconds(5));
  EXPECT_EQ(replica_->UsableStore(), standby_);
}

TEST_F(ReadReplicaTest, IsLeftWhileItDoesNotAnswer) {
  readings_.push_back(At(100, 100));
  replica_->Probe(kT0);
  replica_->Probe(kT0 + milliseconds(100));  // no reading queued: down
  EXPECT_EQ(replica_->UsableStore(), nullptr);
}

TEST_F(ReadReplicaTest, IsLeftOncePromoted) {
  readings_.push_back(At(100, 100, /*in_recovery=*/false));
  replica_->Probe(kT0);
  EXPECT_EQ(replica_->UsableStore(), nullptr);
}

TEST_F(ReadReplicaTest, StaysInUseWhileThePrimaryDoesNotAnswer) {
  readings_ = {At(100, 50), At(std::nullopt, 50)};
  replica_->Probe(kT0);
  replica_->Probe(kT0 + seconds(60));
  EXPECT_EQ(replica_->UsableStore(), standby_);
}

TEST(ReadReplicaCallbackTest, TellsEachProbesVerdict) {
  std::vector<StatusOr<WalPositions>> readings = {At(100, 100)};  // then down
  std::vector<bool> told;
  ReadReplica replica(nullptr, std::make_unique<FakeProbe>(&readings), seconds(2),
                      [&told](bool usable) { told.push_back(usable); });
  replica.Probe(kT0);
  replica.Probe(kT0 + seconds(1));
  EXPECT_EQ(told, (std::vector<bool>{true, false}));
}

}  // namespace
}  // namespace warpwatch::server
