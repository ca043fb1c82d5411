// One function per family, each returning the family's catalog entry; catalog.cc calls them in
// kernel-suite.md order. Grouped in families/<group>.cc by the family name's first component.
#ifndef WARPWATCH_COMMON_CATALOG_DETAIL_FAMILIES_H_
#define WARPWATCH_COMMON_CATALOG_DETAIL_FAMILIES_H_

#include "common/catalog/catalog.h"

namespace warpwatch::catalog::detail {

// families/memory.cc
FamilyInfo MemoryCoalescing();
FamilyInfo MemoryAlignment();
FamilyInfo MemoryVectorWidth();
FamilyInfo MemoryAosSoa();
FamilyInfo MemoryPitch2d();
FamilyInfo MemoryLocal();
FamilyInfo MemoryConstant();
FamilyInfo MemoryReadonlyCache();
FamilyInfo MemoryAllocationChurn();
FamilyInfo MemoryManaged();

// families/shared.cc
FamilyInfo SharedBankConflicts();
FamilyInfo SharedTranspose();

// families/reduce.cc
FamilyInfo Reduce();

// families/control.cc
FamilyInfo ControlDivergence();
FamilyInfo ControlUnroll();

// families/occupancy.cc
FamilyInfo OccupancyBlockSize();
FamilyInfo OccupancyRegisters();
FamilyInfo OccupancySharedMemory();

// families/latency.cc
FamilyInfo LatencyIlp();

// families/instr.cc
FamilyInfo InstrArithmetic();
FamilyInfo InstrIntrinsics();
FamilyInfo InstrTrigRange();
FamilyInfo InstrIntegerDivision();
FamilyInfo InstrTypeConversion();
FamilyInfo InstrSyncthreads();

// families/transfer.cc
FamilyInfo TransferHostDevice();

// families/concurrency.cc
FamilyInfo ConcurrencyStreams();

// families/dynamic_parallelism.cc
FamilyInfo DynamicParallelism();

// families/matmul.cc
FamilyInfo Matmul();

// families/example.cc (opt_in: docs/adding-a-family.md walks through it)
FamilyInfo ExampleGridStride();

// families/interconnect.cc (node-scoped)
FamilyInfo InterconnectPeerCopy();
FamilyInfo InterconnectPeerRead();
FamilyInfo InterconnectNccl();

// families/testing.cc (test_only)
FamilyInfo TestingFault();

}  // namespace warpwatch::catalog::detail

#endif  // WARPWATCH_COMMON_CATALOG_DETAIL_FAMILIES_H_
