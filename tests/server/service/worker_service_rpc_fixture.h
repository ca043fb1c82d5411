// File: tests/server/service/worker_service_rpc_fixture.h
// The WorkerService RPC tests' fixture: a worker with one H100 that holds a job, and a count of
// the measurement rows stored for a run.
#ifndef WARPWATCH_TESTS_SERVER_SERVICE_WORKER_SERVICE_RPC_FIXTURE_H_
#define WARPWATCH_TESTS_SERVER_SERVICE_WORKER_SERVICE_RPC_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <pqxx/pqxx>
#include <string>

#include "tests/server/service/worker_rpc_test_util.h"

namespace warpwatch::testing {

class WorkerServiceRpcTest : public WorkerRpcTest {
 protected:
  // Registers a worker with one H100 "GPU-1", submits a job and acquires it.
  struct Held {
    std::string worker;
    v1::AcquireJobResponse lease;
  };
  Held RegisterAndTakeAJob() {
    Held held;
    held.worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
    Submit();
    held.lease = Acquire(held.worker, "GPU-1", 0);
    EXPECT_TRUE(held.lease.has_job());
    return held;
  }

  int64_t MeasurementRows(int64_t run_id) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    return tx.exec_params1("SELECT count(*) FROM measurement WHERE run_id = $1", run_id)[0]
        .as<int64_t>();
  }
};

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SERVER_SERVICE_WORKER_SERVICE_RPC_FIXTURE_H_
