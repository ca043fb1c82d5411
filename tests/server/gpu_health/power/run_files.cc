// File: tests/server/gpu_health/power/run_files.cc
#include "tests/server/gpu_health/power/run_files.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace warpwatch::server::gpu_health::power {
namespace {

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Decompresses `path` into `out_path`.
Status Gunzip(const std::string& path, const std::string& out_path) {
  gzFile in = gzopen(path.c_str(), "rb");
  if (in == nullptr) return NotFoundError("cannot open " + path);
  std::ofstream out(out_path, std::ios::binary);
  if (!out) {
    gzclose(in);
    return InternalError("cannot write " + out_path);
  }
  char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(in, buffer, sizeof(buffer))) > 0) out.write(buffer, n);
  const bool failed = n < 0;
  gzclose(in);
  if (failed) return InvalidArgumentError(path + " is not a gzip file");
  return out ? OkStatus() : InternalError("cannot write " + out_path);
}

}  // namespace

std::vector<std::string> ListRunFiles(const std::string& folder, const std::string& name_pattern) {
  namespace fs = std::filesystem;
  const std::regex pattern(name_pattern);
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, pattern)) {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

StatusOr<detect::power::FixtureRun> ReadRunFile(const std::string& path,
                                                const std::string& scratch_dir) {
  if (!EndsWith(path, ".gz")) return detect::power::ReadRunFixture(path, /*with_samples=*/false);
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(scratch_dir, ec);
  const std::string name = fs::path(path).filename().string();
  const std::string plain = (fs::path(scratch_dir) / name.substr(0, name.size() - 3)).string();
  Status unzipped = Gunzip(path, plain);
  StatusOr<detect::power::FixtureRun> run = unzipped.ok()
                                                ? detect::power::ReadRunFixture(plain, false)
                                                : StatusOr<detect::power::FixtureRun>(unzipped);
  fs::remove(plain, ec);
  if (run.ok()) run->path = path;
  return run;
}

StatusOr<std::vector<detect::power::FixtureRun>> ReadRunFiles(const std::vector<std::string>& paths,
                                                              const std::string& scratch_dir) {
  std::vector<detect::power::FixtureRun> runs;
  for (const std::string& path : paths) {
    StatusOr<detect::power::FixtureRun> run = ReadRunFile(path, scratch_dir);
    if (!run.ok()) return run.status();
    runs.push_back(std::move(*run));
  }
  return runs;
}

}  // namespace warpwatch::server::gpu_health::power
