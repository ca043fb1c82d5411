// Tests of the SVG charts (common/report/svg_chart, family_charts): layout rules on small charts,
// and every chart of the committed H100 run rendered to PNG by rsvg-convert (librsvg2-bin) and
// looked at as a person would: not blank, the title drawn, and every row's label drawn where the
// SVG puts it.
#include "common/report/svg_chart.h"

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/report/family_charts.h"

namespace warpwatch::report {
namespace {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<png_byte> rgb;
  // True when the pixel is clearly darker than the white background (text, bars, lines).
  bool Dark(int x, int y) const {
    const png_byte* p = &rgb[3 * (static_cast<size_t>(y) * width + x)];
    return p[0] + p[1] + p[2] < 3 * 160;
  }
  int DarkIn(int x0, int y0, int x1, int y1) const {
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(height, y1); ++y) {
      for (int x = std::max(0, x0); x < std::min(width, x1); ++x) n += Dark(x, y);
    }
    return n;
  }
};

// Renders `svg` with rsvg-convert and reads the PNG back; fails the test when either step fails.
Image RenderPng(const std::string& svg, const std::string& stem) {
  char dir_template[] = "/tmp/ww_svg_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  EXPECT_NE(dir, nullptr);
  if (dir == nullptr) return {};
  const std::string svg_path = std::string(dir) + "/" + stem + ".svg";
  const std::string png_path = std::string(dir) + "/" + stem + ".png";
  std::ofstream(svg_path) << svg;
  const std::string command = "rsvg-convert -o '" + png_path + "' '" + svg_path + "' 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0)
      << command << " failed (rsvg-convert comes with librsvg2-bin: deploy/install-deps.sh)";
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  Image out;
  if (!png_image_begin_read_from_file(&image, png_path.c_str())) {
    ADD_FAILURE() << "cannot read " << png_path << ": " << image.message;
    return out;
  }
  image.format = PNG_FORMAT_RGB;
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  EXPECT_TRUE(png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr)) << image.message;
  std::remove(svg_path.c_str());
  std::remove(png_path.c_str());
  rmdir(dir);
  return out;
}

v1::RunResult Fixture() {
  std::ifstream file(std::string(WARPWATCH_FIXTURES_DIR) + "/h100_nightly.json");
  std::stringstream text;
  text << file.rdbuf();
  v1::RunResult run;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(text.str(), &run, options).ok());
  return run;
}

TEST(NiceTickStep, GivesRoundStepsOfAboutFiveTicks) {
  EXPECT_DOUBLE_EQ(NiceTickStep(100), 20);
  EXPECT_DOUBLE_EQ(NiceTickStep(323), 100);
  EXPECT_DOUBLE_EQ(NiceTickStep(12), 2.5);
  EXPECT_DOUBLE_EQ(NiceTickStep(0.9), 0.2);
  EXPECT_DOUBLE_EQ(NiceTickStep(0), 1);
  EXPECT_DOUBLE_EQ(NiceTickStep(-3), 1);
}

TEST(RenderBarChart, EscapesTextAndDrawsNoBarForNegativeOrMissingValues) {
  BarChart chart;
  chart.title = "a <b> & \"c\"";
  chart.series = {"one", "two"};
  BarRow row;
  row.label = "x<y";
  BarValue good;
  good.value = 3;
  good.text = "3 us";
  BarValue negative;
  negative.value = -1;
  row.values = {good, negative};
  BarRow missing;
  missing.label = "none";
  missing.values = {std::nullopt, std::nullopt};
  chart.rows = {row, missing};
  const std::string svg = RenderBarChart(chart);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find(">x&lt;y<"), std::string::npos);
  EXPECT_EQ(svg.find("x<y"), std::string::npos);
  // Bars are the rects after the background and the two legend swatches: one drawable value.
  size_t rects = 0;
  for (size_t at = svg.find("<rect"); at != std::string::npos; at = svg.find("<rect", at + 1)) {
    ++rects;
  }
  EXPECT_EQ(rects, 1u + 2u + 1u);
}

TEST(FamilyCharts, GiveEveryMeasuredFamilyATimeChartAndReduceAndOccupancyTheirOwn) {
  const v1::RunResult run = Fixture();
  ASSERT_GT(run.measurements_size(), 0);
  std::set<std::string> families;
  for (const auto& m : run.measurements()) {
    if (m.status() == v1::POINT_STATUS_OK) families.insert(m.case_().family());
  }
  std::set<std::string> stems;
  std::set<std::string> charted;
  for (const NamedChart& c : FamilyCharts(run)) {
    EXPECT_TRUE(stems.insert(c.stem).second) << "two charts named " << c.stem;
    EXPECT_TRUE(std::regex_match(c.stem, std::regex("[A-Za-z0-9_]+"))) << c.stem;
    EXPECT_FALSE(c.chart.rows.empty()) << c.stem;
    charted.insert(c.family);
  }
  EXPECT_EQ(charted, families);
  EXPECT_TRUE(stems.count("reduce_steps"));
  EXPECT_TRUE(stems.count("occupancy_block_size_occupancy"));
}

TEST(FamilyCharts, ReduceStepsStandNextToHarrissTableWhereItHasTheStep) {
  for (const NamedChart& c : FamilyCharts(Fixture())) {
    if (c.stem != "reduce_steps") continue;
    ASSERT_EQ(c.chart.rows.size(), ReduceSteps().size());
    // neighbored -> neighbored_less: 8.054 / 3.456 ms in the table.
    ASSERT_TRUE(c.chart.rows[0].values[1].has_value());
    EXPECT_NEAR(c.chart.rows[0].values[1]->value, 2.33, 0.01);
    EXPECT_GT(c.chart.rows[0].values[0]->value, 1.5);     // the first step pays on the H100 too
    EXPECT_FALSE(c.chart.rows[3].values[1].has_value());  // unrolling4: no such step there
    return;
  }
  FAIL() << "no reduce_steps chart";
}

TEST(FamilyCharts, RenderToPngsThatShowTheirTitleAndEveryLabel) {
  const std::regex label_at("<text x=\"([0-9.]+)\" y=\"([0-9.]+)\" text-anchor=\"end\"");
  for (const NamedChart& c : FamilyCharts(Fixture())) {
    SCOPED_TRACE(c.stem);
    const std::string svg = RenderBarChart(c.chart);
    const Image png = RenderPng(svg, c.stem);
    ASSERT_EQ(png.width, 960);
    ASSERT_GT(png.height, 100);
    // Not blank: bars, text and grid cover a visible share of the picture.
    const int dark = png.DarkIn(0, 0, png.width, png.height);
    EXPECT_GT(dark, png.width * png.height / 100) << "the picture is (nearly) blank";
    // The title, centred in the top 30 pixels.
    EXPECT_GT(png.DarkIn(png.width / 4, 4, 3 * png.width / 4, 30), 100) << "no title drawn";
    // Every row label, right-aligned at its x, on its baseline.
    size_t labels = 0;
    for (std::sregex_iterator it(svg.begin(), svg.end(), label_at), end; it != end; ++it) {
      const int x = static_cast<int>(std::stod((*it)[1]));
      const int y = static_cast<int>(std::stod((*it)[2]));
      EXPECT_GT(png.DarkIn(x - 60, y - 10, x + 1, y + 3), 20) << "label at y=" << y << " not drawn";
      ++labels;
    }
    EXPECT_EQ(labels, c.chart.rows.size());
    // Each label's text is in the document too (what a screen reader and a search find).
    for (const BarRow& row : c.chart.rows) {
      std::string escaped;
      for (char ch : row.label)
        escaped += ch == '&'   ? "&amp;"
                   : ch == '<' ? "&lt;"
                   : ch == '>' ? "&gt;"
                               : std::string(1, ch);
      EXPECT_NE(svg.find(">" + escaped + "</text>"), std::string::npos) << row.label;
    }
  }
}

}  // namespace
}  // namespace warpwatch::report
