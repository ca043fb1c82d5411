// File: tests/server/store/store_test_util.cc
#include "tests/server/store/store_test_util.h"

#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

namespace warpwatch::server::testing {

v1::Device MakeDevice(const std::string& uuid, const std::string& name) {
  v1::Device d;
  d.set_uuid(uuid);
  d.set_name(name);
  d.set_compute_capability_major(9);
  d.set_compute_capability_minor(0);
  d.set_sm_count(132);
  d.set_memory_bytes(int64_t{80} << 30);
  return d;
}

v1::JobSpec MakeSpec(const std::string& family) {
  v1::JobSpec spec;
  spec.add_families(family);
  return spec;
}

// Sets every field of `message` (recursively, repeated fields twice, maps once) to a value that is
// not its default, so a field the store drops shows up as a difference. Timestamps get valid
// instants.
void FillEveryField(google::protobuf::Message* message, int depth) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Descriptor* d = message->GetDescriptor();
  const google::protobuf::Reflection* r = message->GetReflection();
  if (d->full_name() == "google.protobuf.Timestamp") {
    r->SetInt64(message, d->FindFieldByName("seconds"), 1763900000 + depth);
    r->SetInt32(message, d->FindFieldByName("nanos"), 123456789);
    return;
  }
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    const int copies = f->is_repeated() ? 2 : 1;
    for (int c = 0; c < copies; ++c) {
      const double x = 1.25 + f->number() + 0.5 * c;
      const std::string text = std::string(f->name()) + "-" + std::to_string(c);
      if (f->is_map()) {
        google::protobuf::Message* entry = r->AddMessage(message, f);
        const google::protobuf::Descriptor* e = entry->GetDescriptor();
        const google::protobuf::Reflection* er = entry->GetReflection();
        er->SetString(entry, e->FindFieldByName("key"), text);
        const FieldDescriptor* value = e->FindFieldByName("value");
        if (value->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) er->SetDouble(entry, value, x);
        if (value->cpp_type() == FieldDescriptor::CPPTYPE_INT64) er->SetInt64(entry, value, 7 + c);
        if (value->cpp_type() == FieldDescriptor::CPPTYPE_STRING) er->SetString(entry, value, text);
        break;  // one entry per map
      }
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_DOUBLE:
          f->is_repeated() ? r->AddDouble(message, f, x) : r->SetDouble(message, f, x);
          break;
        case FieldDescriptor::CPPTYPE_FLOAT:
          f->is_repeated() ? r->AddFloat(message, f, 2.5f) : r->SetFloat(message, f, 2.5f);
          break;
        case FieldDescriptor::CPPTYPE_INT32:
          f->is_repeated() ? r->AddInt32(message, f, 3 + c) : r->SetInt32(message, f, 3 + c);
          break;
        case FieldDescriptor::CPPTYPE_INT64:
          f->is_repeated() ? r->AddInt64(message, f, 1000 + f->number())
                           : r->SetInt64(message, f, 1000 + f->number());
          break;
        case FieldDescriptor::CPPTYPE_UINT32:
          f->is_repeated() ? r->AddUInt32(message, f, 5) : r->SetUInt32(message, f, 5);
          break;
        case FieldDescriptor::CPPTYPE_UINT64:
          f->is_repeated() ? r->AddUInt64(message, f, 6) : r->SetUInt64(message, f, 6);
          break;
        case FieldDescriptor::CPPTYPE_BOOL:
          f->is_repeated() ? r->AddBool(message, f, c == 0) : r->SetBool(message, f, true);
          break;
        case FieldDescriptor::CPPTYPE_STRING:
          f->is_repeated() ? r->AddString(message, f, text) : r->SetString(message, f, text);
          break;
        case FieldDescriptor::CPPTYPE_ENUM: {
          const google::protobuf::EnumDescriptor* e = f->enum_type();
          const auto* v = e->value(e->value_count() - 1);
          f->is_repeated() ? r->AddEnum(message, f, v) : r->SetEnum(message, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_MESSAGE:
          if (depth < 3) {
            FillEveryField(
                f->is_repeated() ? r->AddMessage(message, f) : r->MutableMessage(message, f),
                depth + 1);
          }
          break;
      }
    }
  }
}

v1::Measurement CounterPassMeasurement() {
  v1::Measurement m;
  m.mutable_case_()->set_family("reduce");
  m.mutable_case_()->set_variant("two_pass");
  (*m.mutable_case_()->mutable_params())["n"] = 1 << 24;
  m.mutable_case_()->set_canonical("reduce/two_pass?n=16777216");
  m.set_status(v1::POINT_STATUS_OK);
  m.mutable_stats()->set_median(1.5e-4);
  m.set_kernel_name("PartialSums");
  (*m.mutable_counters())["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 83.55031568661838;
  (*m.mutable_counters())["sm__warps_active.avg.pct_of_peak_sustained_active"] = 64.5;
  v1::KernelInfo* k = m.add_kernels();
  k->set_name("PartialSums");
  k->set_mangled("_Z11PartialSumsPKfPfl");
  *k->mutable_counters() = m.counters();
  v1::KernelLaunch* launch = m.add_launches();
  launch->set_kernel(0);
  *launch->mutable_counters() = m.counters();
  return m;
}

void ExpectSameMessage(const google::protobuf::Message& expected,
                       const google::protobuf::Message& actual) {
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  google::protobuf::util::MessageDifferencer differ;
  differ.set_field_comparator(&comparator);
  std::string differences;
  differ.ReportDifferencesToString(&differences);
  EXPECT_TRUE(differ.Compare(expected, actual)) << differences;
}

void StoreTest::SetUp() {
  PostgresTest::SetUp();
  if (HasFatalFailure()) return;
  if (migrate_to_ == 0) {
    ASSERT_OK(RunMigrations(url_));
  } else {
    std::vector<Migration> older;
    for (const Migration& m : EmbeddedMigrations()) {
      if (m.version <= migrate_to_) older.push_back(m);
    }
    ASSERT_OK(RunMigrations(url_, older, MigrationTimeouts{}));
  }
  store_ = OpenStore(8);
  ASSERT_NE(store_, nullptr);
}

std::unique_ptr<Store> StoreTest::OpenStore(int pool_size) {
  PgStoreOptions options;
  options.url = url_;
  options.pool_size = pool_size;
  StatusOr<std::unique_ptr<Store>> store = OpenPgStore(options);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(store).value() : nullptr;
}

std::string StoreTest::Register(const std::vector<v1::Device>& devices,
                                const std::map<std::string, std::string>& labels) {
  v1::RegisterRequest request;
  request.set_hostname("node-1");
  request.set_version("test");
  for (const auto& [k, v] : labels) (*request.mutable_labels())[k] = v;
  for (const v1::Device& d : devices) *request.add_devices() = d;
  request.add_families("memory.copy");
  StatusOr<std::string> id = store_->RegisterWorker(request, kTestCaller, std::chrono::minutes(1));
  EXPECT_TRUE(id.ok()) << id.status().ToString();
  return id.ok() ? *id : std::string();
}

}  // namespace warpwatch::server::testing
