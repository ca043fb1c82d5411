// File: server/auth/ownership.cc
#include "server/auth/ownership.h"

namespace warpwatch::server::auth {

Status CheckCreator(const Principal& caller, const std::string& creator, const std::string& what) {
  if (caller.role == Role::kAdmin || caller.name == creator) return OkStatus();
  return PermissionDeniedError(what + " belongs to \"" + creator + "\"; a " +
                               RoleName(caller.role) +
                               " changes only what it created (admins change everything)");
}

}  // namespace warpwatch::server::auth
