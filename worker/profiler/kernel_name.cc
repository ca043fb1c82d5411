// Demangling and shortening kernel names.
#include "worker/profiler/kernel_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string_view>

namespace warpwatch::worker {
namespace {

// Bracket depth of a demangled name while scanning it left to right: '<...>' template arguments
// and '(...)' parameter lists or casts such as "(Kind)0".
class Depth {
 public:
  // Accounts for `c`; true when `c` itself is at depth 0 and is not a bracket.
  bool TopLevel(char c) {
    switch (c) {
      case '<':
        ++angle_;
        return false;
      case '>':
        if (angle_ > 0) --angle_;
        return false;
      case '(':
        ++paren_;
        return false;
      case ')':
        if (paren_ > 0) --paren_;
        return false;
      default:
        return angle_ == 0 && paren_ == 0;
    }
  }
  // Before accounting for the next character: at depth 0?
  bool AtTop() const { return angle_ == 0 && paren_ == 0; }

 private:
  int angle_ = 0;
  int paren_ = 0;
};

// Index of the '(' that opens the parameter list: the last '(' at depth 0. npos when none.
size_t ParameterListStart(const std::string& s) {
  Depth depth;
  size_t last = std::string::npos;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(' && depth.AtTop()) last = i;
    depth.TopLevel(s[i]);
  }
  return last;
}

}  // namespace

std::string ShortKernelName(const std::string& demangled) {
  std::string s = demangled;
  const size_t params = ParameterListStart(s);
  // "(anonymous namespace)::f(int)" has a '(' at depth 0 before the name: only a parameter list
  // at the end counts.
  if (params != std::string::npos && !s.empty() && s.back() == ')' && params > 0) {
    s = s.substr(0, params);
  }
  // Scan at depth 0 for the start of the unqualified name: after the last "::" or the space that
  // ends a return type, outside template arguments and parentheses.
  Depth depth;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!depth.TopLevel(s[i])) continue;
    if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      start = i + 2;
      ++i;
    } else if (s[i] == ' ') {
      start = i + 1;
    }
  }
  return s.substr(start);
}

namespace {

// nvcc gives internal-linkage device symbols of relocatable device code (-rdc, e.g. kernels in an
// anonymous namespace of dynamic_parallelism) a per-file prefix, "__nv_static_<n>__<hash>_", in
// front of the Itanium symbol; the demangler knows only the part from "_Z" on.
std::string ItaniumPart(const std::string& symbol) {
  static constexpr std::string_view kRdcPrefix = "__nv_static_";
  if (symbol.rfind(kRdcPrefix, 0) != 0) return symbol;
  const size_t z = symbol.find("__Z", kRdcPrefix.size());
  return z == std::string::npos ? symbol : symbol.substr(z + 1);
}

}  // namespace

KernelName NameKernel(const std::string& symbol) {
  KernelName k;
  k.mangled = symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(ItaniumPart(symbol).c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || out == nullptr) {
    k.demangled = symbol;
    k.name = symbol;
    return k;
  }
  k.demangled = out.get();
  k.name = ShortKernelName(k.demangled);
  return k;
}

}  // namespace warpwatch::worker
