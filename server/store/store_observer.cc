// File: server/store/store_observer.cc
#include "server/store/store_observer.h"

namespace warpwatch::server {

const char* DatabaseErrorKindName(DatabaseErrorKind kind) {
  switch (kind) {
    case DatabaseErrorKind::kUnavailable:
      return "unavailable";
    case DatabaseErrorKind::kConnection:
      return "connection";
    case DatabaseErrorKind::kQuery:
      return "query";
  }
  return "query";
}

}  // namespace warpwatch::server
