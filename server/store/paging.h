// File: server/store/paging.h
// The one paging policy of every List method (AIP-158): page_size 0 means the method's default,
// a size above its maximum is clamped to the maximum (not refused), a negative one is refused at
// the RPC edge. Page tokens are opaque (detail/page_token.h) and bound to the query's filters.
#ifndef WARPWATCH_SERVER_STORE_PAGING_H_
#define WARPWATCH_SERVER_STORE_PAGING_H_

#include <algorithm>

namespace warpwatch::server {

struct PageSizeLimits {
  int default_size;
  int max_size;
};

inline constexpr PageSizeLimits kJobPageSizes{50, 1000};
inline constexpr PageSizeLimits kWorkerPageSizes{100, 1000};

// The number of items a page holds for a requested page_size (<= 0 = the default).
constexpr int EffectivePageSize(int requested, PageSizeLimits limits) {
  return requested <= 0 ? limits.default_size : std::min(requested, limits.max_size);
}

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PAGING_H_
