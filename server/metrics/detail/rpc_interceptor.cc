// File: server/metrics/detail/rpc_interceptor.cc
#include "server/metrics/detail/rpc_interceptor.h"

#include <utility>

#include "common/status/status.h"
#include "server/metrics/server_metrics.h"

namespace warpwatch::server::metrics::detail {

RpcMetricsInterceptor::RpcMetricsInterceptor(ServerMetrics* metrics, std::string method)
    : metrics_(metrics), method_(std::move(method)), start_(std::chrono::steady_clock::now()) {}

RpcMetricsInterceptor::~RpcMetricsInterceptor() {
  // A call that never sent a status was cancelled (client went away, deadline, shutdown).
  if (!recorded_) Record("CANCELLED");
}

void RpcMetricsInterceptor::Intercept(grpc::experimental::InterceptorBatchMethods* methods) {
  if (methods->QueryInterceptionHookPoint(
          grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
    const grpc::Status status = methods->GetSendStatus();
    Record(StatusCodeName(static_cast<StatusCode>(status.error_code())));
  }
  methods->Proceed();
}

void RpcMetricsInterceptor::Record(const std::string& code) {
  recorded_ = true;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  metrics_->ObserveRpc(method_, code, elapsed.count());
}

grpc::experimental::Interceptor* RpcMetricsInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new RpcMetricsInterceptor(metrics_, metrics_->RpcLabel(info->method()));
}

}  // namespace warpwatch::server::metrics::detail
