#include "cli/render/render_svg.hpp"

#include "core/support/text_lines.hpp"

#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

namespace mlsize::cli {
namespace {

// Colours readable on white and told apart by most colour-blind readers (Tableau 10).
constexpr std::string_view k_ink = "#333";
constexpr std::string_view k_grid = "#e3e3e3";
constexpr std::string_view k_plan_colour = "#4e79a7";
constexpr std::string_view k_front_colour = "#e15759";
constexpr std::string_view k_top_colour = "#1f3a5f";
constexpr int k_font_size = 12;

// A coordinate with one decimal: enough at screen resolution, and the same text everywhere.
std::string px(double value) {
  return format_fixed(value, 1);
}

std::string text_element(double x, double y, std::string_view anchor, std::string_view text,
                         std::string_view extra = {}) {
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}>{}</text>\n", px(x), px(y), anchor, extra,
                     escape_html(text));
}

// Text of `size` px is about 0.6 × size wide per character in a sans-serif face: enough to
// keep labels apart.
double text_width(std::string_view text, int size = k_font_size) {
  return 0.6 * size * static_cast<double>(text.size());
}

// A logarithmic axis over [low, high] (both above 0) on [from, to] pixels.
struct LogAxis {
  double low_log = 0;
  double high_log = 1;
  double from = 0;
  double to = 1;
  double at(double value) const { return from + (std::log10(value) - low_log) / (high_log - low_log) * (to - from); }
  // Values to label: each power of ten, and 2× and 5× (or every digit) when the range is
  // short enough for them to be read apart.
  std::vector<double> ticks(const std::vector<double>& steps = {}) const {
    const double span = high_log - low_log;
    if (!steps.empty()) {
      std::vector<double> inside;
      for (double value : steps) {
        if (std::log10(value) >= low_log && std::log10(value) <= high_log) inside.push_back(value);
      }
      // At most about 9 labels: every other one while there are more.
      while (inside.size() > 9) {
        std::vector<double> thinned;
        for (std::size_t i = 0; i < inside.size(); i += 2) thinned.push_back(inside[i]);
        inside = std::move(thinned);
      }
      if (inside.size() >= 3) return inside;
    }
    std::vector<int> digits{1};
    if (span <= 1.2) {
      digits = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    } else if (span <= 3.5) {
      digits = {1, 2, 5};
    }
    std::vector<double> result;
    for (int power = static_cast<int>(std::floor(low_log)); power <= static_cast<int>(std::ceil(high_log)); ++power) {
      for (int digit : digits) {
        const double value = digit * std::pow(10.0, power);
        const double log = std::log10(value);
        if (log >= low_log - 1e-9 && log <= high_log + 1e-9) result.push_back(value);
      }
    }
    return result;
  }
};

// The axis over the values, a little wider than they are so that no point sits on a border.
LogAxis log_axis(double low, double high, double from, double to) {
  double low_log = std::log10(low);
  double high_log = std::log10(high);
  const double pad = std::max(0.08, (high_log - low_log) * 0.06);
  low_log -= pad;
  high_log += pad;
  if (high_log - low_log < 0.6) {  // one value, or near ones: show some range around them
    const double middle = (low_log + high_log) / 2;
    low_log = middle - 0.3;
    high_log = middle + 0.3;
  }
  return LogAxis{low_log, high_log, from, to};
}

struct Box {
  double left, top, right, bottom;
  bool overlaps(const Box& other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
  }
};

// A legend's entries laid out left to right from `left`, a new row when the next would
// pass `right`: each entry's x and row.
struct LegendPlace {
  double x = 0;
  int row = 0;
};
std::vector<LegendPlace> legend_places(const std::vector<double>& widths, double left, double right) {
  std::vector<LegendPlace> places;
  double x = left;
  int row = 0;
  for (const double w : widths) {
    if (x > left && x + w > right) {
      x = left;
      ++row;
    }
    places.push_back({x, row});
    x += w;
  }
  return places;
}
constexpr double k_legend_row = 18;

// Labels of `values` at `at(value)` that do not overlap: every other one while two would.
template <class At, class Label>
std::vector<double> spaced_ticks(std::vector<double> values, At at, Label label) {
  const auto fits = [&](const std::vector<double>& v) {
    for (std::size_t i = 1; i < v.size(); ++i) {
      const double room = std::abs(at(v[i]) - at(v[i - 1]));
      if (room < (text_width(label(v[i])) + text_width(label(v[i - 1]))) / 2 + 8) return false;
    }
    return true;
  };
  while (values.size() > 2 && !fits(values)) {
    std::vector<double> thinned;
    for (std::size_t i = 0; i < values.size(); i += 2) thinned.push_back(values[i]);
    values = std::move(thinned);
  }
  return values;
}

}  // namespace

std::string escape_html(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string svg_scatter(const std::vector<ScatterPoint>& points, std::size_t marked, const ScatterAxes& axes,
                        double width) {
  // A phone's chart keeps the desktop's text size: narrower margins, a taller plot.
  const bool narrow = width < 600;
  const double right = width - (narrow ? 12 : 24);
  // The legend above the plot, in as many rows as the width needs.
  std::vector<std::string> legend_texts{"one offering's best plan", "Pareto front (ringed points)"};
  if (marked > 0) legend_texts.push_back(fmt::format("top {}, labelled #rank", std::min(marked, points.size())));
  std::vector<double> legend_widths;
  for (const std::string& text : legend_texts) legend_widths.push_back(12 + text_width(text) + 28);
  const std::vector<LegendPlace> legend = legend_places(legend_widths, narrow ? 16 : 96, right);
  const double legend_rows = legend.back().row;
  const double top = 48 + k_legend_row * legend_rows;
  const double height = (narrow ? 440 : 540) + k_legend_row * legend_rows;
  const bool any_free = std::any_of(points.begin(), points.end(), [](const ScatterPoint& p) { return p.y <= 0; });
  // A free plan has no place on a log axis: it gets a row under the axis, labelled $0.
  const double bottom = height - (any_free ? 96 : 64);
  const double free_row = bottom + 30;
  double x_low = std::numeric_limits<double>::infinity();
  double x_high = 0;
  double y_low = std::numeric_limits<double>::infinity();
  double y_high = 0;
  for (const ScatterPoint& p : points) {
    x_low = std::min(x_low, p.x);
    x_high = std::max(x_high, p.x);
    if (p.y > 0) {
      y_low = std::min(y_low, p.y);
      y_high = std::max(y_high, p.y);
    }
  }
  if (y_high <= 0) y_low = y_high = 1;  // only free plans: any range
  const LogAxis y_axis = log_axis(y_low, y_high, bottom, top);
  const auto y_at = [&](double v) { return y_axis.at(v); };
  // A label's height, 12 px, is two characters' width (text_width): spaced as the x labels.
  const std::vector<double> y_ticks = spaced_ticks(y_axis.ticks(), y_at, [](double) { return std::string("xx"); });
  // Room on the left for the rotated title and the widest tick label.
  double y_label_width = text_width("$0 (free)");
  for (double value : y_ticks) y_label_width = std::max(y_label_width, text_width(axes.y_tick(value)));
  const double left = std::max(narrow ? 40.0 : 96.0, 26 + y_label_width + 10);
  const LogAxis x_axis = log_axis(x_low, x_high, left, right);
  const auto x_of = [&](const ScatterPoint& p) { return x_axis.at(p.x); };
  const auto y_of = [&](const ScatterPoint& p) { return p.y > 0 ? y_axis.at(p.y) : free_row; };

  std::string svg = fmt::format(
      "<svg class=\"scatter\" role=\"img\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"{2}\" fill=\"{3}\">\n",
      width, height, k_font_size, k_ink);
  svg += "<title>Time and cost of each ranked plan</title>\n";
  // Grid and tick labels.
  for (double value : spaced_ticks(
           x_axis.ticks(axes.x_steps), [&](double v) { return x_axis.at(v); }, axes.x_tick)) {
    const double x = x_axis.at(value);
    svg += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"/>\n", px(x),
                       px(top), px(bottom), k_grid);
    svg += text_element(x, bottom + 18, "middle", axes.x_tick(value));
  }
  for (double value : y_ticks) {
    const double y = y_axis.at(value);
    svg += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\"/>\n", px(left),
                       px(y), px(right), k_grid);
    svg += text_element(left - 8, y + 4, "end", axes.y_tick(value));
  }
  svg += fmt::format(
      "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n", px(left),
      px(top), px(right - left), px(bottom - top));
  if (any_free) {
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-dasharray=\"4 4\"/>\n",
                       px(left), px(free_row), px(right), k_grid);
    svg += text_element(left - 8, free_row + 4, "end", "$0 (free)");
  }
  // The x title under the plot's middle, moved in or wrapped where the chart is narrower.
  const std::vector<std::string> x_title =
      text::wrap_words(axes.x_title, static_cast<std::size_t>((width - 8) / (1.1 * text_width("x"))));
  for (std::size_t i = 0; i < x_title.size(); ++i) {
    const double half = 1.1 * text_width(x_title[i]) / 2;
    svg += text_element(std::clamp((left + right) / 2, half + 4, std::max(half + 4, width - half - 4)),
                        height - 12 - 14 * static_cast<double>(x_title.size() - 1 - i), "middle", x_title[i],
                        " font-weight=\"bold\"");
  }
  svg += fmt::format(
      "<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" font-weight=\"bold\" "
      "transform=\"rotate(-90 16 {0})\">{1}</text>\n",
      px((top + bottom) / 2), escape_html(axes.y_title));

  // The Pareto front as a staircase, fastest first: what lies above and right of it is
  // dominated.
  std::vector<const ScatterPoint*> front;
  for (const ScatterPoint& p : points) {
    if (p.pareto) front.push_back(&p);
  }
  std::sort(front.begin(), front.end(),
            [](const ScatterPoint* a, const ScatterPoint* b) { return a->x != b->x ? a->x < b->x : a->y > b->y; });
  if (!front.empty()) {
    std::string path = fmt::format("M{} {}", px(x_of(*front.front())), px(y_of(*front.front())));
    for (std::size_t i = 1; i < front.size(); ++i) {
      path += fmt::format(" H{} V{}", px(x_of(*front[i])), px(y_of(*front[i])));
    }
    svg += fmt::format(
        "<path class=\"pareto-front\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
        "stroke-linejoin=\"round\"><title>Pareto front: no plan is both cheaper and faster</title></path>\n",
        path, k_front_colour);
  }

  // Every plan, the marked ones last so that they are drawn on top, #1 topmost.
  std::vector<const ScatterPoint*> order;
  for (const ScatterPoint& p : points) order.push_back(&p);
  std::sort(order.begin(), order.end(), [&](const ScatterPoint* a, const ScatterPoint* b) {
    const bool a_marked = a->rank <= marked;
    const bool b_marked = b->rank <= marked;
    if (a_marked != b_marked) return b_marked;
    return a->rank > b->rank;
  });
  std::vector<Box> taken;  // the marked points and the labels placed so far
  for (const ScatterPoint* p : order) {
    if (p->rank <= marked) taken.push_back({x_of(*p) - 7, y_of(*p) - 7, x_of(*p) + 7, y_of(*p) + 7});
  }
  std::string labels;
  for (const ScatterPoint* p : order) {
    const double x = x_of(*p);
    const double y = y_of(*p);
    const bool top_plan = p->rank <= marked;
    const std::string kind = top_plan ? "plan top" : p->pareto ? "plan pareto" : "plan";
    const std::string_view fill = top_plan ? k_top_colour : k_plan_colour;
    const std::string stroke = p->pareto ? fmt::format(" stroke=\"{}\" stroke-width=\"2\"", k_front_colour) : "";
    svg += fmt::format(
        "<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" "
        "fill-opacity=\"{}\"{}><title>{}</title></circle>\n",
        kind, px(x), px(y), top_plan ? 6 : 4.5, fill, top_plan ? "1" : "0.6", stroke, escape_html(p->tooltip));
    if (!top_plan) continue;
    // The rank's label at the first place around the point, nearest first, that covers no
    // other label or marked point (else at the nearest), with a leader line when it is far.
    const std::string label = fmt::format("#{}", p->rank);
    const double w = text_width(label) + 2;
    const double h = k_font_size + 2;
    std::optional<Box> placed;
    double leader_x = 0;
    double leader_y = 0;
    for (double distance : {9.0, 22.0, 38.0, 56.0}) {
      for (int step = 0; step < 8 && !placed; ++step) {
        const double angle = -std::numbers::pi / 4 + step * std::numbers::pi / 4;
        const double cx = x + distance * std::cos(angle) + (std::cos(angle) >= -1e-9 ? w / 2 : -w / 2);
        const double cy = y + distance * std::sin(angle);
        const Box box{cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
        if (box.left < left || box.right > right || box.top < top || box.bottom > height - 36) continue;
        if (std::any_of(taken.begin(), taken.end(), [&](const Box& b) { return b.overlaps(box); })) continue;
        placed = box;
        leader_x = x + (distance - 2) * std::cos(angle);
        leader_y = y + (distance - 2) * std::sin(angle);
        if (distance > 9) {
          labels += fmt::format("<line class=\"leader\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n",
                                px(x), px(y), px(leader_x), px(leader_y));
        }
      }
      if (placed) break;
    }
    if (!placed) placed = Box{x + 8, y - 8 - h / 2, x + 8 + w, y - 8 + h / 2};
    taken.push_back(*placed);
    labels += fmt::format(
        "<text class=\"rank\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\" "
        "paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\">{}</text>\n",
        px((placed->left + placed->right) / 2), px(placed->bottom - 3), label);
  }
  svg += labels;

  // Legend, above the plot.
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const double lx = legend[i].x;
    const double ly = 24 + k_legend_row * legend[i].row;
    if (i == 0) {
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\" fill-opacity=\"0.6\"/>\n", px(lx), px(ly),
                         k_plan_colour);
    } else if (i == 1) {
      svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                         px(lx - 7), px(ly), px(lx + 7), px(ly), k_front_colour);
    } else {
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"{}\"/>\n", px(lx), px(ly), k_top_colour);
    }
    svg += text_element(lx + 12, ly + 4, "start", legend_texts[i]);
  }
  return svg + "</svg>\n";
}

namespace {

struct Term {
  std::string_view name;
  std::string_view css;  // the rect's class: what the tests look for
  std::string_view colour;
  Bytes MemoryBreakdown::*bytes;
};
constexpr std::array<Term, 6> k_terms{{
    {"weights", "weights", "#4e79a7", &MemoryBreakdown::weights},
    {"gradients", "gradients", "#f28e2b", &MemoryBreakdown::gradients},
    {"optimizer states", "optimizer", "#e15759", &MemoryBreakdown::optimizer},
    {"activations", "activations", "#76b7b2", &MemoryBreakdown::activations},
    {"KV cache", "kv-cache", "#59a14f", &MemoryBreakdown::kv_cache},
    {"overhead", "overhead", "#bab0ac", &MemoryBreakdown::overhead},
}};

// A round step (1, 2 or 5 × 10^k) that cuts [0, high] into at most `most` parts.
double round_step(double high, int most) {
  const double raw = high / most;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * power >= raw) return factor * power;
  }
  return 10 * power;
}

}  // namespace

std::string svg_memory_bars(const std::vector<MemoryBar>& bars, double width) {
  const bool narrow = width < 600;
  const double left = narrow ? 8 : 24;
  const double right = width - (narrow ? 124 : 190);  // room for "123.4 / 141.0 GB" after the longest bar
  constexpr double row = 52;
  constexpr double bar_height = 20;

  // Legend: the terms some bar has, and the capacity lines, in rows within the width.
  std::array<bool, k_terms.size()> used{};
  for (const MemoryBar& bar : bars) {
    for (std::size_t t = 0; t < k_terms.size(); ++t) used[t] = used[t] || (bar.memory.*k_terms[t].bytes).value > 0;
  }
  const bool any_capacity =
      std::any_of(bars.begin(), bars.end(), [](const MemoryBar& bar) { return bar.capacity.value > 0; });
  constexpr std::string_view k_capacity_text = "capacity per device";
  constexpr std::string_view k_usable_text = "usable (less --memory-headroom)";
  std::vector<double> legend_widths;
  for (std::size_t t = 0; t < k_terms.size(); ++t) {
    if (used[t]) legend_widths.push_back(17 + text_width(k_terms[t].name) + 22);
  }
  if (any_capacity) {
    legend_widths.push_back(12 + text_width(k_capacity_text) + 22);
    legend_widths.push_back(12 + text_width(k_usable_text) + 8);
  }
  const std::vector<LegendPlace> legend = legend_places(legend_widths, left, width - 8);
  const double top = 44 + k_legend_row * (legend.empty() ? 0 : legend.back().row);

  const double bottom = top + row * static_cast<double>(bars.size());
  const double height = bottom + 44;
  double high = 0;
  for (const MemoryBar& bar : bars) high = std::max({high, bar.memory.total().value, bar.capacity.value});
  high = std::max(high, k_giga) / k_giga;  // GB
  const double step = round_step(high, 8);
  const double axis_high = std::ceil(high / step - 1e-9) * step;
  const auto x_of = [&](double gb) { return left + gb / axis_high * (right - left); };

  std::string svg = fmt::format(
      "<svg class=\"memory\" role=\"img\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"{2}\" fill=\"{3}\">\n",
      width, px(height), k_font_size, k_ink);
  svg += "<title>Memory per device by term, against the device's capacity</title>\n";
  for (double gb = 0; gb <= axis_high + step / 2; gb += step) {
    svg += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"/>\n",
                       px(x_of(gb)), px(top), px(bottom), k_grid);
    svg += text_element(x_of(gb), bottom + 16, "middle", format_general(gb));
  }
  svg += text_element((left + right) / 2, height - 8, "middle", "GB per device (10^9 bytes)", " font-weight=\"bold\"");

  std::size_t entry = 0;
  const auto place = [&] {
    const LegendPlace& at = legend[entry++];
    return std::pair{at.x, k_legend_row * at.row};
  };
  for (std::size_t t = 0; t < k_terms.size(); ++t) {
    if (!used[t]) continue;
    const auto [lx, dy] = place();
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", px(lx), px(14 + dy),
                       k_terms[t].colour);
    svg += text_element(lx + 17, 24 + dy, "start", k_terms[t].name);
  }
  if (any_capacity) {
    const auto [cx, cy] = place();
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\" stroke-width=\"2\"/>\n",
                       px(cx + 4), px(12 + cy), px(28 + cy));
    svg += text_element(cx + 12, 24 + cy, "start", k_capacity_text);
    const auto [ux, uy] = place();
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\" stroke-width=\"2\" "
        "stroke-dasharray=\"3 2\"/>\n",
        px(ux + 4), px(12 + uy), px(28 + uy));
    svg += text_element(ux + 12, 24 + uy, "start", k_usable_text);
  }

  for (std::size_t i = 0; i < bars.size(); ++i) {
    const MemoryBar& bar = bars[i];
    const double y = top + row * static_cast<double>(i) + 18;
    // A phone's chart names the plan by ids, as the text table does; the full name is its
    // tooltip. The label's length never changes the layout, whatever a catalogue names.
    if (narrow && !bar.short_label.empty()) {
      svg +=
          fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"start\" font-weight=\"bold\">{}<title>{}</title></text>\n",
                      px(left), px(y - 6), escape_html(bar.short_label), escape_html(bar.label));
    } else {
      svg += text_element(left, y - 6, "start", bar.label, " font-weight=\"bold\"");
    }
    if (bar.capacity.value > 0) {  // the room the device has, under the terms
      svg += fmt::format("<rect class=\"track\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f0f0f0\"/>\n",
                         px(left), px(y), px(x_of(bar.capacity.value / k_giga) - left), px(bar_height));
    }
    double gb = 0;
    for (const Term& term : k_terms) {
      const double part = (bar.memory.*term.bytes).value / k_giga;
      if (part <= 0) continue;
      std::string tooltip(term.name);
      tooltip += ": ";
      tooltip += format_gb(bar.memory.*term.bytes);
      tooltip += " GB";
      svg += fmt::format(
          "<rect class=\"term {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
          term.css, px(x_of(gb)), px(y), px(std::max(0.5, x_of(gb + part) - x_of(gb))), px(bar_height), term.colour,
          escape_html(tooltip));
      gb += part;
    }
    std::string total = format_gb(bar.memory.total());
    if (bar.capacity.value > 0) {
      const double cx = x_of(bar.capacity.value / k_giga);
      svg += fmt::format(
          "<line class=\"capacity\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\" stroke-width=\"2\">"
          "<title>capacity: {3} GB</title></line>\n",
          px(cx), px(y - 4), px(y + bar_height + 4), format_gb(bar.capacity));
      svg += fmt::format(
          "<line class=\"usable\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\" stroke-width=\"2\" "
          "stroke-dasharray=\"3 2\"><title>usable: {3} GB</title></line>\n",
          px(x_of(bar.usable.value / k_giga)), px(y - 4), px(y + bar_height + 4), format_gb(bar.usable));
      total += " / ";
      total += format_gb(bar.capacity);
    }
    total += " GB";
    const double end = std::max(x_of(gb), bar.capacity.value > 0 ? x_of(bar.capacity.value / k_giga) : 0.0);
    svg += text_element(end + 8, y + 14, "start", total);
  }
  return svg + "</svg>\n";
}

}  // namespace mlsize::cli
