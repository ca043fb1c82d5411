// warpwatch-catalog-md: prints docs/catalog.md from the catalog.
//   build/bin/warpwatch-catalog-md > docs/catalog.md
#include <cstdio>

#include "common/catalog/markdown.h"

int main() {
  std::fputs(warpwatch::catalog::CatalogMarkdown("build/bin/warpwatch-catalog-md > docs/catalog.md")
                 .c_str(),
             stdout);
  return 0;
}
