// server/schedule/time_zone.h: only names the tz database holds reach absl (whose cache keeps
// every name it is asked for, found or not).
#include "server/schedule/time_zone.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace warpwatch::server::schedule {
namespace {

TEST(TimeZoneTest, ZonesOfTheTzDatabaseLoad) {
  for (const char* name : {"UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5"}) {
    absl::TimeZone zone;
    EXPECT_TRUE(LoadKnownTimeZone(name, &zone)) << name;
    EXPECT_EQ(zone.name(), name);
  }
}

TEST(TimeZoneTest, UnknownAndUnsafeNamesNeverLoad) {
  for (const char* name : {"Mars/Olympus", "Abc/X1", "", "/etc/passwd", "../etc/passwd",
                           "Europe/../../etc/passwd", "Europe", "Europe\\Berlin"}) {
    absl::TimeZone zone = absl::FixedTimeZone(3600);
    EXPECT_FALSE(LoadKnownTimeZone(name, &zone)) << name;
    EXPECT_EQ(zone, absl::FixedTimeZone(3600)) << name;  // left as it was
  }
}

// A zone directory of our own ($TZDIR, which absl reads too): a file that is not a compiled zone
// is refused; a copy of a real one loads.
TEST(TimeZoneTest, OnlyCompiledZoneFilesLoad) {
  const std::string real = TimeZoneDirectory() + "/Europe/Berlin";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ww_tz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "Test");
  std::ofstream(dir / "Test" / "Text") << "not a zone file\n";
  std::filesystem::copy_file(real, dir / "Test" / "Berlin");
  const char* old = std::getenv("TZDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TZDIR", dir.c_str(), 1);
  absl::TimeZone zone;
  EXPECT_FALSE(LoadKnownTimeZone("Test/Text", &zone));
  EXPECT_FALSE(LoadKnownTimeZone("Test/Missing", &zone));
  EXPECT_TRUE(LoadKnownTimeZone("Test/Berlin", &zone));
  if (old != nullptr) {
    ::setenv("TZDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TZDIR");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace warpwatch::server::schedule
