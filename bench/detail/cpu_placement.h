// File: bench/detail/cpu_placement.h
// Where bench_server_load's processes run: CPU lists ("0,1", "2-15", "0-1,4") parsed into an
// affinity mask and applied to every thread of this process. Children started afterwards
// (PostgreSQL, the server) inherit the mask, so pinning the benchmark to the server's CPUs while
// it starts them, then to the client's, puts the server side and the load generator on separate
// cores: the server is measured on N cores without the load generator's CPU in its share.
#ifndef WARPWATCH_BENCH_DETAIL_CPU_PLACEMENT_H_
#define WARPWATCH_BENCH_DETAIL_CPU_PLACEMENT_H_

#include <sched.h>

#include <string>

#include "common/status/status.h"

namespace warpwatch::bench {

// The CPUs a list names. INVALID_ARGUMENT (naming the list) for a malformed list, an empty one,
// a CPU beyond CPU_SETSIZE or one this host does not have online.
StatusOr<cpu_set_t> ParseCpuList(const std::string& list);

// Every CPU of this host's online set that `taken` does not hold.
cpu_set_t CpusOtherThan(const cpu_set_t& taken);

// Sets the affinity of every thread of this process (not only the caller's: gRPC and PostgreSQL
// client threads started earlier move too). Threads started later inherit it.
Status PinThisProcess(const cpu_set_t& cpus);

// "0,1,4" for printing.
std::string CpuListString(const cpu_set_t& cpus);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_CPU_PLACEMENT_H_
