// File: cli/client/fetch_pages.h
// Reading an AIP-158 paged List call to the end or to a limit: the loop every listing verb
// (jobs, runs, results, regressions) shares.
#ifndef WARPWATCH_CLI_CLIENT_FETCH_PAGES_H_
#define WARPWATCH_CLI_CLIENT_FETCH_PAGES_H_

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <utility>

namespace warpwatch::cli {

// The servers' largest page (every List request's page_size maximum).
inline constexpr int kMaxPageSize = 1000;

// Calls `call(request, &page)` page after page (page_size at most kMaxPageSize, page_token from
// the previous page) until `limit` items are in `*all` or a page has no next_page_token; items
// are moved from each page's `items(page)` to `items(*all)`, and all->next_page_token is the last
// page's. Returns the first failed call's status (then *all holds the pages before it).
template <typename Request, typename Response, typename Call, typename Items>
grpc::Status FetchPages(Request request, int limit, Call call, Items items, Response* all) {
  while (items(*all)->size() < limit) {
    request.set_page_size(std::min(kMaxPageSize, limit - items(*all)->size()));
    Response page;
    grpc::Status status = call(request, &page);
    if (!status.ok()) return status;
    for (auto& item : *items(page)) *items(*all)->Add() = std::move(item);
    all->set_next_page_token(page.next_page_token());
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  return grpc::Status::OK;
}

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_CLIENT_FETCH_PAGES_H_
