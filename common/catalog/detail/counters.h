// CUPTI metric names (as Nsight Compute spells them) shared by the families' catalog entries.
#ifndef WARPWATCH_COMMON_CATALOG_DETAIL_COUNTERS_H_
#define WARPWATCH_COMMON_CATALOG_DETAIL_COUNTERS_H_

namespace warpwatch::catalog::detail {

// DRAM bandwidth used, % of peak.
inline constexpr const char* kDramThroughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
// Global load / store efficiency: useful bytes per 32-byte sector, % (nvprof gld/gst_efficiency).
inline constexpr const char* kGlobalLoadEfficiency =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
inline constexpr const char* kGlobalStoreEfficiency =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
// Sectors and requests of global loads: their ratio is sectors per request.
inline constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* kGlobalLoadRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
// Shared memory bank conflicts of loads and stores.
inline constexpr const char* kSharedLoadBankConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kSharedStoreBankConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// Local memory traffic (spills, dynamically indexed per-thread arrays).
inline constexpr const char* kLocalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";
inline constexpr const char* kLocalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum";
// Branch efficiency: % of branches whose threads all took the same target.
inline constexpr const char* kBranchEfficiency =
    "smsp__sass_average_branch_targets_threads_uniform.pct";
// Average active threads per executed warp instruction (warp execution efficiency, of 32).
inline constexpr const char* kThreadsPerInstruction =
    "smsp__thread_inst_executed_per_inst_executed.ratio";
// Warp instructions executed.
inline constexpr const char* kInstructionsExecuted = "smsp__inst_executed.sum";
// SM throughput, % of peak.
inline constexpr const char* kSmThroughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
// Cache hit rates.
inline constexpr const char* kL1HitRate = "l1tex__t_sector_hit_rate.pct";
inline constexpr const char* kL2HitRate = "lts__t_sector_hit_rate.pct";
// Pipe utilisation.
inline constexpr const char* kFmaPipe = "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kFp64Pipe =
    "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kAluPipe = "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kXuPipe =
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active";
// Issue slot utilisation, % of cycles with an instruction issued.
inline constexpr const char* kIssueActive = "smsp__issue_active.avg.pct_of_peak_sustained_active";
// Warp stalls per issued instruction: barrier, immediate-constant cache miss.
inline constexpr const char* kStallBarrier =
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio";
inline constexpr const char* kStallConstantMiss =
    "smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio";

}  // namespace warpwatch::catalog::detail

#endif  // WARPWATCH_COMMON_CATALOG_DETAIL_COUNTERS_H_
