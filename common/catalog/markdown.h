// Renders the catalog as Markdown (docs/catalog.md): family -> guide section -> lesson -> variants
// -> axes -> counters.
#ifndef WARPWATCH_COMMON_CATALOG_MARKDOWN_H_
#define WARPWATCH_COMMON_CATALOG_MARKDOWN_H_

#include <string>

namespace warpwatch::catalog {

// The whole document for Families(), test-only families included (marked). `command` is the
// command line that regenerates it, stated on the first line.
std::string CatalogMarkdown(const std::string& command);

}  // namespace warpwatch::catalog

#endif  // WARPWATCH_COMMON_CATALOG_MARKDOWN_H_
