// File: server/store/detail/job_row.h
// The job table <-> v1::Job.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_JOB_ROW_H_
#define WARPWATCH_SERVER_STORE_DETAIL_JOB_ROW_H_

#include <pqxx/row>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::detail {

// The select list JobFromRow reads, for the job table aliased `j`
// ("SELECT " + JobColumns() + " FROM job j WHERE ...").
const std::string& JobColumns();

// Decodes a row selected with JobColumns() (in that order, starting at column `first`).
StatusOr<v1::Job> JobFromRow(const pqxx::row& row, int first = 0);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_JOB_ROW_H_
