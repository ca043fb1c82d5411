// File: bench/detail/plan_log.cc
#include "bench/detail/plan_log.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpwatch::bench {

std::string WithAutoExplain(const std::string& url, int min_duration_ms, bool timing) {
  // libpq URI: spaces as %20, '=' inside the value as %3D.
  const std::string settings[] = {
      "session_preload_libraries=auto_explain",
      "auto_explain.log_min_duration=" + std::to_string(min_duration_ms),
      "auto_explain.log_analyze=on",
      "auto_explain.log_buffers=on",
      std::string("auto_explain.log_timing=") + (timing ? "on" : "off"),
      "auto_explain.log_nested_statements=on",
      "log_min_messages=log"};
  std::string options;
  for (const std::string& setting : settings) {
    const char* s = setting.c_str();
    if (!options.empty()) options += "%20";
    options += "-c%20";
    for (const char* c = s; *c != '\0'; ++c) {
      if (*c == '=') {
        options += "%3D";
      } else {
        options += *c;
      }
    }
  }
  return url + "?options=" + options;
}

void ServerLog::Mark() {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path_, ec);
  mark_ = ec ? 0 : size;
}

std::string ServerLog::SinceMark() const {
  std::ifstream in(path_);
  in.seekg(static_cast<std::streamoff>(mark_));
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    // "2026-11-23 21:40:01.123 UTC [4242] LOG:  duration: ..." -> "LOG:  duration: ..."
    const size_t bracket = line.find("] ");
    if (line.size() > 4 && line[4] == '-' && bracket != std::string::npos && bracket < 48) {
      line = line.substr(bracket + 2);
    }
    out << line << '\n';
  }
  return out.str();
}

}  // namespace warpwatch::bench
