// File: server/metrics/detail/rpc_interceptor.h
// A gRPC server interceptor that times each call and records it with its final status code.
#ifndef WARPWATCH_SERVER_METRICS_DETAIL_RPC_INTERCEPTOR_H_
#define WARPWATCH_SERVER_METRICS_DETAIL_RPC_INTERCEPTOR_H_

#include <grpcpp/support/interceptor.h>
#include <grpcpp/support/server_interceptor.h>

#include <chrono>
#include <string>

namespace warpwatch::server::metrics {
class ServerMetrics;
}  // namespace warpwatch::server::metrics

namespace warpwatch::server::metrics::detail {

// One per call (gRPC creates it when the call starts and deletes it when the call ends).
class RpcMetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  // `method`: the call's label (ServerMetrics::RpcLabel).
  RpcMetricsInterceptor(ServerMetrics* metrics, std::string method);
  ~RpcMetricsInterceptor() override;
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override;

 private:
  void Record(const std::string& code);

  ServerMetrics* metrics_;
  std::string method_;  // the label: a served method without the leading '/', or "unknown"
  std::chrono::steady_clock::time_point start_;
  bool recorded_ = false;
};

class RpcMetricsInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcMetricsInterceptorFactory(ServerMetrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  ServerMetrics* metrics_;
};

}  // namespace warpwatch::server::metrics::detail

#endif  // WARPWATCH_SERVER_METRICS_DETAIL_RPC_INTERCEPTOR_H_
