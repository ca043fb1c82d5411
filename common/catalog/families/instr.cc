// Catalog entries of the instr.* families (guide 5.4 maximize instruction throughput).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {
namespace {

// The common axes of the arithmetic-bound families: threads computing and threads per block.
std::vector<AxisInfo> ComputeAxes(int64_t nightly_n) {
  return {ProblemSizeAxis("threads, each running a fixed loop of the operation", {nightly_n},
                          1 << 10, int64_t{1} << 26),
          BlockSizeAxis({256})};
}

}  // namespace

FamilyInfo InstrArithmetic() {
  FamilyInfo f;
  f.name = "instr.arithmetic";
  f.guide_section = "5.4.1 arithmetic instructions (throughput table)";
  f.lesson = "measured operations per clock per SM next to the table";
  f.variants = {
      {"fp32_fma", "fmaf on float: the throughput the table is built around",
       /*recommended=*/true, false},
      {"fp64_fma", "fma on double", false, false},
      {"half2_fma", "__hfma2 on half2 (two operations per instruction)", false, false},
      {"bf16x2_fma", "__hfma2 on __nv_bfloat162", false, false},
      {"int32_add", "32-bit integer add", false, false},
      {"int32_mul", "32-bit integer multiply", false, false},
      {"int32_shift", "32-bit shift", false, false},
  };
  // 2^22 threads (16 waves of 256-thread blocks on an H100): launch and tail cost a few per cent
  // of the loop, so the measured operations per clock sit next to the table's.
  f.axes = ComputeAxes(1 << 22);
  f.counters = {kFmaPipe, kFp64Pipe, kAluPipe, kInstructionsExecuted};
  return f;
}

FamilyInfo InstrIntrinsics() {
  FamilyInfo f;
  f.name = "instr.intrinsics";
  f.guide_section = "5.4.1 arithmetic instructions (intrinsic functions)";
  f.lesson = "intrinsics trade accuracy for speed (report max error too)";
  f.variants = {
      {"sinf", "sinf(x)", false, false},
      {"sinf_fast", "__sinf(x)", false, false},
      {"expf", "expf(x)", false, false},
      {"expf_fast", "__expf(x)", false, false},
      {"fdiv", "x / y", false, false},
      {"fdividef", "__fdividef(x, y)", false, false},
      {"rsqrt_div", "1.0f / sqrtf(x)", false, false},
      // The guide asks for rsqrtf() explicitly wherever 1/sqrtf is meant.
      {"rsqrtf", "rsqrtf(x)", /*recommended=*/true, false},
  };
  f.axes = ComputeAxes(1 << 20);
  f.counters = {kXuPipe, kFmaPipe, kInstructionsExecuted};
  return f;
}

FamilyInfo InstrTrigRange() {
  FamilyInfo f;
  f.name = "instr.trig_range";
  f.guide_section = "5.4.1 arithmetic instructions (sine and cosine)";
  f.lesson = "the slow path is an order of magnitude slower";
  f.variants = {
      {"small_args", "sinf on |x| < 105615: the fast range reduction", /*recommended=*/true,
       false},
      {"large_args", "sinf on |x| >= 105615: the slow path with local memory", false, false},
  };
  f.axes = ComputeAxes(1 << 20);
  f.counters = {kLocalLoadSectors, kInstructionsExecuted, kFmaPipe};
  return f;
}

FamilyInfo InstrIntegerDivision() {
  FamilyInfo f;
  f.name = "instr.integer_division";
  f.guide_section = "5.4.1 arithmetic instructions (integer arithmetic)";
  f.lesson = "up to 20 instructions vs one";
  f.variants = {
      {"div_mod", "i / d and i % d with d known only at run time", false, false},
      {"shift_mask", "i >> log2(d) and i & (d - 1)", /*recommended=*/true, false},
  };
  AxisInfo divisor = Axis("divisor", "the divisor d (a power of two, so both variants agree)",
                          {32}, 2, 1 << 20);
  divisor.power_of_two = true;
  f.axes = ComputeAxes(1 << 20);
  f.axes.push_back(divisor);
  f.counters = {kInstructionsExecuted, kAluPipe, kIssueActive};
  return f;
}

FamilyInfo InstrTypeConversion() {
  FamilyInfo f;
  f.name = "instr.type_conversion";
  f.guide_section = "5.4.1 arithmetic instructions (type conversion)";
  f.lesson = "hidden conversions cost cycles";
  f.variants = {
      {"double_constant", "x * 0.5 with float x: promoted to double and back", false, false},
      {"float_constant", "x * 0.5f: stays in single precision", /*recommended=*/true, false},
      {"char_arithmetic", "arithmetic on char variables (converted to int each time)", false,
       false},
      {"short_arithmetic", "arithmetic on short variables", false, false},
      {"int_arithmetic", "the same arithmetic on int", false, false},
  };
  f.axes = ComputeAxes(1 << 20);
  f.counters = {kFp64Pipe, kInstructionsExecuted, kAluPipe};
  return f;
}

FamilyInfo InstrSyncthreads() {
  FamilyInfo f;
  f.name = "instr.syncthreads";
  f.guide_section = "5.4.3 synchronization instruction";
  f.lesson = "barrier throughput and idle warps";
  f.variants = {
      {"syncthreads", "loop with __syncthreads() every iteration", false, false},
      {"syncwarp", "the same loop with __syncwarp() where only a warp exchanges data",
       /*recommended=*/true, false},
      {"no_barrier", "the same loop without a barrier: the floor", false, false},
  };
  f.axes = {
      ProblemSizeAxis("threads, each running a fixed loop of barriers", {1 << 20}, 1 << 10,
                      int64_t{1} << 26),
      BlockSizeAxis({1024}),  // more threads waiting at each barrier; 128 and others on request
  };
  f.counters = {kStallBarrier, kIssueActive, kInstructionsExecuted};
  return f;
}

}  // namespace warpwatch::catalog::detail
