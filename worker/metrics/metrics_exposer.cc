// File: worker/metrics/metrics_exposer.cc
#include "worker/metrics/metrics_exposer.h"

#include <exception>

namespace warpwatch::worker {

StatusOr<std::string> MetricsBindAddress(const std::string& listen) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon + 1 == listen.size()) {
    return InvalidArgumentError("--metrics-listen: \"" + listen + "\" needs a port ([host]:port)");
  }
  for (size_t i = colon + 1; i < listen.size(); ++i) {
    if (listen[i] < '0' || listen[i] > '9') {
      return InvalidArgumentError("--metrics-listen: bad port in \"" + listen + "\"");
    }
  }
  if (colon == 0) return "0.0.0.0" + listen;
  return listen;
}

StatusOr<std::unique_ptr<prometheus::Exposer>> ExposeMetrics(
    const std::string& listen, const std::shared_ptr<prometheus::Registry>& registry) {
  ASSIGN_OR_RETURN(std::string address, MetricsBindAddress(listen));
  try {
    auto exposer = std::make_unique<prometheus::Exposer>(address, /*num_threads=*/1);
    exposer->RegisterCollectable(registry);
    return exposer;
  } catch (const std::exception& e) {
    return UnavailableError("cannot serve metrics on " + address + ": " + e.what());
  }
}

}  // namespace warpwatch::worker
