#pragma once
// The charts of --format html as inline SVG: plain figures in, markup out. No script: a
// point's or a bar's details are in its <title>, which browsers show as a tooltip.

#include <mlsize/estimate/memory.hpp>
#include <mlsize/support/units.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mlsize::cli {

// `text` with &, <, >, " and ' as character references: safe in HTML and SVG text and in
// quoted attributes, whatever a catalogue overlay names its offerings.
std::string escape_html(std::string_view text);

// The width of a chart in CSS pixels: a desktop page's, and a phone's (390 px less the
// page's margins), at which the charts are laid out again (ticks thinned, legends and
// labels wrapped) rather than shrunk until their 12 px text cannot be read.
inline constexpr double k_chart_width = 960;
inline constexpr double k_phone_chart_width = 358;

// One plan on the time-cost chart.
struct ScatterPoint {
  double x = 0;  // above 0: the axes are logarithmic
  double y = 0;  // 0 (a free tier) is drawn on a row of its own under the axis
  std::string tooltip;
  std::size_t rank = 0;  // 1 is the best
  bool pareto = false;
};

struct ScatterAxes {
  std::string x_title;
  std::string y_title;
  std::string (*x_tick)(double);  // a tick's label from its value
  std::string (*y_tick)(double);
  // The values the x ticks are chosen from, ascending (durations: 1 h, 6 h, 1 d, 7 d, ...);
  // empty: 1, 2 and 5 × 10^k.
  std::vector<double> x_steps = {};
};

// The points on log-log axes, the Pareto front (the pareto points) as a step line, and
// the points ranked 1 to `marked` drawn large and labelled with their rank.
// The legend wraps to rows within `width`.
std::string svg_scatter(const std::vector<ScatterPoint>& points, std::size_t marked, const ScatterAxes& axes,
                        double width = k_chart_width);

// One plan's memory per device.
struct MemoryBar {
  std::string label;        // the plan, above its bar
  std::string short_label;  // on a phone's chart, if given: the plan by ids ("#1 h100-sxm · cudo ×8")
  MemoryBreakdown memory;
  Bytes capacity;  // 0: no device, no capacity line
  Bytes usable;    // what a plan may use: the capacity less --memory-headroom (a dashed line)
};

// A horizontal stack of the memory terms per bar on one GB axis, each bar with its
// device's capacity as a line and its usable part as a dashed one, and a legend of the
// terms shown; the legend wraps within `width`.
std::string svg_memory_bars(const std::vector<MemoryBar>& bars, double width = k_chart_width);

}  // namespace mlsize::cli
