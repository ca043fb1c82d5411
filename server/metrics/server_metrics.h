// File: server/metrics/server_metrics.h
// The server's Prometheus metrics (names per design.md "Metrics") and their /metrics exporter.
#ifndef WARPWATCH_SERVER_METRICS_SERVER_METRICS_H_
#define WARPWATCH_SERVER_METRICS_SERVER_METRICS_H_

#include <grpcpp/support/server_interceptor.h>
#include <prometheus/exposer.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::server::metrics {

// Owns the registry and, when started with an address, the HTTP exposer. Thread-safe (the
// prometheus-cpp metric objects are). Must outlive the gRPC server that uses its interceptor.
class ServerMetrics {
 public:
  // Registry only, no exporter (listen_address empty) - or an exporter serving /metrics on
  // listen_address ("0.0.0.0:9464"; port 0 picks one). UNAVAILABLE when it cannot bind.
  static StatusOr<std::unique_ptr<ServerMetrics>> Create(const std::string& listen_address);

  // warpwatch_rpc_duration_seconds{method="warpwatch.v1.JobService/SubmitJob", code="OK"}.
  // `method` must be a served one or kUnknownMethod (RpcLabel): every label is a new series
  // that lives as long as the process.
  void ObserveRpc(const std::string& method, const std::string& code, double seconds);
  // The method label of a call to `path` ("/pkg.Service/Method" or without the '/'): the path
  // without its '/' for a method the server serves (SetServedMethods), kUnknownMethod for any
  // other, so that calls to made-up names cannot grow /metrics. Thread-safe after
  // SetServedMethods.
  std::string RpcLabel(const char* path) const;
  // The methods the server serves, "pkg.Service/Method". Call before the server starts.
  // Creates the kUnknownMethod series (code UNIMPLEMENTED) at zero, so the first made-up call
  // changes numbers, not the set of series.
  void SetServedMethods(std::set<std::string> methods);
  static constexpr const char* kUnknownMethod = "unknown";
  // warpwatch_database_up: 1 while the health checker's ping succeeds.
  void SetDatabaseUp(bool up);

  // Interceptor factory recording every RPC's duration and final code. Hand it to the builder
  // (ServerBuilder::experimental().SetInterceptorCreators); it refers back to this object.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> MakeInterceptorFactory();

  // Ports the exporter listens on (empty without one).
  std::vector<int> metrics_ports() const;
  prometheus::Registry& registry() { return *registry_; }

 private:
  ServerMetrics();

  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  prometheus::Family<prometheus::Histogram>& rpc_duration_;
  prometheus::Gauge& database_up_;
  std::set<std::string> served_methods_;  // set before the server starts, then read-only
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_SERVER_METRICS_H_
