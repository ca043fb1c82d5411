// interconnect.nccl: one out-of-place NCCL collective (all_reduce, all_gather, reduce_scatter of
// floats, sum) over every GPU of the node from this one process (ncclCommInitAll, one rank per
// GPU, rank r on GPU r), as nccl-tests' `-g <gpus>` runs it. The rank streams are forked from the
// engine's stream and joined back to it (DeviceHop), so the engine's events bracket the slowest
// rank. Work reports nccl-tests' size S (algbw = S / time) and S * busbw factor as bus bytes
// (kernels/interconnect/interconnect_plan.h). NCCL comes from libnccl.so.2 at run time
// (nccl_library.h): without it, and on a node of one GPU, every point is "not applicable".
// NVLS stays off (NCCL_NVLS_ENABLE=0, nvls_guard.h): bus bandwidths are comparable only with
// figures measured without NVLS.
#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/interconnect/detail/device_hop.h"
#include "kernels/interconnect/interconnect_plan.h"
#include "kernels/interconnect/nccl/nccl_reference.h"
#include "kernels/interconnect/nccl/nccl_values.h"
#include "kernels/interconnect/nccl_library.h"

namespace warpwatch::kernels {
namespace {

using detail::DeviceHop;
using detail::ScopedDevice;

const VariantTable<Collective>& Variants() {
  static const auto& table = NewVariantTable<Collective>({
      {"all_reduce", Collective::kAllReduce},
      {"all_gather", Collective::kAllGather},
      {"reduce_scatter", Collective::kReduceScatter},
  });
  return table;
}

// Verify reads at most this many elements of each rank's output (evenly strided, plus the last).
constexpr int64_t kCheckedPerRank = int64_t{1} << 20;

struct Config {
  std::string key;
  Collective op = Collective::kAllReduce;
  int ranks = 0;
  CollectivePlan plan;
  const NcclLibrary* nccl = nullptr;
};

struct Rank {
  DeviceHop hop;
  DeviceBuffer<float> d_send;
  DeviceBuffer<float> d_recv;
  ncclComm_t comm = nullptr;  // the process's (SharedCommunicators), not the case's
};

// One communicator per GPU for the whole process, made by the first case (ncclCommInitAll costs
// seconds on a node; nccl-tests, too, initialises once and sweeps sizes over the same
// communicators). Never destroyed: they live as long as the CUDA contexts they belong to, and a
// process whose CUDA context is poisoned is retired by the engine anyway. Thread-safe.
StatusOr<std::vector<ncclComm_t>> SharedCommunicators(const NcclLibrary& nccl, int ranks) {
  static std::mutex mu;
  static std::vector<ncclComm_t>* comms = nullptr;  // guarded by mu; never freed
  std::lock_guard<std::mutex> lock(mu);
  if (comms != nullptr) {
    if (static_cast<int>(comms->size()) != ranks) {
      return InternalError("the process's NCCL communicators span " +
                           std::to_string(comms->size()) + " GPUs, not " + std::to_string(ranks));
    }
    return *comms;
  }
  std::vector<int> devices(ranks);
  for (int r = 0; r < ranks; ++r) devices[r] = r;
  std::vector<ncclComm_t> made(ranks, nullptr);
  RETURN_IF_ERROR(
      nccl.Check(nccl.comm_init_all(made.data(), ranks, devices.data()), "ncclCommInitAll"));
  comms = new std::vector<ncclComm_t>(std::move(made));
  return *comms;
}

class NcclCase : public Case {
 public:
  explicit NcclCase(Config config) : c_(std::move(config)), ranks_(c_.ranks) {}

  ~NcclCase() override {
    for (int r = 0; r < c_.ranks; ++r) {
      ScopedDevice on(r);
      ranks_[r].d_send = DeviceBuffer<float>();
      ranks_[r].d_recv = DeviceBuffer<float>();
    }
  }

  Status Setup(cudaStream_t stream) override {
    ASSIGN_OR_RETURN(const int home, detail::CurrentDevice());
    ASSIGN_OR_RETURN(const std::vector<ncclComm_t> comms, SharedCommunicators(*c_.nccl, c_.ranks));
    for (int r = 0; r < c_.ranks; ++r) ranks_[r].comm = comms[r];
    for (int r = 0; r < c_.ranks; ++r) {
      Rank& rank = ranks_[r];
      RETURN_IF_ERROR(rank.hop.Open(r, home));
      ScopedDevice on(r);
      RETURN_IF_ERROR(on.status());
      const std::string where = c_.key + " rank " + std::to_string(r);
      RETURN_IF_ERROR(rank.d_send.Allocate(c_.plan.send_elements, where + " send buffer"));
      RETURN_IF_ERROR(rank.d_recv.Allocate(c_.plan.recv_elements, where + " receive buffer"));
      RETURN_IF_ERROR(
          FillNcclSendValues(rank.d_send.get(), c_.plan.send_elements, r, rank.hop.stream(stream)));
      RETURN_IF_ERROR(rank.hop.Synchronize(stream));
    }
    return OkStatus();
  }

  // Zeros in every receive buffer (no correct output element is 0), waited for here.
  Status Reset(cudaStream_t stream) override {
    for (int r = 0; r < c_.ranks; ++r) {
      Rank& rank = ranks_[r];
      ScopedDevice on(r);
      RETURN_IF_ERROR(on.status());
      CUDA_RETURN_IF_ERROR(
          cudaMemsetAsync(rank.d_recv.get(), 0, rank.d_recv.bytes(), rank.hop.stream(stream)));
    }
    for (Rank& rank : ranks_) RETURN_IF_ERROR(rank.hop.Synchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    for (Rank& rank : ranks_) RETURN_IF_ERROR(rank.hop.Fork(stream));
    const NcclLibrary& n = *c_.nccl;
    RETURN_IF_ERROR(n.Check(n.group_start(), "ncclGroupStart"));
    Status launched = OkStatus();
    for (int r = 0; r < c_.ranks && launched.ok(); ++r) {
      Rank& rank = ranks_[r];
      cudaStream_t s = rank.hop.stream(stream);
      const size_t count = static_cast<size_t>(c_.plan.count);
      switch (c_.op) {
        case Collective::kAllReduce:
          launched = n.Check(n.all_reduce(rank.d_send.get(), rank.d_recv.get(), count, ncclFloat,
                                          ncclSum, rank.comm, s),
                             "ncclAllReduce");
          break;
        case Collective::kAllGather:
          launched = n.Check(
              n.all_gather(rank.d_send.get(), rank.d_recv.get(), count, ncclFloat, rank.comm, s),
              "ncclAllGather");
          break;
        case Collective::kReduceScatter:
          launched = n.Check(n.reduce_scatter(rank.d_send.get(), rank.d_recv.get(), count,
                                              ncclFloat, ncclSum, rank.comm, s),
                             "ncclReduceScatter");
          break;
      }
    }
    // The group is closed whatever happened inside it.
    const Status ended = n.Check(n.group_end(), "ncclGroupEnd");
    RETURN_IF_ERROR(launched);
    RETURN_IF_ERROR(ended);
    CUDA_RETURN_IF_LAUNCH_ERROR();
    for (Rank& rank : ranks_) RETURN_IF_ERROR(rank.hop.Join(stream));
    return OkStatus();
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    for (int r = 0; r < c_.ranks; ++r) {
      Rank& rank = ranks_[r];
      result.status = rank.hop.Synchronize(stream);
      if (result.status.ok()) {
        ncclResult_t async = ncclSuccess;
        result.status = c_.nccl->Check(c_.nccl->comm_async_error(rank.comm, &async),
                                       "ncclCommGetAsyncError");
        if (result.status.ok()) result.status = c_.nccl->Check(async, "NCCL asynchronous error");
      }
      if (result.status.ok()) result.status = VerifyRank(r);
      if (!result.status.ok()) {
        result.max_error = 1;
        return result;
      }
    }
    return result;
  }

  LaunchShape Shape() const override { return LaunchShape{}; }  // NCCL's kernels, not ours

  Work work() const override {
    Work w;
    w.bytes = c_.plan.bytes;
    w.bus_bytes = c_.plan.bytes * c_.plan.bus_factor;
    return w;
  }

 private:
  // Gathers the checked elements of rank r's output and compares them with NcclExpected.
  Status VerifyRank(int r) {
    ScopedDevice on(r);
    RETURN_IF_ERROR(on.status());
    const int64_t elements = c_.plan.recv_elements;
    const std::vector<int64_t> picked = NcclCheckedIndices(elements, kCheckedPerRank);
    const int64_t stride = picked.size() > 1 ? picked[1] - picked[0] : 1;
    const float* d = ranks_[r].d_recv.get();
    std::vector<float> got(picked.size());
    // Every stride-th element in one strided copy; the last one (picked.back()) apart.
    const size_t rows = picked.size() - 1;
    if (rows > 0) {
      CUDA_RETURN_IF_ERROR(cudaMemcpy2D(got.data(), sizeof(float), d, stride * sizeof(float),
                                        sizeof(float), rows, cudaMemcpyDeviceToHost));
    }
    CUDA_RETURN_IF_ERROR(cudaMemcpy(&got[rows], d + picked.back(), sizeof(float),
                                    cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < picked.size(); ++k) {
      const float want = NcclExpected(c_.op, r, c_.ranks, c_.plan.count, picked[k]);
      if (got[k] != want) {
        return InternalError(c_.key + ": rank " + std::to_string(r) + " element " +
                             std::to_string(picked[k]) + " is " + std::to_string(got[k]) +
                             ", expected " + std::to_string(want) + " (" +
                             std::to_string(picked.size()) + " elements checked)");
      }
    }
    return OkStatus();
  }

  Config c_;
  std::vector<Rank> ranks_;  // rank r on GPU r
};

class NcclFamily : public Family {
 public:
  std::string_view name() const override { return "interconnect.nccl"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.op, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t bytes, AxisValue(point, "bytes"));
    CUDA_RETURN_IF_ERROR(cudaGetDeviceCount(&c.ranks));
    RETURN_IF_ERROR(CheckMultiGpu(c.ranks));
    ASSIGN_OR_RETURN(c.plan, PlanCollective(c.op, bytes, c.ranks, sizeof(float)));
    const double per_rank =
        static_cast<double>(c.plan.send_elements + c.plan.recv_elements) * sizeof(float);
    RETURN_IF_ERROR(CheckDeviceMemory(per_rank, prop));
    ASSIGN_OR_RETURN(c.nccl, LoadNccl());
    return std::unique_ptr<Case>(std::make_unique<NcclCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(NcclFamily);

}  // namespace
}  // namespace warpwatch::kernels
