// File: server/auth/ownership.h
// Scoped roles (issue 23): a submitter changes only what it created (jobs, schedules, pins); an
// admin changes everything. The creator is always the principal the store recorded from the
// creating call's credentials (Job.submitted_by, Schedule.created_by, BaselinePin.pinned_by),
// never a request field.
#ifndef WARPWATCH_SERVER_AUTH_OWNERSHIP_H_
#define WARPWATCH_SERVER_AUTH_OWNERSHIP_H_

#include <string>

#include "common/status/status.h"
#include "server/auth/token_file.h"

namespace warpwatch::server::auth {

// OK when `caller` may change something `creator` created: an admin (every caller of an open
// server is one), or the creator itself. Otherwise PERMISSION_DENIED naming `what` ("job 12") and
// its creator. Role checks (RoleAllows) come first: this only narrows what a role may call.
Status CheckCreator(const Principal& caller, const std::string& creator, const std::string& what);

}  // namespace warpwatch::server::auth

#endif  // WARPWATCH_SERVER_AUTH_OWNERSHIP_H_
