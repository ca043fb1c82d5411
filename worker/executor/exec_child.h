// The child side of the executor protocol (`warpwatch-worker exec`): opens the device, measures
// the requested points in order and streams ExecEvents back.
#ifndef WARPWATCH_WORKER_EXECUTOR_EXEC_CHILD_H_
#define WARPWATCH_WORKER_EXECUTOR_EXEC_CHILD_H_

#include "worker/contention/contention_options.h"

namespace warpwatch::worker {

// Exit codes of the child.
inline constexpr int kExecExitDone = 0;             // every point reported
inline constexpr int kExecExitContextPoisoned = 3;  // stopped after a sticky CUDA error
inline constexpr int kExecExitFatal = 4;            // sent `fatal` (no device ...) or lost the pipe

// Reads one ExecRequest from in_fd and writes events to out_fd (see exec_protocol.proto). After a
// point whose CUDA error poisons the context it reports that point and returns
// kExecExitContextPoisoned without starting another: the parent starts a fresh child. The caller
// must make sure nothing else writes to out_fd (main() points stdout at stderr first).
//
// TEST ONLY, `contention` enabled: once the device is open, a ContentionGenerator copies between
// two buffers of contention.gib GiB on a stream of its own until the last point is reported; the
// environment carries its start labels, EndOfRun its achieved bandwidth (contention_report.h), and
// stderr a line saying how hard it pushed. Counters are not collected under contention (the range
// profiler would profile the copy too): counters_note says so. Invalid options or a generator
// that cannot start (buffers that do not fit) are a `fatal` event.
int RunExecChild(int in_fd, int out_fd, const ContentionOptions& contention = {});

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_EXECUTOR_EXEC_CHILD_H_
