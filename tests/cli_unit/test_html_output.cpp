// --format html: one self-contained page whose elements nest, with the two charts, nothing
// fetched and every catalogue text escaped. tests/html/check_html_report.py renders it in
// Chromium.

#include "cli/render/render_svg.hpp"
#include "run_capture.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using mlsize::testing::run_cli;

namespace {

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The page as a desktop shows it: each chart is drawn twice, for a desktop and for a phone
// (render_html.cpp), and the style shows one; this drops the phone's.
std::string desktop(const std::string& html) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t phone = html.find("<div class=\"chart phone\">"); phone != std::string::npos;
       phone = html.find("<div class=\"chart phone\">", at)) {
    out += html.substr(at, phone - at);
    at = html.find("</div>", phone) + 6;
  }
  return out + html.substr(at);
}

// Whether every element the page opens is closed, in order (what a browser would otherwise
// repair silently); returns the first mismatch, or empty.
std::string unbalanced_tags(const std::string& html) {
  std::vector<std::string> open;
  for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
    const std::size_t end = html.find('>', at);
    if (end == std::string::npos) return "unclosed '<' at " + std::to_string(at);
    const std::string tag = html.substr(at + 1, end - at - 1);
    if (tag.starts_with("!") || tag.ends_with("/") || tag.starts_with("meta ")) continue;
    const bool closing = tag.starts_with("/");
    const std::string name = tag.substr(closing ? 1 : 0, tag.find_first_of(" \n", closing ? 1 : 0) - (closing ? 1 : 0));
    if (!closing) {
      open.push_back(name);
      continue;
    }
    if (open.empty() || open.back() != name) {
      return "</" + name + "> closes <" + (open.empty() ? std::string("nothing") : open.back()) + ">";
    }
    open.pop_back();
  }
  return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

}  // namespace

TEST_CASE("recommend --format html is one page with the table, the time-cost chart and the memory chart", "[html]") {
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "html"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  CHECK(result.out.ends_with("</html>\n"));
  CHECK(unbalanced_tags(result.out).empty());
  INFO(unbalanced_tags(result.out));
  // Each chart for a desktop and for a phone, the same points and bars.
  CHECK(count(result.out, "<div class=\"chart desktop\">") == 2);
  CHECK(count(result.out, "<div class=\"chart phone\">") == 2);
  CHECK(count(result.out, "<circle class=\"plan") == 2 * count(desktop(result.out), "<circle class=\"plan"));
  const std::string html = desktop(result.out);
  CHECK(count(html, "<svg class=\"scatter\"") == 1);
  CHECK(count(html, "<svg class=\"memory\"") == 1);
  CHECK(count(html, "<svg") == 2);
  CHECK(count(html, "<path class=\"pareto-front\"") == 1);
  CHECK(count(html, "<circle class=\"plan top\"") == 10);  // --top's default
  CHECK(count(html, "<text class=\"rank\"") == 10);
  CHECK(count(html, "<line class=\"capacity\"") == 5);  // the top 5 plans' memory
  CHECK(count(html, "<rect class=\"term weights\"") == 5);
  // The ranked table: a header row and one row per plan shown.
  CHECK(count(html, "<tr>") == 11);
  // Self-contained: nothing to fetch, nothing to run.
  CHECK(count(html, "http://") == 0);
  CHECK(count(html, "https://") == 0);
  CHECK(count(html, "<script") == 0);
  CHECK(count(html, " src=") == 0);
  CHECK(count(html, " href=") == 0);
  // Provenance and the workload.
  CHECK(count(html, "<dt>mlsize</dt>") == 1);
  CHECK(count(html, "<dt>catalogue</dt>") == 1);
  CHECK(count(html, "Workload: 7.0B parameters") == 1);
}

TEST_CASE("recommend --top sets the plans marked in the html chart", "[html]") {
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "html", "--top", "3"});
  REQUIRE(result.exit_code == 0);
  const std::string html = desktop(result.out);
  CHECK(count(html, "<circle class=\"plan top\"") == 3);
  CHECK(count(html, "<line class=\"capacity\"") == 3);
  CHECK(count(html, "<circle class=\"plan") > 20);  // every ranked offering is still plotted
}

TEST_CASE("recommend --format html shows the ways out when nothing is ranked", "[html]") {
  // Llama-2-70B on one owned 4090: nothing fits; the table's ways out are in the page too.
  const auto result = run_cli({"recommend", "--model", "llama-2-70b", "--task", "finetune", "--tokens", "50M", "--gpus",
                               "rtx-4090:1", "--owned", "on-prem-rtx-4090", "--format", "html"});
  CHECK(result.exit_code == 3);
  CHECK(result.out.find("<h2>Ways out</h2>") != std::string::npos);
  CHECK(result.out.find("--task qlora") != std::string::npos);
  CHECK(result.out.find("(does not fit)") != std::string::npos);
}

TEST_CASE("markup in a catalogue overlay's offering name is text in the html page", "[html]") {
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--no-user-catalog", "--catalog",
                               MLSIZE_SOURCE_DIR "/tests/html/hostile-catalog.yaml", "--format", "html"});
  REQUIRE(result.exit_code == 0);
  const std::string& html = result.out;
  CHECK(count(html, "&lt;script&gt;document.documentElement") > 0);
  CHECK(count(html, "&lt;img src=x onerror=&quot;") > 0);
  CHECK(count(html, "<script") == 0);
  CHECK(count(html, "<img") == 0);
  CHECK(unbalanced_tags(html).empty());
}

TEST_CASE("escape_html escapes what could end a text or an attribute", "[html]") {
  CHECK(mlsize::cli::escape_html("<a href=\"x\">'&'</a>") ==
        "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  CHECK(mlsize::cli::escape_html("8× H100 · aws") == "8× H100 · aws");
}

TEST_CASE("estimate --format html draws the plan's memory against its capacity", "[html]") {
  const auto result =
      run_cli({"estimate", "--params", "7B", "--data", "200GB", "--offering", "aws-p5.48xlarge", "--zero", "3", "--format", "html"});
  REQUIRE(result.exit_code == 0);
  CHECK(unbalanced_tags(result.out).empty());
  const std::string html = desktop(result.out);
  CHECK(count(html, "<svg class=\"memory\"") == 1);
  CHECK(count(html, "<svg class=\"scatter\"") == 0);
  CHECK(count(html, "<line class=\"capacity\"") == 1);
  // The verdict in the headline.
  CHECK(count(html, "<p class=\"summary\">Plan: ") == 1);
  CHECK(count(html, ". It fits: ") == 1);
  // Without a device: the terms alone, no capacity.
  const auto memory_only = run_cli({"estimate", "--params", "7B", "--format", "html"});
  REQUIRE(memory_only.exit_code == 0);
  CHECK(count(desktop(memory_only.out), "<line class=\"capacity\"") == 0);
  CHECK(count(desktop(memory_only.out), "<rect class=\"term weights\"") == 1);
  // A plan that does not fit says so at the top.
  const auto too_big =
      run_cli({"estimate", "--model", "llama-3-70b", "--task", "inference", "--gpus", "rtx-4090:1", "--format", "html"});
  CHECK(count(too_big.out, ". It does not fit: 145.1 GB per device of 22.8 GB usable (637%).") == 1);
}

TEST_CASE("commands without charts refuse --format html, listing what they offer", "[html]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"explain", "--params", "7B", "--data", "200GB", "--format", "html"},
        std::vector<std::string>{"rules", "list", "--format", "html"},
        std::vector<std::string>{"catalog", "list", "--format", "html"}}) {
    const auto result = run_cli(args);
    INFO(args.front());
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(count(result.err, "--format: \"html\" is not one of table, json, yaml, csv, tsv, markdown") == 1);
  }
}

namespace {

// The page's text as a reader sees it: no tags, styles or charts, entities decoded,
// whitespace runs as one space.
std::string visible_text(std::string html) {
  for (const auto& [open, close] : {std::pair{"<style>", "</style>"}, std::pair{"<svg", "</svg>"}}) {
    for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at)) {
      html.erase(at, html.find(close, at) + std::string_view(close).size() - at);
    }
  }
  std::string text;
  bool in_tag = false;
  for (const char c : html) {
    if (c == '<') in_tag = true;
    if (!in_tag) text += c;
    if (c == '>') {
      in_tag = false;
      text += ' ';
    }
  }
  for (const auto& [entity, c] : {std::pair{"&lt;", "<"}, std::pair{"&gt;", ">"}, std::pair{"&quot;", "\""},
                                  std::pair{"&#39;", "'"}, std::pair{"&amp;", "&"}}) {
    for (std::size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1)) {
      text.replace(at, std::string_view(entity).size(), c);
    }
  }
  std::string squeezed;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && (squeezed.empty() || squeezed.back() == ' ')) continue;
    squeezed += space ? ' ' : c;
  }
  return squeezed;
}

}  // namespace

TEST_CASE("the html report carries every caveat the table prints", "[html]") {
  // Each line of prose under the --wide --verbose table (unwrapped): the notes on ties, host shapes
  // and on-demand limits, the price basis and its age warning, the rejections, the rules'
  // advice and the next: command; estimate's fit, ways to fit, compute, time and cost. The ranking rows, and the lines the page words its own
  // way (its legend, the advice heading), are the only ones left out.
  const std::vector<std::vector<std::string>> commands{
      {"recommend", "--params", "7B", "--data", "200GB", "--today", "2027-09-01"},  // prices 13 months old
      {"recommend", "--model", "llama-3-70b", "--task", "inference", "--rate", "20", "--prompt-tokens", "1000",
       "--output-tokens", "200", "--tpot", "50ms"},
      {"recommend", "--params", "7B", "--data", "200GB", "--include-purchase", "--top", "3"},
      {"recommend", "--model", "llama-3-8b", "--task", "inference", "--tokens", "100M", "--prompt-tokens", "500",
       "--output-tokens", "100"},
      {"estimate", "--params", "3.8B", "--tokens", "1B", "--device", "h100", "--count", "1"},  // the ways to fit
      {"estimate", "--params", "7B", "--data", "200GB", "--offering", "aws-p5.48xlarge", "--zero", "3"}};
  int checked = 0;
  for (std::vector<std::string> args : commands) {
    // The table's notes in full (--verbose; by default a line per kind), as the page has them.
    const bool verbose = args[0] == "recommend";
    if (verbose) args.emplace_back("--verbose");
    args.emplace_back("--wide");
    const auto table = run_cli(args);
    args.back() = "--format";
    args.emplace_back("html");
    const auto page = run_cli(args);
    REQUIRE(table.exit_code != 2);
    REQUIRE(page.exit_code == table.exit_code);
    const std::string text = visible_text(page.out);
    std::istringstream lines(table.out);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t first = line.find_first_not_of(' ');
      if (first == std::string::npos || line.find("  ", first) != std::string::npos) continue;  // a table row
      std::string prose = line.substr(first);
      if (prose.starts_with("Ranked by") || prose.starts_with("* on the") || prose.starts_with("Rules that shaped")) {
        continue;
      }
      if (prose.starts_with("next: ")) prose.erase(0, 6);
      if (prose.starts_with("[")) prose = prose.substr(1, prose.find(']') - 1) + prose.substr(prose.find(']') + 1);
      INFO(args[1] << " ...: " << prose);
      CHECK(text.find(prose) != std::string::npos);
      ++checked;
    }
  }
  CHECK(checked > 40);
  // The done-when of issue 32, by name: the age warning and the next: command.
  const auto stale =
      run_cli({"recommend", "--params", "7B", "--data", "200GB", "--today", "2027-09-01", "--format", "html"});
  CHECK(stale.out.find("<p class=\"warning\">warning: older than 12 months (--max-price-age)") != std::string::npos);
  CHECK(stale.out.find("<pre><code>mlsize estimate --params 7B --data 200GB --today 2027-09-01 --offering ") !=
        std::string::npos);
}
