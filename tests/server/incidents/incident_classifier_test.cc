// File: tests/server/incidents/incident_classifier_test.cc
#include "server/incidents/incident_classifier.h"

#include <gtest/gtest.h>

#include "server/incidents/incident_key.h"

namespace warpwatch::server::incidents {
namespace {

v1::Regression IncidentClassifierFinding(const std::string& gpu, const std::string& canonical,
                                         double change) {
  v1::Regression f;
  f.set_device_uuid(gpu);
  f.mutable_case_()->set_canonical(canonical);
  f.set_change(change);
  f.set_state(v1::REGRESSION_STATE_OPEN);
  f.mutable_explanation()->add_ruled_out("software: equal");
  return f;
}

IncidentView View(const std::string& key, int peers, int movers) {
  IncidentView v;
  v.cause_key = key;
  v.findings = {IncidentClassifierFinding("GPU-3", "a", 0.05),
                IncidentClassifierFinding("GPU-3", "b", 0.07)};
  v.peers = peers;
  v.movers = movers;
  return v;
}

TEST(IncidentClassifierTest, ASoftwareKeyIsSoftwareNamingTheChange) {
  const Classification c = Classify(View("software:driver_version 580 -> 590", 8, 0));
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_SOFTWARE);
  EXPECT_EQ(c.cause, "driver_version 580 -> 590 (2 cases on 1 GPU of 8 measured)");
}

TEST(IncidentClassifierTest, ASoftwareChangeMostGpusRanWithoutMovingIsNotTheCause) {
  IncidentView v = View("software:labels.git_sha abc -> def", 8, 0);
  v.same_software = 8;
  const Classification c = Classify(v);
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_ONE_GPU);
  EXPECT_EQ(c.cause,
            "GPU GPU-3 moved; 7 GPUs of the model with the same software did not (2 cases)");
  ASSERT_EQ(c.ruled_out.size(), 2u);
  EXPECT_EQ(c.ruled_out[1],
            "software: labels.git_sha abc -> def ran on 8 GPUs of the window; 1 moved");
  v.same_software = 2;  // the change on two GPUs, one moved: not "most did not move"
  EXPECT_EQ(Classify(v).cause_class, v1::CAUSE_CLASS_SOFTWARE);
  v.same_software = 1;  // a rolling upgrade: only the upgraded GPU has it, and it moved
  EXPECT_EQ(Classify(v).cause_class, v1::CAUSE_CLASS_SOFTWARE);
}

TEST(IncidentClassifierTest, OneGpuMovingAmongPeersIsOneGpu) {
  const Classification c = Classify(View("gpu:GPU-3", 8, 1));
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_ONE_GPU);
  EXPECT_EQ(c.cause, "GPU GPU-3 moved; 7 same-night peers of its model did not (2 cases)");
}

TEST(IncidentClassifierTest, HalfTheFleetMovingWithNothingRecordedIsUnknownSayingWhy) {
  const Classification c = Classify(View("gpu:GPU-3", 8, 5));
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_UNKNOWN);
  ASSERT_EQ(c.ruled_out.size(), 2u);
  EXPECT_EQ(c.ruled_out[0], "software: equal");
  EXPECT_EQ(c.ruled_out[1], "one GPU: 5 of 8 same-night GPUs moved together");
}

TEST(IncidentClassifierTest, AFleetKeyIsUnknownCountingTheGpusAndNamingTheFamilies) {
  IncidentView v = View(kFleetCauseKey, 8, 6);
  v.findings.push_back(IncidentClassifierFinding("GPU-4", "a", 0.04));
  v.findings.push_back(IncidentClassifierFinding("GPU-5", "c", 0.06));
  v.findings[0].mutable_case_()->set_family("memory.coalescing");
  v.findings[1].mutable_case_()->set_family("memory.coalescing");
  v.findings[2].mutable_case_()->set_family("memory.coalescing");
  v.findings[3].mutable_case_()->set_family("transfer.host_device");
  const Classification c = Classify(v);
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_UNKNOWN);
  EXPECT_EQ(c.cause,
            "3 of 8 GPUs of the model moved the same way with nothing recorded differing (3 cases; "
            "memory.coalescing, transfer.host_device)");
  ASSERT_EQ(c.ruled_out.size(), 2u);
  EXPECT_EQ(c.ruled_out[0], "software: equal");
  EXPECT_EQ(c.ruled_out[1], "one GPU: 3 same-window GPUs moved together");
  // A fleet key of one subsystem (incident_key.h) names it; the bare key above was stored before
  // the split and names none.
  v.cause_key = "fleet:unrecorded:hbm_bandwidth";
  EXPECT_EQ(Classify(v).cause,
            "3 of 8 GPUs of the model moved the same way on their HBM bandwidth cases with nothing "
            "recorded differing (3 cases; memory.coalescing, transfer.host_device)");
}

// A node run's findings (interconnect.nccl: every GPU of the node at once, filed under its first
// GPU) name the node, and their peers are the other nodes' first GPUs; a mix with a GPU's own
// family is the GPU's.
TEST(IncidentClassifierTest, ANodeScopedFamilysFindingsNameTheNodeNotItsFirstGpu) {
  IncidentView v = View("gpu:GPU-3", 2, 1);
  for (v1::Regression& f : v.findings) f.mutable_case_()->set_family("interconnect.nccl");
  Classification c = Classify(v);
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_ONE_GPU);
  EXPECT_EQ(c.cause,
            "the node of GPU GPU-3 (its node runs' interconnect.nccl) moved; 1 other node of its "
            "model did not (2 cases)");
  v.peers = 1;
  c = Classify(v);
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_UNKNOWN);
  EXPECT_EQ(c.cause.rfind("the node of GPU GPU-3 (its node runs' interconnect.nccl) moved with "
                          "nothing recorded differing",
                          0),
            0u)
      << c.cause;
  EXPECT_EQ(c.ruled_out.back(),
            "one node: no other node of the model was measured in the same window to compare "
            "with");
  // One pair's copies, both directions: the pair is named; two pairs: the node.
  v.peers = 2;
  for (v1::Regression& f : v.findings) f.mutable_case_()->set_family("interconnect.peer_copy");
  // The store fills a finding's params from its canonical key (regression_row.cc).
  auto pair_case = [](v1::Regression& f, int src, int dst) {
    f.mutable_case_()->set_canonical("interconnect.peer_copy/peer_access?bytes=67108864&dst=" +
                                     std::to_string(dst) + "&src=" + std::to_string(src));
    (*f.mutable_case_()->mutable_params())["src"] = src;
    (*f.mutable_case_()->mutable_params())["dst"] = dst;
  };
  pair_case(v.findings[0], 1, 2);
  pair_case(v.findings[1], 2, 1);
  EXPECT_EQ(Classify(v).cause,
            "the GPU1-GPU2 pair of the node of GPU GPU-3 (its node runs' interconnect.peer_copy) "
            "moved; 1 other node of its model did not (2 cases)");
  pair_case(v.findings[1], 2, 3);
  EXPECT_EQ(Classify(v).cause.rfind("the node of GPU GPU-3 (", 0), 0u) << Classify(v).cause;
  v.findings[1].mutable_case_()->set_family("memory.coalescing");
  EXPECT_EQ(Classify(v).cause, "GPU GPU-3 moved; 1 same-night peer of its model did not (2 cases)");
}

TEST(IncidentClassifierTest, WithoutPeersOneGpuCannotBeToldApart) {
  const Classification c = Classify(View("gpu:GPU-3", 1, 1));
  EXPECT_EQ(c.cause_class, v1::CAUSE_CLASS_UNKNOWN);
  EXPECT_NE(c.ruled_out.back().find("no other GPU"), std::string::npos);
}

TEST(IncidentClassifierTest, TheRepresentativeIsTheLargestConfirmedChange) {
  std::vector<v1::Regression> f = {IncidentClassifierFinding("g", "a", 0.05),
                                   IncidentClassifierFinding("g", "b", 0.09),
                                   IncidentClassifierFinding("g", "c", 0.20)};
  f[2].set_state(v1::REGRESSION_STATE_SUSPECTED);
  EXPECT_EQ(RepresentativeFinding(f), 1);
}

}  // namespace
}  // namespace warpwatch::server::incidents
