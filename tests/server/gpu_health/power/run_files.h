// File: tests/server/gpu_health/power/run_files.h
// Reads recorded `warpwatch-worker run` files for the health study, gzipped (.json.gz, as the
// H200x4 fixture keeps them) or plain (.json), through the detector study's fixture reader.
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_RUN_FILES_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_RUN_FILES_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "tests/server/detect/power/fixture_reader.h"

namespace warpwatch::server::gpu_health::power {

// Every regular file of `folder` whose name matches the ECMAScript regex `name_pattern` (the
// whole name), sorted by name. Empty when the folder is missing or nothing matches.
std::vector<std::string> ListRunFiles(const std::string& folder, const std::string& name_pattern);

// One run file, without samples. A name ending in ".gz" is decompressed (zlib) into a file under
// `scratch_dir` (created if needed; the copy is removed again before returning), so nothing
// decompressed is left next to the fixture. Errors: NOT_FOUND (unreadable file),
// INVALID_ARGUMENT (not gzip or not a RunResult), INTERNAL (scratch file not writable).
StatusOr<detect::power::FixtureRun> ReadRunFile(const std::string& path,
                                                const std::string& scratch_dir);

// ReadRunFile for each path, in order; the first error stops it.
StatusOr<std::vector<detect::power::FixtureRun>> ReadRunFiles(const std::vector<std::string>& paths,
                                                              const std::string& scratch_dir);

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_RUN_FILES_H_
