// File: server/metrics/server_metrics.cc
#include "server/metrics/server_metrics.h"

#include <prometheus/counter.h>

#include <exception>
#include <utility>

#include "server/metrics/detail/rpc_interceptor.h"

namespace warpwatch::server::metrics {
namespace {

// 1 ms .. ~30 s, enough for unary calls and long-polls alike.
const prometheus::Histogram::BucketBoundaries kRpcBuckets = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

}  // namespace

ServerMetrics::ServerMetrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      rpc_duration_(prometheus::BuildHistogram()
                        .Name("warpwatch_rpc_duration_seconds")
                        .Help("gRPC call latency by method and final status code")
                        .Register(*registry_)),
      database_up_(prometheus::BuildGauge()
                       .Name("warpwatch_database_up")
                       .Help("1 while the server's PostgreSQL answers its health ping")
                       .Register(*registry_)
                       .Add({})) {}

StatusOr<std::unique_ptr<ServerMetrics>> ServerMetrics::Create(const std::string& listen_address) {
  std::unique_ptr<ServerMetrics> metrics(new ServerMetrics());
  if (!listen_address.empty()) {
    try {
      metrics->exposer_ = std::make_unique<prometheus::Exposer>(listen_address);
    } catch (const std::exception& e) {
      return UnavailableError("--metrics-listen " + listen_address + ": " + e.what());
    }
    metrics->exposer_->RegisterCollectable(metrics->registry_);
  }
  return metrics;
}

void ServerMetrics::ObserveRpc(const std::string& method, const std::string& code, double seconds) {
  rpc_duration_.Add({{"method", method}, {"code", code}}, kRpcBuckets).Observe(seconds);
}

std::string ServerMetrics::RpcLabel(const char* path) const {
  if (path == nullptr) return kUnknownMethod;
  std::string method(path[0] == '/' ? path + 1 : path);
  return served_methods_.count(method) > 0 ? method : kUnknownMethod;
}

void ServerMetrics::SetServedMethods(std::set<std::string> methods) {
  served_methods_ = std::move(methods);
  rpc_duration_.Add({{"method", kUnknownMethod}, {"code", "UNIMPLEMENTED"}}, kRpcBuckets);
}

void ServerMetrics::SetDatabaseUp(bool up) { database_up_.Set(up ? 1 : 0); }

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
ServerMetrics::MakeInterceptorFactory() {
  return std::make_unique<detail::RpcMetricsInterceptorFactory>(this);
}

std::vector<int> ServerMetrics::metrics_ports() const {
  if (!exposer_) return {};
  return exposer_->GetListeningPorts();
}

}  // namespace warpwatch::server::metrics
