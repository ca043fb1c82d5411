// File: tests/cli/format/schedule_format_test.cc
// The schedule table, including a schedule the server could not read.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/format/schedule_view.h"

namespace warpwatch::cli {
namespace {

v1::Schedule Readable() {
  v1::Schedule s;
  s.set_name("nightly");
  s.set_cron("0 2 * * *");
  s.set_time_zone("UTC");
  s.mutable_selector()->set_gpu_model("*H100*");
  s.mutable_job_template()->add_families("reduce");
  s.set_enabled(true);
  return s;
}

TEST(ScheduleTable, AnUnreadableScheduleIsMarkedAndExplainedBelowTheTable) {
  v1::Schedule broken = Readable();
  broken.set_name("broken");
  broken.clear_selector();
  broken.clear_job_template();
  broken.set_stored_error("decoding stored warpwatch.v1.JobSpec: \x1b[31mbad\x1b[0m value");
  std::ostringstream out;
  PrintScheduleTable({Readable(), broken}, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("*H100*"), std::string::npos) << text;
  EXPECT_NE(text.find("unreadable"), std::string::npos) << text;
  const std::string table = text.substr(0, text.find("schedule broken"));
  EXPECT_EQ(table.find("every GPU"), std::string::npos) << "an unread selector is not 'every GPU'";
  EXPECT_NE(text.find("schedule broken cannot be read by this server and does not fire: "
                      "decoding stored warpwatch.v1.JobSpec: bad value"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << "server text is made terminal-safe";
  EXPECT_NE(text.find("warpwatch schedule update broken --family"), std::string::npos) << text;
}

TEST(ScheduleTable, ReadableSchedulesGetNoRepairLine) {
  std::ostringstream out;
  PrintScheduleTable({Readable()}, out);
  EXPECT_EQ(out.str().find("cannot be read"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace warpwatch::cli
