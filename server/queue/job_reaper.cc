// File: server/queue/job_reaper.cc
#include "server/queue/job_reaper.h"

#include <spdlog/spdlog.h>

namespace warpwatch::server::queue {

JobReaper::JobReaper(Database* database, JobReaperOptions options)
    : database_(database), options_(std::move(options)) {}

JobReaper::~JobReaper() { Stop(); }

void JobReaper::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void JobReaper::Stop() {
  stop_.Raise();
  if (thread_.joinable()) thread_.join();
}

int JobReaper::RunBatches(const std::function<StatusOr<int>()>& batch, const char* what) {
  // Bounded batches: no pass holds many rows or runs long, the rest waits for the next prune.
  int done = 0;
  for (int b = 0; b < options_.sample_batches_per_prune; ++b) {
    if (stop_.raised()) break;
    StatusOr<int> n = batch();
    if (!n.ok()) {
      spdlog::warn("msg=\"{} failed\" error=\"{}\"", what, n.status().ToString());
      break;
    }
    done += *n;
    if (*n < options_.sample_batch) break;
  }
  return done;
}

void JobReaper::KeepPartitions(Store* store) {
  StatusOr<PartitionUpkeep> upkeep = store->KeepPartitionsAhead(options_.partition_min_runs);
  if (!upkeep.ok()) {
    spdlog::warn("msg=\"keeping measurement partitions ahead failed\" error=\"{}\"",
                 upkeep.status().ToString());
  } else {
    partitions_created_ += upkeep->created;
    default_partition_rows_ = upkeep->default_rows;
    if (upkeep->created > 0) {
      spdlog::info("msg=\"measurement partitions added ahead\" partitions={}", upkeep->created);
    }
    if (upkeep->default_rows > 0) {
      spdlog::warn("msg=\"measurements in the DEFAULT partition: the partitions ahead lagged\""
                   " rows={}", upkeep->default_rows);
    }
  }
  if (options_.summary_retention.count() == 0 || stop_.raised()) return;
  StatusOr<PartitionRetention> dropped =
      store->DropOldPartitions(options_.summary_retention, options_.partitions_per_prune);
  if (!dropped.ok()) {
    spdlog::warn("msg=\"dropping old measurement partitions failed\" error=\"{}\"",
                 dropped.status().ToString());
    return;
  }
  if (dropped->dropped > 0) {
    partitions_dropped_ += dropped->dropped;
    summaries_folded_ += dropped->folded;
    spdlog::info("msg=\"old measurement partitions folded into week rollups and dropped\""
                 " partitions={} measurements={} kept_exempt={}",
                 dropped->dropped, dropped->folded, dropped->kept_exempt);
  }
}

Status JobReaper::RunOnce() {
  if (!database_->schema_ready()) return OkStatus();  // nothing to reap before the schema exists
  ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
  StatusOr<int> requeued = store->RequeueExpiredLeases();
  if (requeued.ok() && *requeued > 0) {
    requeued_ += *requeued;
    spdlog::info("msg=\"expired leases reaped\" jobs={}", *requeued);
  }
  StatusOr<int> timed_out = store->FailTimedOutJobs(options_.default_job_timeout);
  if (timed_out.ok() && *timed_out > 0) {
    timed_out_ += *timed_out;
    spdlog::info("msg=\"timed-out jobs failed\" jobs={}", *timed_out);
  }
  const bool prune_pass = passes_++ % options_.prune_every == 0;
  if (options_.worker_retention.count() > 0 && prune_pass) {
    StatusOr<int> pruned = store->PruneWorkers(options_.worker_retention);
    if (pruned.ok() && *pruned > 0) {
      pruned_ += *pruned;
      spdlog::info("msg=\"gone workers pruned\" workers={}", *pruned);
    }
  }
  if (options_.sample_retention.count() > 0 && prune_pass) {
    const int dropped = RunBatches(
        [&] { return store->DropOldSamples(options_.sample_retention, options_.sample_batch); },
        "dropping old samples");
    if (dropped > 0) {
      samples_dropped_ += dropped;
      spdlog::info("msg=\"old raw samples dropped\" measurements={}", dropped);
    }
  }
  if (prune_pass) KeepPartitions(store);
  if (options_.summary_retention.count() > 0 && prune_pass) {
    const int folded = RunBatches(
        [&] {
          return store->DownsampleSummaries(options_.summary_retention, options_.sample_batch);
        },
        "downsampling old summaries");
    if (folded > 0) {
      summaries_folded_ += folded;
      spdlog::info("msg=\"old summaries folded into week rollups\" measurements={}", folded);
    }
  }
  if (!requeued.ok()) return requeued.status().Annotate("requeueing expired leases");
  if (!timed_out.ok()) return timed_out.status().Annotate("failing timed-out jobs");
  return OkStatus();
}

void JobReaper::Loop() {
  while (true) {
    if (stop_.WaitFor(options_.interval)) return;
    // No lock held across the queries.
    Status status = RunOnce();
    if (!status.ok()) {
      // Every tenth failure at warn: a database outage would otherwise log every second.
      if (errors_++ % 10 == 0)
        spdlog::warn("msg=\"reaper pass failed\" error=\"{}\"", status.ToString());
    }
  }
}

}  // namespace warpwatch::server::queue
