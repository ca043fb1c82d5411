// File: tests/server/store/store_test_util.cc
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {

v1::Device MakeDevice(const std::string& uuid, const std::string& name) {
  v1::Device d;
  d.set_uuid(uuid);
  d.set_name(name);
  d.set_compute_capability_major(9);
  d.set_compute_capability_minor(0);
  d.set_sm_count(132);
  d.set_memory_bytes(int64_t{80} << 30);
  return d;
}

v1::JobSpec MakeSpec(const std::string& family) {
  v1::JobSpec spec;
  spec.add_families(family);
  return spec;
}

void StoreTest::SetUp() {
  PostgresTest::SetUp();
  if (HasFatalFailure()) return;
  ASSERT_OK(RunMigrations(url_));
  store_ = OpenStore(8);
  ASSERT_NE(store_, nullptr);
}

std::unique_ptr<Store> StoreTest::OpenStore(int pool_size) {
  PgStoreOptions options;
  options.url = url_;
  options.pool_size = pool_size;
  StatusOr<std::unique_ptr<Store>> store = OpenPgStore(options);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(store).value() : nullptr;
}

std::string StoreTest::Register(const std::vector<v1::Device>& devices,
                                const std::map<std::string, std::string>& labels) {
  v1::RegisterRequest request;
  request.set_hostname("node-1");
  request.set_version("test");
  for (const auto& [k, v] : labels) (*request.mutable_labels())[k] = v;
  for (const v1::Device& d : devices) *request.add_devices() = d;
  request.add_families("memory.copy");
  StatusOr<std::string> id = store_->RegisterWorker(request, kTestCaller, std::chrono::minutes(1));
  EXPECT_TRUE(id.ok()) << id.status().ToString();
  return id.ok() ? *id : std::string();
}

}  // namespace warpwatch::server::testing
