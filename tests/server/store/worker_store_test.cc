// Tests of the worker registry in the PostgreSQL store.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

class WorkerStoreTest : public StoreTest {};

TEST_F(WorkerStoreTest, RegistrationCreatesAFreshIdAndReRegistrationKeepsIt) {
  const std::string id = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  EXPECT_EQ(id.size(), 36u);  // a UUID
  const std::string other = Register({MakeDevice("GPU-2", "NVIDIA H100")});
  EXPECT_NE(id, other);
  v1::RegisterRequest again;
  again.set_worker_id(id);
  again.set_hostname("node-1b");
  *again.add_devices() = MakeDevice("GPU-1", "NVIDIA H100");
  ASSERT_OK_AND_ASSIGN(std::string same,
                       store_->RegisterWorker(again, kTestCaller, std::chrono::minutes(1)));
  EXPECT_EQ(same, id);
}

TEST_F(WorkerStoreTest, DevicesFollowTheirLatestWorker) {
  const std::string first = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  Enqueue();
  // GPU-1 moves to a new worker (re-imaged host): the old worker may no longer claim with it.
  const std::string second = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  EXPECT_EQ(store_->ClaimJob(first, "GPU-1", std::chrono::seconds(5)).status().code(),
            StatusCode::kNotFound);
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(second, "GPU-1", std::chrono::seconds(5)));
  EXPECT_TRUE(lease.has_value());
}

TEST_F(WorkerStoreTest, DeviceRowsHoldTheRegisteredIdentity) {
  v1::Device d = MakeDevice("GPU-7", "NVIDIA H100 80GB HBM3");
  d.set_l2_bytes(50 << 20);
  d.set_pci_bus_id("0000:3B:00.0");
  const std::string id = Register({d});
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  pqxx::row row = tx.exec_params1(
      "SELECT worker_id, name, sm_count, l2_bytes, pci_bus_id, info->>'uuid' FROM device"
      " WHERE uuid = $1",
      std::string("GPU-7"));
  EXPECT_EQ(row[0].as<std::string>(), id);
  EXPECT_EQ(row[1].as<std::string>(), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(row[2].as<int>(), 132);
  EXPECT_EQ(row[3].as<int64_t>(), 50 << 20);
  EXPECT_EQ(row[4].as<std::string>(), "0000:3B:00.0");
  EXPECT_EQ(row[5].as<std::string>(), "GPU-7");
}

TEST_F(WorkerStoreTest, ADeviceWithoutUuidIsInvalid) {
  v1::RegisterRequest request;
  request.set_hostname("h");
  request.add_devices()->set_name("NVIDIA H100");
  EXPECT_EQ(store_->RegisterWorker(request, kTestCaller, std::chrono::minutes(1)).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(WorkerStoreTest, TouchKnownWorkerSucceedsAndUnknownIsNotFound) {
  const std::string id = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  ASSERT_OK(store_->RecordHeartbeat(id, {}, std::chrono::seconds(60)).status());
  EXPECT_EQ(store_->RecordHeartbeat("no-such-worker", {}, std::chrono::seconds(60)).status().code(),
            StatusCode::kNotFound);
}

TEST_F(WorkerStoreTest, AWorkerIsBoundToThePrincipalThatRegisteredIt) {
  const std::string id = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const WorkerCaller other{"someone-else", false};
  const WorkerCaller admin{"ops", true};
  ASSERT_OK(store_->CheckWorkerCaller(id, kTestCaller));
  EXPECT_EQ(store_->CheckWorkerCaller(id, other).code(), StatusCode::kPermissionDenied);
  ASSERT_OK(store_->CheckWorkerCaller(id, admin));
  EXPECT_EQ(store_->CheckWorkerCaller("no-such-worker", kTestCaller).code(), StatusCode::kNotFound);
  v1::RegisterRequest takeover;
  takeover.set_hostname("evil");
  takeover.set_worker_id(id);
  EXPECT_EQ(store_->RegisterWorker(takeover, other, std::chrono::minutes(1)).status().code(),
            StatusCode::kPermissionDenied);
  // The refused registration changed nothing: GPU-1 still belongs to the worker.
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(tx.exec1("SELECT worker_id FROM device WHERE uuid = 'GPU-1'")[0].as<std::string>(), id);
  EXPECT_EQ(tx.exec1("SELECT hostname FROM worker")[0].as<std::string>(), "node-1");
}

}  // namespace
}  // namespace warpwatch::server::testing
