// --format html: a page to open in a browser or attach to a ticket, readable offline and
// years later. Everything is in the one file (CSS in <style>, charts as inline SVG), there
// is no script, and nothing is fetched: no link, font or image points outside the file.
// Every text from the catalogue, the rules or the command line is escaped (escape_html),
// since catalogue overlays and rules files are the user's YAML.

#include "cli/render/format.hpp"
#include "cli/render/price_note.hpp"
#include "cli/render/ranking_notes.hpp"
#include "cli/render/render_serving.hpp"
#include "cli/render/render_svg.hpp"
#include "cli/render/renderers.hpp"

#include <mlsize/support/number_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

namespace mlsize::cli {
namespace {

// The plans whose memory is drawn: the top of the ranking, few enough to compare at a glance.
constexpr std::size_t k_memory_bars = 5;

constexpr std::string_view k_style = R"(
body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222;
       max-width: 1000px; margin: 24px auto; padding: 0 16px; line-height: 1.45; background: #fff; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
p.summary { font-size: 1.1em; background: #f3f6fa; border-left: 4px solid #4e79a7; padding: 8px 12px; }
table { border-collapse: collapse; font-size: 0.92em; margin: 8px 0; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e5e5e5; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 12px 0; }
figcaption { color: #555; font-size: 0.9em; margin-top: 4px; }
svg { max-width: 100%; height: auto; }
.note, footer { color: #555; font-size: 0.9em; }
dl.provenance { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; font-size: 0.9em; }
dl.provenance dt { color: #555; }
dl.provenance dd { margin: 0; }
p.warning { color: #8a3b00; background: #fff4e5; border-left: 4px solid #e08a00; padding: 6px 12px; }
pre { background: #f6f8fa; padding: 8px 12px; overflow-x: auto; font-size: 0.88em; }
p, dd, figcaption { overflow-wrap: anywhere; }
div.table { overflow-x: auto; }
div.chart.phone { display: none; }
@media (max-width: 600px) {
  body { margin: 12px auto; padding: 0 12px; }
  div.chart.desktop { display: none; }
  div.chart.phone { display: block; }
}
)";

std::string page(std::string_view title, const std::string& body) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n", escape_html(title), k_style);
  return html + body + "</body>\n</html>\n";
}

// Each line of a report's text as a paragraph.
std::string paragraphs(std::string_view text, std::string_view css = {}) {
  std::string html;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) {
      html += css.empty() ? "<p>" : fmt::format("<p class=\"{}\">", css);
      html += escape_html(text.substr(start, end - start));
      html += "</p>\n";
    }
    start = end + 1;
  }
  return html;
}

// The table's notes as paragraphs: a line that warns stands out (class warning), an
// indented line (a hanging continuation, a warning under its line) is its own paragraph.
std::string note_paragraphs(const std::string& text) {
  std::string html;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (const std::size_t first = line.find_first_not_of(' '); first != std::string::npos) {
      const std::string body = line.substr(first);
      html += paragraphs(body, body.starts_with("warning:") ? "warning" : "note");
    }
    start = end + 1;
  }
  return html;
}

std::string provenance_list(const Provenance& p) {
  const auto item = [](std::string_view term, const std::string& value) {
    return fmt::format("<dt>{}</dt><dd>{}</dd>\n", term, escape_html(value));
  };
  std::string html = "<dl class=\"provenance\">\n";
  html += item("mlsize", fmt::format("{} (commit {})", p.version, p.commit));
  if (p.with_catalog) {
    html += item("catalogue", fmt::format("{} devices, {} offerings; figures as of {} to {}", p.devices, p.offerings,
                                          p.oldest_as_of, p.newest_as_of));
  }
  if (!p.catalog_overlays.empty()) html += item("catalogue overlays", join(p.catalog_overlays, ", "));
  if (!p.rules_files.empty()) html += item("rules files", join(p.rules_files, ", "));
  if (!p.calibrations.empty()) html += item("calibrations", join(printable(p.calibrations), ", "));
  for (const DefaultSetting& d : p.defaults) {
    html += item("team default", fmt::format("{}{}{} ({})", d.flag, d.value.empty() ? "" : " ", d.value, d.origin));
  }
  return html + "</dl>\n";
}

// A chart drawn twice, for a desktop and for a phone (k_phone_chart_width): the style
// shows one by the screen's width. Laid out again rather than scaled down, its text stays
// 12 px and its legend whole on a phone.
template <class Draw>
std::string responsive_chart(Draw draw) {
  return "<div class=\"chart desktop\">\n" + draw(k_chart_width) + "</div>\n<div class=\"chart phone\">\n" +
         draw(k_phone_chart_width) + "</div>\n";
}

// A table whose columns marked `number` are right-aligned.
std::string html_table(const std::vector<std::pair<std::string, bool>>& columns,
                       const std::vector<std::vector<std::string>>& rows) {
  // In a box of its own that scrolls sideways when the table is wider than the screen,
  // so that the page never does (a phone's 390 px).
  std::string html = "<div class=\"table\"><table>\n";
  // Columns without titles (a list of figures and values) get no header row.
  if (std::any_of(columns.begin(), columns.end(), [](const auto& column) { return !column.first.empty(); })) {
    html += "<thead><tr>";
    for (const auto& [title, number] : columns) {
      html += fmt::format("<th{}>{}</th>", number ? " class=\"number\"" : "", escape_html(title));
    }
    html += "</tr></thead>\n";
  }
  html += "<tbody>\n";
  for (const std::vector<std::string>& row : rows) {
    html += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      html += fmt::format("<td{}>{}</td>", columns[i].second ? " class=\"number\"" : "", escape_html(row[i]));
    }
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table></div>\n";
}

// Durations people plan in, in hours: minutes, hours, a day, a week, a month, a year.
const std::vector<double> k_hour_steps{1.0 / 60, 5.0 / 60, 15.0 / 60, 0.5, 1,   2,    3,    6,    12,  24,
                                       48,       96,       168,       336, 720, 1440, 2160, 4380, 8760};
// "30 min", "6 h", "2 d": whole numbers, as the steps are.
std::string hours_tick(double hours) {
  if (hours < 1) return fmt::format("{} min", format_general(hours * 60, 3));
  if (hours < 48) return fmt::format("{} h", format_general(hours, 3));
  return fmt::format("{} d", format_general(hours / 24, 3));
}
// "$5", "$50", "$5,000": a tick's round dollars without the cents a price shows.
std::string usd_tick(double usd) {
  if (usd >= 1 && usd < 100 && usd == std::round(usd)) return fmt::format("${}", format_general(usd));
  return format_usd(Usd(usd));
}
std::string latency_tick(double ms) {
  return format_latency(Seconds(ms / 1000));
}

// The memory bars of plans, each labelled with its rank and hardware.
std::vector<MemoryBar> memory_bars(const std::vector<RankedPlan>& plans, std::size_t count) {
  std::vector<MemoryBar> bars;
  for (std::size_t i = 0; i < std::min(count, plans.size()); ++i) {
    const RankedPlan& e = plans[i];
    bars.push_back({fmt::format("#{}  {}", i + 1, describe_hardware(e.plan)),
                    fmt::format("#{}  {}", i + 1, hardware_cell(e.plan, false)), e.memory, e.capacity, e.usable});
  }
  return bars;
}

}  // namespace

std::string render_recommend_html(const Report& report, int top, const Provenance& provenance,
                                  const std::string& next) {
  const Workload& workload = report.workload;
  const bool load = workload.serving && !workload.serving->offline();
  // A fleet generating images (docs/methodology.md#diffusion-serving): latency and $ per 1,000.
  const bool images = workload.diffusion && workload.serves_a_fleet();
  std::string body = "<h1>mlsize recommend</h1>\n";
  body += paragraphs(summary_sentence(report), "summary");
  body += "<h2>Workload</h2>\n";
  body += paragraphs(workload_line(workload));
  body += provenance_list(provenance);

  const std::vector<RankedPlan>& plans = report.recommendations;
  const std::size_t shown = std::min(plans.size(), static_cast<std::size_t>(top));
  if (shown > 0) {
    body += fmt::format(
        "<h2>Ranking</h2>\n<p class=\"note\">Ranked by {} (--optimize); the top {} of {} offerings "
        "that can do it. * on the time-cost Pareto front (figures within {} count as equal). Memory is per device "
        "against its capacity, of which {} is kept free (--memory-headroom); GB = 10^9 bytes.</p>\n",
        to_string(report.objective), shown, plans.size(), format_percent(k_near_tie),
        format_percent(report.workload.memory_headroom));
    if (load) {
      // As the table says: which latency, and whose engine.
      const int percentile = workload.serving->percentile;
      body += fmt::format(
          "<p class=\"note\">TPOT at the load's {}, waits for admission included; engine {} (--engine).</p>\n",
          percentile == 50 ? std::string("median") : fmt::format("p{}", percentile), to_string(workload.engine));
    }
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < shown; ++i) {
      const RankedPlan& e = plans[i];
      std::string strategy = describe_strategy(e.plan.strategy, e.plan.device_count, workload.task);
      if (e.precision != workload.precision) strategy += fmt::format(", {}", to_string(e.precision));
      const std::string per_hour = per_hour_cell(e);
      rows.push_back(
          {rank_cell(i + 1, e, i + 1 < shown), hardware_cell(e.plan, true), std::to_string(e.plan.device_count),
           strategy, memory_cell(e), load || images ? format_latency(e.time) : format_duration(e.time), per_hour,
           load && e.serving                                       ? format_usd(e.serving->per_million_output_tokens)
           : images && e.diffusion && e.diffusion->per_1000_images ? format_usd(*e.diffusion->per_1000_images)
           : e.cost                                                ? format_usd(*e.cost)
                                                                   : "-"});
    }
    body += html_table({{"rank", true},
                        {"hardware", false},
                        {"devices", true},
                        {"strategy", false},
                        {"memory GB", true},
                        {load     ? "TPOT"
                         : images ? "latency"
                                  : "time",
                         true},
                        {"$/hour", true},
                        {load     ? "$/M tokens"
                         : images ? "$/1k images"
                                  : "cost USD",
                         true}},
                       rows);
    // What the table's notes say: ties, host shapes, on-demand limits, spot, the serving
    // fleet's figures, and the prices' kind, region and age (with its warning).
    body += note_paragraphs((load ? serving_notes(report) : std::string()) + ranking_notes(report, top, true) +
                            price_footer(report, top, provenance));

    // One point per ranked offering: its best plan. The ranker keeps no other plan, so
    // this is the front of the offerings' best plans (docs/cli.md#html---format-html).
    std::vector<ScatterPoint> points;
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const RankedPlan& e = plans[i];
      if (!e.cost || e.time.value <= 0) continue;
      const double x = load || images ? e.time.value * 1000 : e.time.value / k_seconds_per_hour;
      std::string tooltip = fmt::format("#{} {}, {}: {}, {}", i + 1, describe_hardware(e.plan),
                                        describe_strategy(e.plan.strategy, e.plan.device_count, workload.task),
                                        load     ? format_latency(e.time) + " TPOT"
                                        : images ? format_latency(e.time) + " an image"
                                                 : format_duration(e.time),
                                        format_usd(*e.cost) + (load || images ? "/hour" : ""));
      if (e.pareto) tooltip += " (Pareto front)";
      points.push_back({x, e.cost->value, std::move(tooltip), i + 1, e.pareto});
    }
    const ScatterAxes axes = load     ? ScatterAxes{"time per output token at the load (log scale)",
                                                "fleet cost per hour, USD (log scale)", latency_tick, usd_tick}
                             : images ? ScatterAxes{"latency of an image (log scale)",
                                                    "fleet cost per hour, USD (log scale)", latency_tick, usd_tick}
                                      : ScatterAxes{"time to finish (log scale)", "cost of the run, USD (log scale)",
                                                    hours_tick, usd_tick, k_hour_steps};
    body += "<h2>Time and cost</h2>\n<figure>\n";
    body += points.empty() ? "<p>No ranked plan has a time and a cost to draw.</p>\n"
                           : responsive_chart([&](double width) { return svg_scatter(points, shown, axes, width); });
    body += fmt::format(
        "<figcaption>Each point is one offering's best plan ({} offerings; the ranker keeps one plan per "
        "offering). The red staircase joins the Pareto front: no other plan is both cheaper and faster (figures within "
        "{} count as equal). The top {} are labelled with their rank. Hover a point for its plan.</figcaption>\n"
        "</figure>\n",
        points.size(), format_percent(k_near_tie), shown);

    const std::vector<MemoryBar> bars = memory_bars(plans, std::min(shown, k_memory_bars));
    body += "<h2>Memory per device</h2>\n<figure>\n";
    body += responsive_chart([&](double width) { return svg_memory_bars(bars, width); });
    body += fmt::format(
        "<figcaption>The top {} plans: what one device holds, by term, against its capacity (solid: the device's "
        "memory less the runtime's reserve) and what a plan may use of it (dashed: {} kept free, "
        "--memory-headroom). Hover a segment for its size.</figcaption>\n</figure>\n",
        bars.size(), format_percent(workload.memory_headroom));
  }
  if (const std::vector<std::vector<std::string>> ways = ways_out_rows(report, true); !ways.empty()) {
    // docs/methodology.md#ways-out
    body +=
        "<h2>Ways out</h2>\n<p class=\"note\">One change each: the plan that ranks first with it, or the "
        "nearest to fitting.</p>\n";
    body += html_table({{"change", false},
                        {"hardware", false},
                        {"devices", true},
                        {"strategy", false},
                        {"memory GB", true},
                        {"time", true},
                        {"$/hour", true},
                        {"cost USD", true}},
                       ways);
  }
  body += note_paragraphs(rejected_summary(report, true));
  if (const std::string purchases = purchases_table(report, top, TableStyle{.wide = true}); !purchases.empty()) {
    body += "<h2>To buy</h2>\n<pre>" + escape_html(purchases.substr(purchases.find_first_not_of('\n'))) + "</pre>\n";
  }
  if (!report.advice.empty()) {
    body += "<h2>Rules and advice</h2>\n<ul>\n";
    for (const RuleMessage& note : report.advice) {
      body += fmt::format("<li><code>{}</code> {}{}{}</li>\n", escape_html(note.rule->id),
                          note.rank ? fmt::format("#{}: ", *note.rank) : "",
                          note.rule->severity == Severity::warn ? "<strong>warning:</strong> " : "",
                          escape_html(note.message));
    }
    body += "</ul>\n";
  }
  if (!next.empty()) {
    body += "<h2>Next</h2>\n<p>#1 term by term, with its formulas:</p>\n<pre><code>" + escape_html(next) +
            "</code></pre>\n";
  }
  body += "<footer><p>Written by mlsize --format html: one file, no scripts, nothing fetched.</p></footer>\n";
  return page("mlsize recommend", body);
}

std::string render_estimate_html(const EstimateResult& result) {
  const PlanEstimate& e = result.estimate;
  const Workload& workload = result.workload;
  std::string body = "<h1>mlsize estimate</h1>\n";
  const std::string layout = describe_strategy(e.plan.strategy, e.plan.device_count, workload.task);
  const std::string plan = result.has_device() ? describe_hardware(e.plan) + ", " + layout
                                               : std::to_string(e.plan.device_count) + " device(s), " + layout +
                                                     " (no device given: memory only)";
  // The verdict in the headline, as the table's "Memory:" line gives it (issue 51).
  std::string verdict;
  if (result.has_device()) {
    verdict =
        fmt::format(" It {}: {} GB per device of {} GB usable ({}).", e.fits ? "fits" : "does not fit",
                    format_gb(e.memory.total()), format_gb(e.usable), format_percent(e.memory.total() / e.usable));
    if (e.host_fits && !*e.host_fits) verdict += " Its host RAM does not fit.";
  }
  body += paragraphs(fmt::format("Plan: {}.{}", plan, verdict), "summary");
  body += "<h2>Workload</h2>\n";
  body += paragraphs(workload_line(workload));
  body += provenance_list(result.provenance);

  std::vector<std::vector<std::string>> rows;
  std::string memory = format_gb(e.memory.total()) + " GB";
  if (result.has_device()) {
    memory += fmt::format(" of {} GB usable ({} GB capacity, {} kept free)", format_gb(e.usable), format_gb(e.capacity),
                          headroom_text(result.workload));
  }
  rows.push_back({"memory per device", memory});
  if (result.has_device()) rows.push_back({"fits", e.fits ? "yes" : "NO"});
  if (result.timed()) {
    rows.push_back({"time", format_duration(e.time)});
    if (result.meets_deadline) rows.push_back({"meets the deadline", *result.meets_deadline ? "yes" : "NO"});
  }
  if (e.cost) rows.push_back({"cost", format_usd(*e.cost)});
  if (result.within_budget) rows.push_back({"within the budget", *result.within_budget ? "yes" : "NO"});
  body += "<h2>Plan</h2>\n";
  body += html_table({{"", false}, {"", false}}, rows);

  const MemoryBar bar{
      result.has_device() ? describe_hardware(e.plan) : fmt::format("{} device(s)", e.plan.device_count),
      result.has_device() ? hardware_cell(e.plan, false) : std::string(), e.memory,
      result.has_device() ? e.capacity : Bytes(0), e.usable};
  body += "<h2>Memory per device</h2>\n<figure>\n";
  body += responsive_chart([&](double width) { return svg_memory_bars({bar}, width); });
  body += "<figcaption>What one device holds, by term";
  body += result.has_device() ? ", against its capacity (solid) and what a plan may use of it (dashed)" : "";
  body += ". Hover a segment for its size.</figcaption>\n</figure>\n";
  body += "<h2>Findings</h2>\n" + note_paragraphs(estimate_findings(result));
  if (!result.explanation.empty()) {
    std::vector<std::vector<std::string>> explained;
    for (const ExplainedTerm& term : result.explanation) {
      explained.push_back({term.term, format_gb(term.value), term.formula, term.inputs});
    }
    body += "<h2>Memory terms (--explain)</h2>\n";
    body += html_table({{"term", false}, {"GB", true}, {"formula", false}, {"inputs", false}}, explained);
  }
  body += "<footer><p>Written by mlsize --format html: one file, no scripts, nothing fetched.</p></footer>\n";
  return page("mlsize estimate", body);
}

}  // namespace mlsize::cli
