// File: server/schedule/time_zone.cc
#include "server/schedule/time_zone.h"

#include <cstdlib>
#include <fstream>

namespace warpwatch::server::schedule {
namespace {

bool SafeRelativeName(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) return false;
  return name.find('\0') == std::string::npos && name.find('\\') == std::string::npos;
}

// A compiled zone file starts with the magic "TZif" (RFC 8536, section 3.1).
bool IsZoneFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, sizeof magic) && std::string(magic, sizeof magic) == "TZif";
}

}  // namespace

std::string TimeZoneDirectory() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

bool LoadKnownTimeZone(const std::string& name, absl::TimeZone* zone) {
  if (name == "UTC") {
    *zone = absl::UTCTimeZone();
    return true;
  }
  if (!SafeRelativeName(name) || !IsZoneFile(TimeZoneDirectory() + "/" + name)) return false;
  return absl::LoadTimeZone(name, zone);
}

}  // namespace warpwatch::server::schedule
