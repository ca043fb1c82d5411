// File: bench/detail/load_references.h
// The references bench_server_load prints its figures next to, measured in the same run: a bare
// gRPC unary call to the server under test (grpc.health.v1.Health/Check on a channel of its own)
// and a bare PostgreSQL round trip (SELECT 1).
#ifndef WARPWATCH_BENCH_DETAIL_LOAD_REFERENCES_H_
#define WARPWATCH_BENCH_DETAIL_LOAD_REFERENCES_H_

#include <grpcpp/generic/generic_stub.h>

#include <chrono>
#include <string>

#include "bench/detail/paired_latency.h"
#include "bench/detail/server_under_test.h"
#include "common/status/status.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::bench {

using LoadClock = std::chrono::steady_clock;

// Milliseconds since `start`.
double MsSince(LoadClock::time_point start);
// "met" or "MISSED".
const char* Goal(bool met);

// The benchmarks' job: memory.coalescing on GPU `device_uuid`, one attempt.
v1::JobSpec BenchSpec(const std::string& device_uuid);
// SubmitJob as `token`; the server's error with its code.
Status Submit(v1::JobService::Stub& jobs, const std::string& token, const v1::JobSpec& spec,
              v1::Job* job);

// The bare unary call. Not thread-safe: one caller at a time. `server` must outlive it.
class UnaryReference {
 public:
  UnaryReference(const ServerUnderTest& server, std::string token);

  // Milliseconds of one call; negative when it failed.
  double CallMs();

 private:
  grpc::GenericStub stub_;
  std::string token_;
};

struct References {
  Percentiles unary;
  Percentiles database;
};

// `calls` of each reference, alternating. INTERNAL when a health check fails.
StatusOr<References> MeasureReferences(ServerUnderTest& server, UnaryReference& unary, int calls);
void PrintReferences(const References& r);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_LOAD_REFERENCES_H_
