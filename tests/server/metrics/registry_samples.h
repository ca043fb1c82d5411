// File: tests/server/metrics/registry_samples.h
// A registry's metrics as a Prometheus scrape would read them, for metric unit tests.
#ifndef WARPWATCH_TESTS_SERVER_METRICS_REGISTRY_SAMPLES_H_
#define WARPWATCH_TESTS_SERVER_METRICS_REGISTRY_SAMPLES_H_

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <limits>
#include <map>
#include <string>

namespace warpwatch::server::metrics {

// The series of one scrape: "name{label=value}..." -> value for counters and gauges; histograms
// give "_count" and "_sum". Reading a series the scrape does not have is a test failure that
// names it, and reads NaN (equal to nothing): with a std::map, an expected 0 also passed for a
// series that is not exported at all, which Prometheus reads as absent, not as 0.
class ScrapedSamples {
 public:
  using Map = std::map<std::string, double>;

  explicit ScrapedSamples(Map samples) : samples_(std::move(samples)) {}

  double operator[](const std::string& series) const {
    const auto it = samples_.find(series);
    if (it != samples_.end()) return it->second;
    std::string family_series;
    const std::string family = series.substr(0, series.find('{'));
    for (const auto& [name, value] : samples_) {
      if (name.rfind(family, 0) == 0) family_series += "\n  " + name;
    }
    ADD_FAILURE() << "the scrape has no series " << series << "; it has "
                  << (family_series.empty() ? "none of " + family : family_series);
    return std::numeric_limits<double>::quiet_NaN();
  }
  size_t count(const std::string& series) const { return samples_.count(series); }
  Map::const_iterator begin() const { return samples_.begin(); }
  Map::const_iterator end() const { return samples_.end(); }

 private:
  Map samples_;
};

inline ScrapedSamples Samples(prometheus::Registry& registry) {
  ScrapedSamples::Map out;
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
  return ScrapedSamples(std::move(out));
}

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_TESTS_SERVER_METRICS_REGISTRY_SAMPLES_H_
