// Tests for common/report/markdown_report.cc.
#include "common/report/markdown_report.h"

#include <gtest/gtest.h>

#include "common/report/bench_targets.h"
#include "common/report/format.h"

namespace warpwatch::report {
namespace {

v1::Measurement Point(const std::string& family, const std::string& variant, int64_t n,
                      double median) {
  v1::Measurement m;
  m.mutable_case_()->set_family(family);
  m.mutable_case_()->set_variant(variant);
  (*m.mutable_case_()->mutable_params())["n"] = n;
  m.set_status(v1::POINT_STATUS_OK);
  m.mutable_stats()->set_median(median);
  m.set_gbps(4.0 * n / median / 1e9);
  m.add_samples_seconds(median);
  return m;
}

std::string LineContaining(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  size_t begin = text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST(MarkdownReportTest, ComparesEachVariantWithTheRecommendedOneAtTheSameSize) {
  v1::RunResult run;
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "neighbored", 1024, 3e-3);
  *run.add_measurements() = Point("reduce", "neighbored", 2048, 5e-3);  // no recommended at 2048
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_NE(md.find("## reduce (guide"), std::string::npos) << md;
  EXPECT_NE(LineContaining(md, "| neighbored | n=1024 |").find("3.00x"), std::string::npos) << md;
  EXPECT_NE(LineContaining(md, "| warp_shuffle | n=1024 |").find("1.00x"), std::string::npos) << md;
  EXPECT_NE(LineContaining(md, "| neighbored | n=2048 |").find("| - |"), std::string::npos) << md;
}

TEST(MarkdownReportTest, SaysTheLessonShowsWhenTheRecommendedVariantIsFastest) {
  v1::RunResult run;
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "neighbored", 1024, 3e-3);
  *run.add_measurements() = Point("reduce", "unrolling8", 1024, 1.01e-3);  // a tie within 2 %
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_NE(md.find("Lesson shows: `warp_shuffle` is the fastest (or within 2 %) in all 2 "
                    "comparisons."),
            std::string::npos)
      << md;
}

TEST(MarkdownReportTest, NamesEveryVariantThatBeatsTheRecommendedOne) {
  v1::RunResult run;
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "unrolling8", 1024, 0.9e-3);
  *run.add_measurements() = Point("reduce", "neighbored", 1024, 3e-3);
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_NE(md.find("Lesson does not fully show: faster than `warp_shuffle` by more than 2 % in 1 "
                    "of 2 comparisons: `unrolling8` at n=1024"),
            std::string::npos)
      << md;
}

TEST(MarkdownReportTest, ReferenceVariantsAreCeilingsNotRivals) {
  v1::RunResult run;
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "cub", 1024, 0.5e-3);  // the catalog's reference
  *run.add_measurements() = Point("reduce", "neighbored", 1024, 3e-3);
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_NE(md.find("Lesson shows: `warp_shuffle` is the fastest (or within 2 %) in all 1 "
                    "comparisons."),
            std::string::npos)
      << md;
}

TEST(MarkdownReportTest, PrintsEachFamilysNoteFromTheNotesFile) {
  ReportOptions options;
  options.notes = ParseNotes("intro ignored\n## reduce\n\nthe book's steps.\n\n## other\nx\n");
  ASSERT_EQ(options.notes.size(), 2u);
  EXPECT_EQ(options.notes["reduce"], "the book's steps.");
  v1::RunResult run;
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  std::string md = RenderMarkdown(run, options);
  EXPECT_NE(md.find("the book's steps."), std::string::npos) << md;
  EXPECT_EQ(md.find("intro ignored"), std::string::npos) << md;
}

TEST(MarkdownReportTest, EmbedsEachFamilysChartsUnderItsOwnHeading) {
  ReportOptions options;
  options.charts["reduce"] = {{"reduce: steps", "charts/reduce_steps.svg"}};
  options.charts["memory.coalescing"] = {{"coalescing", "charts/memory_coalescing_time.svg"}};
  v1::RunResult run;
  *run.add_measurements() = Point("memory.coalescing", "copy", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  std::string md = RenderMarkdown(run, options);
  const size_t reduce = md.find("## reduce");
  const size_t reduce_chart = md.find("![reduce: steps](charts/reduce_steps.svg)");
  const size_t coalescing_chart = md.find("![coalescing](charts/memory_coalescing_time.svg)");
  ASSERT_NE(reduce, std::string::npos) << md;
  ASSERT_NE(reduce_chart, std::string::npos) << md;
  ASSERT_NE(coalescing_chart, std::string::npos) << md;
  EXPECT_GT(reduce_chart, reduce);
  EXPECT_LT(coalescing_chart, reduce);
}

TEST(MarkdownReportTest, ShowsTheKernelsRealNameAndItsCuptiTime) {
  v1::RunResult run;
  v1::Measurement m = Point("reduce", "unrolling8", 1024, 40e-6);
  m.set_kernel_name("UnrollingKernel<8>");
  m.add_kernels()->set_name("UnrollingKernel<8>");
  m.add_kernels()->set_name("ShuffleReduceKernel");
  m.set_kernel_median_seconds(38e-6);
  m.set_times_disagree(true);
  m.set_stop_reason("converged");
  *run.add_measurements() = m;
  std::string row = LineContaining(RenderMarkdown(run, ReportOptions{}), "| unrolling8 |");
  EXPECT_NE(row.find("| `UnrollingKernel<8>` +1 | 40.0 us | 38.0 us (disagrees) |"),
            std::string::npos)
      << row;
  EXPECT_NE(row.find("| converged |"), std::string::npos) << row;
}

TEST(MarkdownReportTest, ListsVariantsInCatalogOrderWhateverTheInputOrder) {
  v1::RunResult run;
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "neighbored", 1024, 3e-3);
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_LT(md.find("| neighbored |"), md.find("| warp_shuffle |")) << md;
}

TEST(MarkdownReportTest, ShowsFailedPointsWithTheirErrorAndNoTiming) {
  v1::RunResult run;
  v1::Measurement m = Point("reduce", "cub", 1024, 1e-3);
  m.set_status(v1::POINT_STATUS_FAILED);
  m.set_error("cudaErrorIllegalAddress | at x");
  *run.add_measurements() = m;
  std::string md = RenderMarkdown(run, ReportOptions{});
  std::string row = LineContaining(md, "| cub |");
  EXPECT_NE(row.find("FAILED: cudaErrorIllegalAddress \\| at x"), std::string::npos) << md;
  EXPECT_EQ(row.find("1.00 ms"), std::string::npos) << row;
}

TEST(MarkdownReportTest, KeepsFamiliesTheCatalogDoesNotKnowAtTheEnd) {
  v1::RunResult run;
  *run.add_measurements() = Point("future.family", "x", 8, 1e-6);
  *run.add_measurements() = Point("reduce", "warp_shuffle", 8, 1e-6);
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_LT(md.find("## reduce"), md.find("## future.family")) << md;
}

TEST(MarkdownReportTest, SaysWhatTheTimeCoversWhereItIsMoreThanKernels) {
  v1::RunResult run;
  *run.add_measurements() = Point("memory.managed", "managed_prefetch", 1024, 1e-3);
  *run.add_measurements() = Point("reduce", "warp_shuffle", 1024, 1e-3);
  const std::string md = RenderMarkdown(run, ReportOptions{});
  auto section = [&md](const std::string& family) {
    const size_t at = md.find("## " + family);
    return at == std::string::npos ? std::string() : md.substr(at, md.find("\n## ", at + 1) - at);
  };
  EXPECT_NE(section("memory.managed").find("Timed region: the kernel with the page faults"),
            std::string::npos)
      << md;
  EXPECT_EQ(section("reduce").find("Timed region:"), std::string::npos) << md;
}

TEST(FormatTest, PicksTheLargestUnitBelowTheValue) {
  EXPECT_EQ(FormatSeconds(1.5e-3), "1.50 ms");
  EXPECT_EQ(FormatSeconds(250e-6), "250 us");
  EXPECT_EQ(FormatSeconds(12.5e-9), "12.5 ns");
  EXPECT_EQ(FormatSeconds(0), "-");
  EXPECT_EQ(FormatPercent(0.934), "93.4 %");
}

}  // namespace
}  // namespace warpwatch::report

namespace warpwatch::report {
namespace {

TEST(MarkdownReportTest, SummarisesFamiliesWithNoMeasuredPointInOneLine) {
  v1::RunResult run;
  v1::Measurement m = Point("matmul", "naive", 8, 1e-3);
  m.set_status(v1::POINT_STATUS_SKIPPED);
  m.set_error("family not implemented in this worker build");
  *run.add_measurements() = m;
  std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_EQ(md.find("## matmul"), std::string::npos) << md;
  EXPECT_NE(md.find("- matmul: skipped (family not implemented in this worker build)"),
            std::string::npos) << md;
}

TEST(BenchTargetsTest, ParsesRatiosAndRendersAMissedTargetInBold) {
  const char* text = R"({"bench": "bench_x", "device": {"name": "GPU"}, "ratios": [
    {"name": "copy / memcpy", "ratio": 0.85, "target": 0.9, "met": false,
     "measured": {"case": "memory.coalescing/copy?n=1", "gb_per_s": 850},
     "reference": {"case": "memory.coalescing/memcpy?n=1", "gb_per_s": 1000}}]})";
  auto ratios = ParseBenchJson(text);
  ASSERT_TRUE(ratios.ok()) << ratios.status().ToString();
  ASSERT_EQ(ratios->size(), 1u);
  EXPECT_DOUBLE_EQ((*ratios)[0].ratio, 0.85);
  std::string md = RenderTargets(*ratios);
  EXPECT_NE(md.find("| 0.850 | ≥ 0.90 | **no** |"), std::string::npos) << md;
}

TEST(BenchTargetsTest, RejectsARatioWithoutItsReferenceNamingTheField) {
  auto ratios = ParseBenchJson(R"({"ratios": [{"ratio": 1.0, "measured": {"case": "a"}}]})");
  ASSERT_FALSE(ratios.ok());
  EXPECT_EQ(ratios.status().message(), "ratios[0].reference: missing");
}

}  // namespace
}  // namespace warpwatch::report
