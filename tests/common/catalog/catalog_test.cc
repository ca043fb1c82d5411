// The catalog's data against kernel-suite.md and its own rules; GlobMatch; lookups.
#include "common/catalog/catalog.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

namespace warpwatch::catalog {
namespace {

// The families of /work/shared/kernel-suite.md, in its order.
const std::vector<std::string> kSuite = {
    "memory.coalescing",      "memory.alignment",     "memory.vector_width",
    "memory.aos_soa",         "memory.pitch_2d",      "memory.local",
    "memory.constant",        "memory.readonly_cache", "shared.bank_conflicts",
    "shared.transpose",       "reduce",               "control.divergence",
    "control.unroll",         "occupancy.block_size", "occupancy.registers",
    "occupancy.shared_memory", "latency.ilp",          "instr.arithmetic",
    "instr.intrinsics",       "instr.trig_range",     "instr.integer_division",
    "instr.type_conversion",  "instr.syncthreads",    "transfer.host_device",
    "concurrency.streams",    "dynamic_parallelism",  "memory.allocation_churn",
    "memory.managed",         "matmul",               "interconnect.peer_copy",
    "interconnect.peer_read", "interconnect.nccl",
};

bool IsSnakeCase(const std::string& s) {
  return std::regex_match(s, std::regex("[a-z][a-z0-9]*(_[a-z0-9]+)*"));
}
bool IsDottedSnakeCase(const std::string& s) {
  return std::regex_match(s, std::regex("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*")) &&
         s.find("__") == std::string::npos && s.find("_.") == std::string::npos &&
         s.back() != '_';
}

TEST(GlobMatchTest, LiteralsMatchOnlyThemselves) {
  EXPECT_TRUE(GlobMatch("reduce", "reduce"));
  EXPECT_FALSE(GlobMatch("reduce", "reduc"));
  EXPECT_FALSE(GlobMatch("reduce", "reduce2"));
  EXPECT_TRUE(GlobMatch("", ""));
  EXPECT_FALSE(GlobMatch("", "a"));
}

TEST(GlobMatchTest, StarMatchesAnyRunIncludingEmpty) {
  EXPECT_TRUE(GlobMatch("memory.*", "memory.coalescing"));
  EXPECT_TRUE(GlobMatch("memory.*", "memory."));
  EXPECT_FALSE(GlobMatch("memory.*", "shared.transpose"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("*.transpose", "shared.transpose"));
  EXPECT_TRUE(GlobMatch("*unroll*", "complete_unroll_warps8"));
  EXPECT_TRUE(GlobMatch("a*b*c", "aXXbYYbZc"));
  EXPECT_FALSE(GlobMatch("a*b*c", "aXXbYYbZ"));
  EXPECT_TRUE(GlobMatch("**x", "x"));
}

TEST(GlobMatchTest, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(GlobMatch("w?", "w1"));
  EXPECT_FALSE(GlobMatch("w?", "w16"));
  EXPECT_FALSE(GlobMatch("w?", "w"));
  EXPECT_TRUE(GlobMatch("w??", "w16"));
}

TEST(GlobMatchTest, StarInTextIsAnOrdinaryCharacter) {
  EXPECT_TRUE(GlobMatch("a*", "a*b"));
  EXPECT_FALSE(GlobMatch("a?", "a*b"));
}

TEST(FindFamilyTest, FindsKnownFamiliesAndRejectsUnknown) {
  const FamilyInfo* f = FindFamily("memory.coalescing");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "memory.coalescing");
  EXPECT_EQ(FindFamily("memory.*"), nullptr);
  EXPECT_EQ(FindFamily("nope"), nullptr);
  EXPECT_EQ(FindFamily(""), nullptr);
  ASSERT_NE(FindFamily("testing.fault"), nullptr);
  EXPECT_TRUE(FindFamily("testing.fault")->test_only);
}

TEST(FindFamilyTest, FindVariantAndFindAxis) {
  const FamilyInfo* f = FindFamily("memory.coalescing");
  ASSERT_NE(f, nullptr);
  ASSERT_NE(f->FindVariant("strided"), nullptr);
  EXPECT_EQ(f->FindVariant("strided")->name, "strided");
  EXPECT_EQ(f->FindVariant("nope"), nullptr);
  ASSERT_NE(f->FindAxis("stride"), nullptr);
  EXPECT_TRUE(f->FindAxis("stride")->AppliesTo("strided"));
  EXPECT_FALSE(f->FindAxis("stride")->AppliesTo("copy"));
  EXPECT_TRUE(f->FindAxis("n")->AppliesTo("memcpy"));
  EXPECT_EQ(f->FindAxis("nope"), nullptr);
}

TEST(CatalogTest, SuiteFamiliesAppearOnceInKernelSuiteOrderThenOptInThenTestOnly) {
  std::vector<std::string> suite;
  std::vector<std::string> opt_in;
  bool seen_opt_in = false;
  bool seen_test_only = false;
  for (const FamilyInfo& f : Families()) {
    EXPECT_FALSE(f.test_only && f.opt_in) << f.name;
    if (f.test_only) {
      seen_test_only = true;
    } else if (f.opt_in) {
      EXPECT_FALSE(seen_test_only) << f.name << " follows a test-only family";
      seen_opt_in = true;
      opt_in.push_back(f.name);
    } else {
      EXPECT_FALSE(seen_test_only) << f.name << " follows a test-only family";
      EXPECT_FALSE(seen_opt_in) << f.name << " follows an opt-in family";
      suite.push_back(f.name);
    }
  }
  EXPECT_EQ(suite, kSuite);
  EXPECT_EQ(opt_in, std::vector<std::string>{"example.grid_stride"});
}

// The interconnect families measure the node: only they are node-scoped, and none is test-only.
TEST(CatalogTest, ExactlyTheInterconnectFamiliesAreNodeScoped) {
  std::set<std::string> node;
  for (const FamilyInfo& f : Families()) {
    if (!f.node_scoped) continue;
    node.insert(f.name);
    EXPECT_FALSE(f.test_only) << f.name;
  }
  EXPECT_EQ(node, (std::set<std::string>{"interconnect.peer_copy", "interconnect.peer_read",
                                         "interconnect.nccl"}));
}

TEST(CatalogTest, FamiliesIsTheSameObjectEveryCall) { EXPECT_EQ(&Families(), &Families()); }

TEST(CatalogTest, EveryFamilyIsDescribed) {
  for (const FamilyInfo& f : Families()) {
    SCOPED_TRACE(f.name);
    EXPECT_TRUE(IsDottedSnakeCase(f.name));
    EXPECT_FALSE(f.guide_section.empty());
    EXPECT_FALSE(f.lesson.empty());
    EXPECT_EQ(f.lesson.find('\n'), std::string::npos);
    ASSERT_FALSE(f.counters.empty());
    EXPECT_EQ(f.counters.back(), kAchievedOccupancyCounter);
    std::set<std::string> counters(f.counters.begin(), f.counters.end());
    EXPECT_EQ(counters.size(), f.counters.size()) << "duplicate counter";
    for (const std::string& c : f.counters) {
      EXPECT_TRUE(std::regex_match(c, std::regex("[a-z0-9]+__[a-z0-9_]+(\\.[a-z0-9_]+)+"))) << c;
    }
  }
}

TEST(CatalogTest, EverySuiteFamilyHasVariantsWithExactlyOneRecommended) {
  for (const FamilyInfo& f : Families()) {
    SCOPED_TRACE(f.name);
    EXPECT_GE(f.variants.size(), 2u);
    int recommended = 0;
    std::set<std::string> names;
    for (const VariantInfo& v : f.variants) {
      EXPECT_TRUE(IsSnakeCase(v.name)) << v.name;
      EXPECT_TRUE(names.insert(v.name).second) << "duplicate variant " << v.name;
      EXPECT_FALSE(v.description.empty()) << v.name;
      EXPECT_FALSE(v.recommended && v.reference) << v.name;
      recommended += v.recommended;
    }
    if (!f.test_only) {
      EXPECT_EQ(recommended, 1);
    }
  }
}

TEST(CatalogTest, EveryAxisHasValidNightlyValues) {
  for (const FamilyInfo& f : Families()) {
    std::set<std::string> names;
    for (const AxisInfo& a : f.axes) {
      SCOPED_TRACE(f.name + " axis " + a.name);
      EXPECT_TRUE(IsSnakeCase(a.name));
      EXPECT_TRUE(names.insert(a.name).second) << "duplicate axis";
      EXPECT_FALSE(a.description.empty());
      EXPECT_LE(a.min, a.max);
      EXPECT_GE(a.multiple_of, 1);
      ASSERT_FALSE(a.nightly.empty());
      std::set<int64_t> distinct(a.nightly.begin(), a.nightly.end());
      EXPECT_EQ(distinct.size(), a.nightly.size()) << "duplicate nightly value";
      for (int64_t v : a.nightly) {
        EXPECT_GE(v, a.min);
        EXPECT_LE(v, a.max);
        EXPECT_EQ(v % a.multiple_of, 0) << v;
        if (a.power_of_two) {
          EXPECT_TRUE(v > 0 && (v & (v - 1)) == 0) << v;
        }
        EXPECT_TRUE(a.CheckValue(v).ok()) << a.CheckValue(v).ToString();
      }
      for (const std::string& variant : a.variants) {
        EXPECT_NE(f.FindVariant(variant), nullptr) << "axis names unknown variant " << variant;
      }
    }
  }
}

TEST(CatalogTest, BlockSizeAndNMeanTheSameEverywhere) {
  for (const FamilyInfo& f : Families()) {
    SCOPED_TRACE(f.name);
    if (const AxisInfo* b = f.FindAxis("block_size")) {
      EXPECT_EQ(b->description.rfind("threads per block", 0), 0u) << b->description;
      EXPECT_GE(b->min, 32);
      EXPECT_LE(b->max, 1024);
      EXPECT_EQ(b->multiple_of, 32);
    }
    if (const AxisInfo* n = f.FindAxis("n")) {
      EXPECT_EQ(n->description.rfind("problem size", 0), 0u) << n->description;
      EXPECT_GE(n->min, 1);
    }
  }
}

TEST(AxisCheckValueTest, NamesTheRuleThatFails) {
  const AxisInfo* b = FindFamily("memory.coalescing")->FindAxis("block_size");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->CheckValue(256).ok());
  EXPECT_EQ(b->CheckValue(1000).message(), "block_size 1000 is not a multiple of 32");
  EXPECT_EQ(b->CheckValue(2048).message(), "block_size 2048 is outside [32, 1024]");
  EXPECT_EQ(b->CheckValue(0).code(), StatusCode::kInvalidArgument);
  const AxisInfo* r = FindFamily("reduce")->FindAxis("block_size");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->CheckValue(96).message(), "block_size 96 is not a power of two");
}

// kernel-suite.md: families whose timed region is not one kernel say what their time covers.
TEST(CatalogTest, ExactlyTheFamiliesTimedBeyondTheirKernelsSayWhatTheirTimeCovers) {
  const std::set<std::string> expected = {"transfer.host_device",    "concurrency.streams",
                                          "memory.allocation_churn", "memory.managed",
                                          "dynamic_parallelism",     "interconnect.peer_copy",
                                          "interconnect.peer_read",  "interconnect.nccl"};
  std::set<std::string> declared;
  for (const FamilyInfo& f : Families()) {
    if (!f.timed_region.empty()) declared.insert(f.name);
  }
  EXPECT_EQ(declared, expected);
}

}  // namespace
}  // namespace warpwatch::catalog
