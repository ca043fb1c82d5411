// Tests of kernel names as profilers print them. The symbols are what g++ and nvcc emit for these
// declarations (Itanium ABI), checked with nm.
#include "worker/profiler/kernel_name.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(KernelName, TemplateKernelInAnAnonymousNamespaceKeepsItsTemplateArgument) {
  // namespace { template <int N> __global__ void CoalescingCopyKernel(const float*, float*, long);
  // }
  KernelName k = NameKernel("_ZN12_GLOBAL__N_120CoalescingCopyKernelILi0EEEvPKfPfl");
  EXPECT_EQ(k.name, "CoalescingCopyKernel<0>");
  EXPECT_EQ(k.demangled,
            "void (anonymous namespace)::CoalescingCopyKernel<0>(float const*, float*, long)");
  EXPECT_EQ(k.mangled, "_ZN12_GLOBAL__N_120CoalescingCopyKernelILi0EEEvPKfPfl");
}

TEST(KernelName, EnumTemplateArgumentIsSpelledAsTheDemanglerDoes) {
  KernelName k = NameKernel("_ZN12_GLOBAL__N_13BarILNS_1KE1EEEvi");
  EXPECT_EQ(k.name, "Bar<((anonymous namespace)::K)1>");
}

TEST(KernelName, ClassScopeIsDropped) {
  EXPECT_EQ(NameKernel("_ZN2ns1C3BazIiEEvT_").name, "Baz<int>");
}

TEST(KernelName, PlainFunctionHasNoReturnTypeInItsSymbol) {
  EXPECT_EQ(NameKernel("_Z6kernelPf").name, "kernel");
}

TEST(KernelName, NameThatDoesNotDemangleIsItsOwnName) {
  KernelName k = NameKernel("memcpy");
  EXPECT_EQ(k.name, "memcpy");
  EXPECT_EQ(k.demangled, "memcpy");
}

// As the H100 run recorded it for dynamic_parallelism (built with -rdc): nvcc's per-file prefix in
// front of the Itanium symbol of a kernel in an anonymous namespace.
TEST(KernelName, RelocatableDeviceCodeStaticPrefixIsNotPartOfTheName) {
  const std::string symbol =
      "__nv_static_52__0e2faf9d_30_dynamic_parallelism_kernels_cu_b106b419__ZN9warpwatch7kernels63_"
      "GLOBAL__N__0e2faf9d_30_dynamic_parallelism_kernels_cu_b106b41913NestedReduce2EPiS2_iiS2_";
  KernelName k = NameKernel(symbol);
  EXPECT_EQ(k.name, "NestedReduce2");
  EXPECT_EQ(k.demangled.rfind("warpwatch::kernels::(anonymous namespace)::NestedReduce2(int*", 0),
            0u)
      << k.demangled;
  EXPECT_EQ(k.mangled, symbol);  // what ncu -k matches with --kernel-name-base mangled
}

TEST(KernelName, ShortNameOfAFunctionTypeArgumentKeepsItsParentheses) {
  EXPECT_EQ(ShortKernelName("void cub::Kernel<void (*)(int), 4>(int*)"),
            "Kernel<void (*)(int), 4>");
}

}  // namespace
}  // namespace warpwatch::worker
