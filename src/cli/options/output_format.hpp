#pragma once
// The formats the commands write (--format), and which ones each command offers.

#include "cli/options/choice.hpp"

#include <mlsize/support/names.hpp>

#include <array>
#include <optional>
#include <span>
#include <string>

namespace mlsize::cli {

enum class OutputFormat { table, json, yaml, csv, tsv, markdown, html };
constexpr auto enum_names(OutputFormat) {
  using enum OutputFormat;
  return std::to_array<EnumName<OutputFormat>>({{table, "table"},
                                                {json, "json"},
                                                {yaml, "yaml"},
                                                {csv, "csv"},
                                                {tsv, "tsv"},
                                                {markdown, "markdown"},
                                                {html, "html"}});
}

// What each command offers; the first is its default. One set for the reports (recommend,
// estimate, explain, rules list, catalog list): the table for people, JSON and YAML for
// tools, CSV and TSV rows for spreadsheets and dataframes, Markdown for a pull request.
inline constexpr std::array k_report_formats{OutputFormat::table, OutputFormat::json, OutputFormat::yaml,
                                             OutputFormat::csv,   OutputFormat::tsv,  OutputFormat::markdown};
// recommend and estimate also write a self-contained HTML page with SVG charts (the plans'
// time and cost, their memory against capacity); the other reports have nothing to chart.
inline constexpr std::array k_chart_report_formats{OutputFormat::table, OutputFormat::json, OutputFormat::yaml,
                                                   OutputFormat::csv,   OutputFormat::tsv,  OutputFormat::markdown,
                                                   OutputFormat::html};
inline constexpr std::array k_catalog_list_formats = k_report_formats;
inline constexpr std::array k_catalog_show_formats{OutputFormat::yaml, OutputFormat::json};
// detect: the machine for people, or as a document for tools.
inline constexpr std::array k_detect_formats{OutputFormat::table, OutputFormat::json, OutputFormat::yaml};
inline constexpr std::array k_catalog_export_formats{OutputFormat::yaml, OutputFormat::json, OutputFormat::csv,
                                                     OutputFormat::tsv};

// --format's help: the offered formats and the default.
inline std::string format_help(std::span<const OutputFormat> offered) {
  return choice_help(offered, offered.front());
}

// The --format given, or the command's default when none was.
inline OutputFormat parse_format(const std::optional<std::string>& text, std::span<const OutputFormat> offered) {
  return text ? parse_choice("--format", *text, offered) : offered.front();
}

}  // namespace mlsize::cli
