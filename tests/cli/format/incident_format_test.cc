// File: tests/cli/format/incident_format_test.cc
// What `warpwatch explain` prints of a finding's counter differences.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/format/incident_view.h"

namespace warpwatch::cli {
namespace {

TEST(IncidentFormatTest, ACounterFromZeroSaysSoInsteadOfAPercentage) {
  v1::Explanation e;
  v1::CounterDifference* from_zero = e.add_counters();
  from_zero->set_counter("local_load_sectors");
  from_zero->set_baseline(0);
  from_zero->set_new_value(1500);
  from_zero->set_change(0);  // the proto's rule for a zero baseline
  v1::CounterDifference* dram = e.add_counters();
  dram->set_counter("dram_pct");
  dram->set_baseline(84);
  dram->set_new_value(71);
  dram->set_change(71.0 / 84 - 1);
  std::ostringstream out;
  PrintExplanation(e, out);
  const std::string text = out.str();
  std::istringstream lines(text);
  std::string local_line, dram_line;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("local_load_sectors") != std::string::npos) local_line = line;
    if (line.find("dram_pct") != std::string::npos) dram_line = line;
  }
  EXPECT_NE(local_line.find("from 0"), std::string::npos) << text;
  EXPECT_EQ(local_line.find('%'), std::string::npos) << text;
  EXPECT_NE(dram_line.find("-15.5"), std::string::npos) << text;
}

}  // namespace
}  // namespace warpwatch::cli
