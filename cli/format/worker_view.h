// File: cli/format/worker_view.h
// How the fleet looks to people: the `workers` table, one row per GPU.
#ifndef WARPWATCH_CLI_FORMAT_WORKER_VIEW_H_
#define WARPWATCH_CLI_FORMAT_WORKER_VIEW_H_

#include <google/protobuf/timestamp.pb.h>

#include <ostream>
#include <string>

#include "warpwatch/v1/fleet.pb.h"

namespace warpwatch::cli {

// "online", "offline" ("unknown" otherwise).
std::string WorkerStateLabel(v1::WorkerState state);

// HOST WORKER STATE HEARTBEAT GPU UUID JOB: one row per GPU of each worker (a worker without GPUs
// gets one row), the job running on that GPU as "#ID done/total case", the last heartbeat as an
// age relative to `now`. "no workers" when empty.
void PrintWorkerTable(const v1::ListWorkersResponse& fleet, const google::protobuf::Timestamp& now,
                      std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_WORKER_VIEW_H_
