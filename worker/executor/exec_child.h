// The child side of the executor protocol (`warpwatch-worker exec`): opens the device, measures
// the requested points in order and streams ExecEvents back.
#ifndef WARPWATCH_WORKER_EXECUTOR_EXEC_CHILD_H_
#define WARPWATCH_WORKER_EXECUTOR_EXEC_CHILD_H_

namespace warpwatch::worker {

// Exit codes of the child.
inline constexpr int kExecExitDone = 0;             // every point reported
inline constexpr int kExecExitContextPoisoned = 3;  // stopped after a sticky CUDA error
inline constexpr int kExecExitFatal = 4;            // sent `fatal` (no device ...) or lost the pipe

// Reads one ExecRequest from in_fd and writes events to out_fd (see exec_protocol.proto). After a
// point whose CUDA error poisons the context it reports that point and returns
// kExecExitContextPoisoned without starting another: the parent starts a fresh child. The caller
// must make sure nothing else writes to out_fd (main() points stdout at stderr first).
int RunExecChild(int in_fd, int out_fd);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_EXECUTOR_EXEC_CHILD_H_
