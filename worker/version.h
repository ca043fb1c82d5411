// The worker build's version, reported in RunEnvironment and at registration.
#ifndef WARPWATCH_WORKER_VERSION_H_
#define WARPWATCH_WORKER_VERSION_H_

namespace warpwatch::worker {

// Set by the build (project version); "dev" when built outside CMake.
#ifdef WARPWATCH_WORKER_VERSION
inline constexpr const char* kWorkerVersion = WARPWATCH_WORKER_VERSION;
#else
inline constexpr const char* kWorkerVersion = "dev";
#endif

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_VERSION_H_
