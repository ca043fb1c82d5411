// File: server/auth/role.h
// Roles a bearer token carries and which RPC methods each role may call.
#ifndef WARPWATCH_SERVER_AUTH_ROLE_H_
#define WARPWATCH_SERVER_AUTH_ROLE_H_

#include <optional>
#include <string_view>

namespace warpwatch::server::auth {

// reader: JobService Get/List/Watch, ResultService queries, FleetService.ListWorkers and
//   ScheduleService Get/List/ListScheduleRuns.
// submitter: reader + SubmitJob, CancelJob, ResultService.UpdateRegression (triage),
//   ResultService.UploadRun and ScheduleService Create/Update/Delete/Trigger. Which job, schedule
//   or pin a submitter may change is narrowed further by its creator (auth/ownership.h).
// worker: WorkerService only.
// admin: everything.
enum class Role { kReader, kSubmitter, kWorker, kAdmin };

// "reader", "submitter", "worker", "admin"; nullopt for anything else.
std::optional<Role> ParseRole(std::string_view name);
const char* RoleName(Role role);

// Whether `role` may call `method`, the full gRPC method path
// ("/warpwatch.v1.JobService/SubmitJob"). Methods outside the warpwatch API table are admin-only,
// so a method added to the protos is closed until it is listed here.
bool RoleAllows(Role role, std::string_view method);

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_ROLE_H_
