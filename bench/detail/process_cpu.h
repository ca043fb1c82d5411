// File: bench/detail/process_cpu.h
// CPU time (user + system) spent by this process, and by a PostgreSQL server (its postmaster and
// every backend, live or exited), read from /proc, for benchmarks that report what a measured
// stretch cost besides its wall time on a shared host.
#ifndef WARPWATCH_BENCH_DETAIL_PROCESS_CPU_H_
#define WARPWATCH_BENCH_DETAIL_PROCESS_CPU_H_

#include <sys/types.h>

#include <string>

namespace warpwatch::bench {

// Seconds of CPU this process has used so far (every thread).
double SelfCpuSeconds();

// Seconds of CPU used so far by the postmaster of data dir `data_dir` (its postmaster.pid) and
// its children: live ones from their own /proc entries, exited ones as the postmaster's reaped
// children's time. -1 when the postmaster cannot be read.
double PostgresCpuSeconds(const std::string& data_dir);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_PROCESS_CPU_H_
