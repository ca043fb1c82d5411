// Demangling and shortening kernel names.
#include "worker/profiler/kernel_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace warpwatch::worker {
namespace {

// Index of the '(' that opens the parameter list: the last '(' at bracket depth 0, scanning
// '<...>' and '(...)' pairs (template arguments may hold casts such as "(Kind)0" and function
// types). npos when there is none.
size_t ParameterListStart(const std::string& s) {
  int angle = 0;
  int paren = 0;
  size_t last = std::string::npos;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<') {
      ++angle;
    } else if (c == '>') {
      if (angle > 0) --angle;
    } else if (c == '(') {
      if (angle == 0 && paren == 0) last = i;
      ++paren;
    } else if (c == ')') {
      if (paren > 0) --paren;
    }
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
  int angle = 0;
  int paren = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<') {
      ++angle;
    } else if (c == '>') {
      if (angle > 0) --angle;
    } else if (c == '(') {
      ++paren;
    } else if (c == ')') {
      if (paren > 0) --paren;
    } else if (angle == 0 && paren == 0) {
      if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
        start = i + 2;
        ++i;
      } else if (c == ' ') {
        start = i + 1;
      }
    }
  }
  return s.substr(start);
}

KernelName NameKernel(const std::string& symbol) {
  KernelName k;
  k.mangled = symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
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
