// ExpandSpec (JobSpec -> ordered case points) and the canonical case key.
#include "common/catalog/plan.h"

#include <charconv>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "common/catalog/catalog.h"

namespace warpwatch::catalog {
namespace {

bool IsGlob(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string Field(const char* name, int index) {
  return std::string("spec.") + name + "[" + std::to_string(index) + "]";
}

// Catalog indices of the families `spec.families` selects, in catalog order.
StatusOr<std::vector<size_t>> SelectFamilies(const v1::JobSpec& spec) {
  const std::vector<FamilyInfo>& all = Families();
  if (spec.families_size() == 0) {
    return InvalidArgumentError("spec.families: at least one family is required");
  }
  std::vector<bool> selected(all.size(), false);
  for (int i = 0; i < spec.families_size(); ++i) {
    const std::string& pattern = spec.families(i);
    if (pattern.empty()) return InvalidArgumentError(Field("families", i) + ": empty");
    bool matched = false;
    for (size_t f = 0; f < all.size(); ++f) {
      const bool same_scope = all[f].node_scoped == spec.node_scoped();
      if (!IsGlob(pattern) && all[f].name == pattern && !same_scope) {
        return InvalidArgumentError(
            Field("families", i) + ": " + Quote(pattern) +
            (spec.node_scoped()
                 ? " measures one GPU; a node job (spec.node_scoped) takes node-scoped families only"
                 : " measures the node's GPUs together: submit it as a node job "
                   "(spec.node_scoped)"));
      }
      const bool globbable = !all[f].test_only && !all[f].opt_in && same_scope;
      bool hit = IsGlob(pattern) ? globbable && GlobMatch(pattern, all[f].name)
                                 : all[f].name == pattern;
      if (hit) selected[f] = matched = true;
    }
    if (!matched) {
      return InvalidArgumentError(Field("families", i) + ": " +
                                  (IsGlob(pattern) ? Quote(pattern) + " matches no family"
                                                   : "unknown family " + Quote(pattern)));
    }
  }
  std::vector<size_t> out;
  for (size_t f = 0; f < all.size(); ++f) {
    if (selected[f]) out.push_back(f);
  }
  return out;
}

bool VariantSelected(const v1::JobSpec& spec, const FamilyInfo& family, const VariantInfo& v) {
  if (spec.variants_size() == 0) return true;
  for (const std::string& pattern : spec.variants()) {
    if (pattern.find('/') != std::string::npos
            ? GlobMatch(pattern, family.name + "/" + v.name)
            : GlobMatch(pattern, v.name)) {
      return true;
    }
  }
  return false;
}

Status CheckVariantPatterns(const v1::JobSpec& spec, const std::vector<size_t>& families) {
  for (int j = 0; j < spec.variants_size(); ++j) {
    const std::string& pattern = spec.variants(j);
    if (pattern.empty()) return InvalidArgumentError(Field("variants", j) + ": empty");
    bool matched = false;
    for (size_t f : families) {
      const FamilyInfo& family = Families()[f];
      for (const VariantInfo& v : family.variants) {
        if (pattern.find('/') != std::string::npos
                ? GlobMatch(pattern, family.name + "/" + v.name)
                : GlobMatch(pattern, v.name)) {
          matched = true;
        }
      }
    }
    if (!matched) {
      return InvalidArgumentError(Field("variants", j) + ": " + Quote(pattern) +
                                  " matches no variant of the selected families");
    }
  }
  return OkStatus();
}

// Which override (index into spec.axes, or -1 for nightly) gives each selected family's axes.
struct AxisChoice {
  int override_index = -1;
  bool family_specific = false;
};
using AxisChoices = std::vector<std::vector<AxisChoice>>;  // [selected family][axis]

StatusOr<AxisChoices> ResolveOverrides(const v1::JobSpec& spec,
                                       const std::vector<size_t>& families) {
  AxisChoices choices(families.size());
  for (size_t s = 0; s < families.size(); ++s) {
    choices[s].resize(Families()[families[s]].axes.size());
  }
  for (int k = 0; k < spec.axes_size(); ++k) {
    const v1::AxisOverride& o = spec.axes(k);
    const std::string field = Field("axes", k);
    if (o.axis().empty()) return InvalidArgumentError(field + ".axis: empty");
    const bool specific = !o.family().empty();
    bool family_matched = false, axis_found = false;
    for (size_t s = 0; s < families.size(); ++s) {
      const FamilyInfo& family = Families()[families[s]];
      if (specific && !GlobMatch(o.family(), family.name)) continue;
      family_matched = true;
      const AxisInfo* axis = family.FindAxis(o.axis());
      if (axis == nullptr) continue;
      axis_found = true;
      if (o.values_size() == 0) {
        return InvalidArgumentError(field + ".values: at least one value is required");
      }
      std::unordered_set<int64_t> seen;
      for (int m = 0; m < o.values_size(); ++m) {
        Status st = axis->CheckValue(o.values(m));
        if (!st.ok()) return st.Annotate(field + ".values[" + std::to_string(m) + "]");
        if (!seen.insert(o.values(m)).second) {
          return InvalidArgumentError(field + ".values[" + std::to_string(m) +
                                      "]: duplicate value " + std::to_string(o.values(m)));
        }
      }
      AxisChoice& c = choices[s][static_cast<size_t>(axis - family.axes.data())];
      if (specific || !c.family_specific) c = AxisChoice{k, specific};
    }
    if (!family_matched) {
      return InvalidArgumentError(field + ".family: " + Quote(o.family()) +
                                  " matches no selected family");
    }
    if (!axis_found) {
      return InvalidArgumentError(field + ".axis: no selected family" +
                                  (specific ? " matching " + Quote(o.family()) : std::string()) +
                                  " has axis " + Quote(o.axis()));
    }
  }
  return choices;
}

// Saturating product, so that absurd sweeps are refused instead of overflowing.
int64_t SaturatingMul(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
    return std::numeric_limits<int64_t>::max();
  }
  return a * b;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b ? std::numeric_limits<int64_t>::max() : a + b;
}

}  // namespace

StatusOr<std::vector<Point>> ExpandSpec(const v1::JobSpec& spec, const PlanLimits& limits) {
  ASSIGN_OR_RETURN(std::vector<size_t> families, SelectFamilies(spec));
  RETURN_IF_ERROR(CheckVariantPatterns(spec, families));
  ASSIGN_OR_RETURN(AxisChoices choices, ResolveOverrides(spec, families));

  // Per selected family, the values of each axis.
  std::vector<std::vector<std::vector<int64_t>>> values(families.size());
  for (size_t s = 0; s < families.size(); ++s) {
    const FamilyInfo& family = Families()[families[s]];
    for (size_t a = 0; a < family.axes.size(); ++a) {
      const int k = choices[s][a].override_index;
      if (k < 0) {
        values[s].push_back(family.axes[a].nightly);
      } else {
        values[s].emplace_back(spec.axes(k).values().begin(), spec.axes(k).values().end());
      }
    }
  }

  // Count before building, so a huge sweep costs nothing.
  int64_t total = 0;
  for (size_t s = 0; s < families.size(); ++s) {
    const FamilyInfo& family = Families()[families[s]];
    for (const VariantInfo& v : family.variants) {
      if (!VariantSelected(spec, family, v)) continue;
      int64_t count = 1;
      for (size_t a = 0; a < family.axes.size(); ++a) {
        if (family.axes[a].AppliesTo(v.name)) {
          count = SaturatingMul(count, static_cast<int64_t>(values[s][a].size()));
        }
      }
      total = SaturatingAdd(total, count);
    }
  }
  if (total > limits.max_points) {
    return InvalidArgumentError(
        "spec: expands to " +
        (total == std::numeric_limits<int64_t>::max() ? std::string("too many")
                                                      : std::to_string(total)) +
        " points, more than max_points " + std::to_string(limits.max_points));
  }

  std::vector<Point> points;
  points.reserve(static_cast<size_t>(total));
  for (size_t s = 0; s < families.size(); ++s) {
    const FamilyInfo& family = Families()[families[s]];
    for (const VariantInfo& v : family.variants) {
      if (!VariantSelected(spec, family, v)) continue;
      std::vector<size_t> axes;  // applicable axes, declared order
      for (size_t a = 0; a < family.axes.size(); ++a) {
        if (family.axes[a].AppliesTo(v.name)) axes.push_back(a);
      }
      std::vector<size_t> at(axes.size(), 0);  // odometer; the last axis turns fastest
      while (true) {
        Point p{family.name, v.name, {}};
        for (size_t i = 0; i < axes.size(); ++i) {
          p.params[family.axes[axes[i]].name] = values[s][axes[i]][at[i]];
        }
        points.push_back(std::move(p));
        size_t i = axes.size();
        while (i > 0 && ++at[i - 1] == values[s][axes[i - 1]].size()) at[--i] = 0;
        if (i == 0) break;
      }
    }
  }
  return points;
}

std::string Point::Canonical() const {
  std::string key = family + "/" + variant;
  char sep = '?';
  for (const auto& [name, value] : params) {
    key += sep + name + "=" + std::to_string(value);
    sep = '&';
  }
  return key;
}

namespace {

bool IsNameChar(char c, bool allow_dot) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (allow_dot && c == '.');
}

bool IsName(std::string_view s, bool allow_dot) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsNameChar(c, allow_dot)) return false;
  }
  return true;
}

}  // namespace

StatusOr<Point> ParseCanonical(const std::string& canonical) {
  auto bad = [&](const std::string& why) {
    return InvalidArgumentError("case key " + Quote(canonical) + ": " + why);
  };
  std::string_view rest(canonical);
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return bad("no '/' between family and variant");
  Point p;
  p.family = std::string(rest.substr(0, slash));
  if (!IsName(p.family, /*allow_dot=*/true)) return bad("bad family name");
  rest.remove_prefix(slash + 1);
  const size_t question = rest.find('?');
  p.variant = std::string(rest.substr(0, question));
  if (!IsName(p.variant, /*allow_dot=*/false)) return bad("bad variant name");
  if (question == std::string_view::npos) return p;
  rest.remove_prefix(question + 1);
  std::string previous;
  while (true) {
    const size_t amp = rest.find('&');
    std::string_view item = rest.substr(0, amp);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) return bad("parameter without '='");
    std::string name(item.substr(0, eq));
    std::string_view text = item.substr(eq + 1);
    if (!IsName(name, /*allow_dot=*/false)) return bad("bad parameter name");
    if (!previous.empty() && name <= previous) return bad("parameters not sorted or repeated");
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
        (text.size() > 1 && (text[0] == '0' || (text[0] == '-' && text[1] == '0')))) {
      return bad("bad value for " + name);
    }
    p.params.emplace(name, value);
    previous = std::move(name);
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return p;
}

}  // namespace warpwatch::catalog
