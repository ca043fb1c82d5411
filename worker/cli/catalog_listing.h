// `warpwatch-worker list`: the kernel catalog as text. CUDA-free: the caller says which families
// this build implements.
#ifndef WARPWATCH_WORKER_CLI_CATALOG_LISTING_H_
#define WARPWATCH_WORKER_CLI_CATALOG_LISTING_H_

#include <string>
#include <vector>

namespace warpwatch::worker {

// Every catalog family with its guide section, lesson, variants (recommended / reference marked)
// and axes (nightly values, allowed range, rules). A family not in `implemented` is headed
// "<name> (not built)"; test-only families are marked "(test only)".
std::string FormatCatalogListing(const std::vector<std::string>& implemented);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLI_CATALOG_LISTING_H_
