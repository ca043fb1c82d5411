// File: tests/server/metrics/incident_metrics_test.cc
// Incidents as a scrape reads them: one warpwatch_incident_open series per untriaged incident
// (what the alerts read: one alert per incident), gone once it is triaged; counts by state.
#include "server/metrics/incident_metrics.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include "tests/server/metrics/registry_samples.h"

namespace warpwatch::server::metrics {
namespace {

constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";

incidents::OpenIncident Open(int64_t id, const std::string& cause, int confirmed) {
  incidents::OpenIncident o;
  o.id = id;
  o.kind = "SLOWDOWN";
  o.cause_class = cause;
  o.gpu_model = kH100;
  o.confirmed = confirmed;
  return o;
}

size_t OpenSeries(const ScrapedSamples& s) {
  size_t n = 0;
  for (const auto& [name, value] : s) n += name.rfind("warpwatch_incident_open{", 0) == 0;
  return n;
}

TEST(IncidentMetricsTest, EachUntriagedIncidentIsOneSeriesLabelledWithItsCauseAndModel) {
  prometheus::Registry registry;
  IncidentMetrics metrics(registry);
  metrics.SetOpen({Open(7, "SOFTWARE", 240), Open(8, "ONE_GPU", 6)});
  const ScrapedSamples s = Samples(registry);
  EXPECT_EQ(OpenSeries(s), 2u);
  EXPECT_EQ(s[std::string("warpwatch_incident_open{cause=software}{incident=7}{kind=slowdown}"
                          "{modelName=") +
              kH100 + "}"],
            240);
  EXPECT_EQ(s[std::string("warpwatch_incident_open{cause=one_gpu}{incident=8}{kind=slowdown}"
                          "{modelName=") +
              kH100 + "}"],
            6);
}

TEST(IncidentMetricsTest, ATriagedIncidentsSeriesGoesAway) {
  prometheus::Registry registry;
  IncidentMetrics metrics(registry);
  metrics.SetOpen({Open(7, "SOFTWARE", 240), Open(8, "ONE_GPU", 6)});
  metrics.SetOpen({Open(8, "ONE_GPU", 6)});
  const ScrapedSamples s = Samples(registry);
  EXPECT_EQ(OpenSeries(s), 1u);
  EXPECT_EQ(s.count(std::string("warpwatch_incident_open{cause=software}{incident=7}"
                                "{kind=slowdown}{modelName=") +
                    kH100 + "}"),
            0u);
}

TEST(IncidentMetricsTest, CountsOfAGroupThatEmptiedReadZero) {
  prometheus::Registry registry;
  IncidentMetrics metrics(registry);
  incidents::IncidentCount c;
  c.state = "OPEN";
  c.kind = "SLOWDOWN";
  c.cause_class = "ENVIRONMENT";
  c.gpu_model = kH100;
  c.count = 2;
  metrics.SetCounts({c});
  metrics.SetCounts({});
  const ScrapedSamples s = Samples(registry);
  EXPECT_EQ(s[std::string("warpwatch_incidents{cause=environment}{kind=slowdown}{modelName=") +
              kH100 + "}{state=open}"],
            0);
}

}  // namespace
}  // namespace warpwatch::server::metrics
