// File: server/store/detail/measurement_slim.cc
#include "server/store/detail/measurement_slim.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

#include <cstring>
#include <set>

#include "server/store/detail/measurement_columns.h"
#include "server/store/detail/slim_document.pb.h"

namespace warpwatch::server::detail {
namespace {

constexpr int kSlimFormat = 1;
using Counters = google::protobuf::Map<std::string, double>;

// Same keys and bit-identical values (NaN and -0.0 included).
bool SameCounters(const Counters& a, const Counters& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, value] : a) {
    auto it = b.find(key);
    if (it == b.end() || std::memcmp(&it->second, &value, sizeof(double)) != 0) return false;
  }
  return true;
}

std::string DeterministicBytes(const google::protobuf::Message& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

// Whether a column field of the whole document is what the columns give (NaN equal to NaN;
// bitwise differences the comparison misses, -0.0 against 0.0, fail SlimDocumentOf's final check).
class ColumnComparison {
 public:
  ColumnComparison() {
    comparator_.set_treat_nan_as_equal(true);
    differencer_.set_field_comparator(&comparator_);
  }
  bool GivesBack(const v1::Measurement& full, const v1::Measurement& columns,
                 const google::protobuf::FieldDescriptor* field) {
    return differencer_.CompareWithFields(full, columns, {field}, {field});
  }

 private:
  google::protobuf::util::DefaultFieldComparator comparator_;
  google::protobuf::util::MessageDifferencer differencer_;
};

// Clears the counters of `full`'s launches and kernels that copy other counters, noting which.
void DropCounterCopies(const v1::Measurement& full, SlimDocument& slim) {
  v1::Measurement& rest = *slim.mutable_rest();
  for (int i = 0; i < rest.launches_size(); ++i) {
    const Counters& c = full.launches(i).counters();
    if (c.empty() || !SameCounters(c, full.counters())) continue;
    rest.mutable_launches(i)->clear_counters();
    slim.add_launches_with_measurement_counters(i);
  }
  for (int k = 0; k < rest.kernels_size(); ++k) {
    const Counters& c = full.kernels(k).counters();
    if (c.empty()) continue;
    if (SameCounters(c, full.counters())) {
      rest.mutable_kernels(k)->clear_counters();
      slim.add_kernels_with_measurement_counters(k);
      continue;
    }
    for (int i = 0; i < full.launches_size(); ++i) {
      if (!SameCounters(c, full.launches(i).counters())) continue;
      rest.mutable_kernels(k)->clear_counters();
      (*slim.mutable_kernel_counters_from_launch())[k] = i;
      break;
    }
  }
}

}  // namespace

bool IsSlimDocument(const char* data, size_t size) { return size > 0 && data[0] == '\x08'; }

std::string SlimDocumentOf(const v1::Measurement& full, const v1::Measurement& columns) {
  SlimDocument slim;
  slim.set_format(kSlimFormat);
  v1::Measurement& rest = *slim.mutable_rest();
  rest = full;
  ColumnComparison comparison;
  for (const google::protobuf::FieldDescriptor* field : ColumnFields()) {
    if (comparison.GivesBack(full, columns, field)) {
      rest.GetReflection()->ClearField(&rest, field);
    } else {
      slim.add_kept_fields(field->number());
    }
  }
  DropCounterCopies(full, slim);
  if (full.kernels_size() > 0 && !full.kernel_name().empty() &&
      full.kernels(0).name() == full.kernel_name()) {
    rest.mutable_kernels(0)->clear_name();
    slim.set_first_kernel_name_is_kernel_name(true);
  }
  // Deterministic (maps in key order): slimming the same row again writes the same bytes.
  std::string bytes = DeterministicBytes(slim);
  StatusOr<v1::Measurement> back = MeasurementFromSlimDocument(bytes.data(), bytes.size(), columns);
  if (back.ok() && DeterministicBytes(*back) == DeterministicBytes(full)) return bytes;
  // Keep everything: nothing comes from the columns.
  SlimDocument whole;
  whole.set_format(kSlimFormat);
  *whole.mutable_rest() = full;
  for (const google::protobuf::FieldDescriptor* field : ColumnFields()) {
    whole.add_kept_fields(field->number());
  }
  return DeterministicBytes(whole);
}

StatusOr<v1::Measurement> MeasurementFromSlimDocument(const char* data, size_t size,
                                                      v1::Measurement columns) {
  SlimDocument slim;
  if (!IsSlimDocument(data, size) || !slim.ParseFromArray(data, static_cast<int>(size))) {
    return InternalError("decoding a stored slim measurement document failed");
  }
  if (slim.format() != kSlimFormat) {
    return InternalError("stored slim measurement document of unknown format " +
                         std::to_string(slim.format()));
  }
  v1::Measurement out = std::move(*slim.mutable_rest());
  const std::set<int> kept(slim.kept_fields().begin(), slim.kept_fields().end());
  std::vector<const google::protobuf::FieldDescriptor*> from_columns;
  for (const google::protobuf::FieldDescriptor* field : ColumnFields()) {
    if (kept.count(field->number()) == 0) from_columns.push_back(field);
  }
  out.GetReflection()->SwapFields(&out, &columns, from_columns);
  for (int i : slim.launches_with_measurement_counters()) {
    if (i < 0 || i >= out.launches_size()) {
      return InternalError("slim document: no launch " + std::to_string(i));
    }
    *out.mutable_launches(i)->mutable_counters() = out.counters();
  }
  for (int k : slim.kernels_with_measurement_counters()) {
    if (k < 0 || k >= out.kernels_size()) {
      return InternalError("slim document: no kernel " + std::to_string(k));
    }
    *out.mutable_kernels(k)->mutable_counters() = out.counters();
  }
  for (const auto& [k, i] : slim.kernel_counters_from_launch()) {
    if (k < 0 || k >= out.kernels_size() || i < 0 || i >= out.launches_size()) {
      return InternalError("slim document: no kernel " + std::to_string(k) + " or launch " +
                           std::to_string(i));
    }
    *out.mutable_kernels(k)->mutable_counters() = out.launches(i).counters();
  }
  if (slim.first_kernel_name_is_kernel_name()) {
    if (out.kernels_size() == 0) return InternalError("slim document: no kernel 0");
    out.mutable_kernels(0)->set_name(out.kernel_name());
  }
  return out;
}

}  // namespace warpwatch::server::detail
