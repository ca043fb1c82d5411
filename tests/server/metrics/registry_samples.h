// File: tests/server/metrics/registry_samples.h
// A registry's metrics as a Prometheus scrape would read them, for metric unit tests.
#ifndef WARPWATCH_TESTS_SERVER_METRICS_REGISTRY_SAMPLES_H_
#define WARPWATCH_TESTS_SERVER_METRICS_REGISTRY_SAMPLES_H_

#include <prometheus/registry.h>

#include <map>
#include <string>

namespace warpwatch::server::metrics {

// "name{label=value}..." -> value for counters and gauges; histograms give "_count" and "_sum".
inline std::map<std::string, double> Samples(prometheus::Registry& registry) {
  std::map<std::string, double> out;
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    for (const prometheus::ClientMetric& metric : family.metric) {
      std::string labels;
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        labels += "{" + label.name + "=" + label.value + "}";
      }
      switch (family.type) {
        case prometheus::MetricType::Counter:
          out[family.name + labels] = metric.counter.value;
          break;
        case prometheus::MetricType::Gauge:
          out[family.name + labels] = metric.gauge.value;
          break;
        case prometheus::MetricType::Histogram:
          out[family.name + "_count" + labels] = static_cast<double>(metric.histogram.sample_count);
          out[family.name + "_sum" + labels] = metric.histogram.sample_sum;
          break;
        default:
          break;
      }
    }
  }
  return out;
}

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_TESTS_SERVER_METRICS_REGISTRY_SAMPLES_H_
