// Bad and hostile input through the whole command line: each gets a clear error naming
// the flag or file, a documented exit code, and nothing on stdout (docs/reliability.md).
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> k_base{"recommend", "--params", "7B", "--data", "200GB"};

std::vector<std::string> with(std::vector<std::string> args, const std::string& flag, const std::string& value) {
  // Replace the flag's value when it is already there, else append it.
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == flag) {
      args[i + 1] = value;
      return args;
    }
  }
  args.push_back(flag);
  args.push_back(value);
  return args;
}

fs::path write_temp(const char* name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("NaN, inf, negative, zero and huge values are refused in every numeric flag", "[hostile]") {
  const std::vector<std::string> flags{"--params", "--data",    "--tokens",   "--epochs",    "--bytes-per-token",
                                       "--mfu",    "--budget",  "--deadline", "--seq-len",   "--micro-batch",
                                       "--top",    "--context", "--batch",    "--lora-rank", "--max-devices"};
  const std::vector<std::string> values{"nan",   "NaN", "inf", "-inf", "-1",     "0",   "1e308",
                                        "1e400", "",    " ",   "0x10", "1e-400", "7B7", "\x1b[31m"};
  for (const std::string& flag : flags) {
    for (const std::string& value : values) {
      if (flag == "--budget" && value == "0")
        continue;  // a budget of nothing: the free tiers (test_ranking_principles)
      const auto result = run_cli(with(k_base, flag, value));
      INFO(flag << " " << value << " -> " << result.err);
      CHECK(result.exit_code == 2);
      CHECK(result.out.empty());
      CHECK(result.err.find(flag) != std::string::npos);
      CHECK(result.err.find('\x1b') == std::string::npos);  // control characters are escaped
    }
  }
}

TEST_CASE("7T parameters on 1e15 tokens neither wraps nor gives inf", "[hostile]") {
  const auto result = run_cli({"estimate", "--params", "7T", "--tokens", "1e15", "--device", "h100", "--count", "1024",
                               "--zero", "3", "--format", "json"});
  CHECK(result.exit_code == 3);  // does not fit, but the numbers are finite
  CHECK(result.out.find("\"total_flops\": 4.2e+28") != std::string::npos);
  CHECK(result.out.find("inf") == std::string::npos);
  CHECK(result.out.find("null") != std::string::npos);  // only the documented nulls (cost without a price)
}

TEST_CASE("a FIFO, a directory and an empty file given as a catalogue are clear input errors", "[hostile]") {
  const fs::path fifo = fs::temp_directory_path() / "mlsize-test-fifo";
  fs::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto result = run_cli(with(k_base, "--catalog", fifo.string()));
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "mlsize: error: " + fifo.string() + ": not a regular file\nhint: give the path of a YAML file\n");
  fs::remove(fifo);

  result = run_cli(with(k_base, "--catalog", fs::temp_directory_path().string()));
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("not a regular file") != std::string::npos);

  const fs::path empty = write_temp("mlsize-empty.yaml", "");
  result = run_cli(with(k_base, "--catalog", empty.string()));
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find("catalogue file is empty") != std::string::npos);
}

TEST_CASE("invalid UTF-8 and control characters in catalogue text are refused, and escaped in the message",
          "[hostile]") {
  const fs::path file =
      write_temp("mlsize-bad-utf8.yaml",
                 "devices:\n  - id: g\n    name: \"bad \xff\xfe name\"\n    kind: gpu\n    vendor: a\n"
                 "    memory_gb: 8\n    source: s\n    as_of: \"2026-01-01\"\n");
  const auto result = run_cli(with(k_base, "--catalog", file.string()));
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find("must be UTF-8 text without control characters") != std::string::npos);
  CHECK(result.err.find("\\xff\\xfe") != std::string::npos);
  CHECK(result.err.find('\xff') == std::string::npos);
}

TEST_CASE("bidirectional overrides and C1 controls in catalogue text are refused, and escaped", "[hostile]") {
  // U+202E RIGHT-TO-LEFT OVERRIDE would reorder the rest of a table row ("Trojan Source");
  // U+0085 NEXT LINE is a C1 control some terminals act on.
  for (const std::string& bad : {std::string("evil \xe2\x80\xae name"), std::string("evil \xc2\x85 name")}) {
    const fs::path file =
        write_temp("mlsize-bidi.yaml", "devices:\n  - id: g\n    name: \"" + bad +
                                           "\"\n    kind: gpu\n    vendor: a\n"
                                           "    memory_gb: 8\n    source: s\n    as_of: \"2026-01-01\"\n");
    const auto result = run_cli(with(k_base, "--catalog", file.string()));
    INFO(result.err);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err.find("without control characters") != std::string::npos);
    CHECK((result.err.find("\\u202e") != std::string::npos || result.err.find("\\u0085") != std::string::npos));
    CHECK(result.err.find("\xe2\x80\xae") == std::string::npos);
  }
}

TEST_CASE("a config.json with control characters in a name is refused", "[hostile]") {
  const fs::path file =
      write_temp("mlsize-ctrl.json",
                 "{\"_name_or_path\": \"evil\\u001b[2J\", \"model_type\": \"llama\", \"hidden_size\": 64,"
                 " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"intermediate_size\": 128,"
                 " \"vocab_size\": 100}");
  const auto result = run_cli({"estimate", "--model-config", file.string(), "--device", "h100"});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find("without control characters") != std::string::npos);
}

TEST_CASE("a YAML alias bomb in a catalogue is refused without expanding it", "[hostile]") {
  std::string bomb = "a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n";
  for (int level = 1; level < 12; ++level) {
    bomb +=
        std::string(1, static_cast<char>('a' + level)) + ": &" + std::string(1, static_cast<char>('a' + level)) + " [";
    for (int i = 0; i < 9; ++i)
      bomb += std::string(i ? "," : "") + "*" + std::string(1, static_cast<char>('a' + level - 1));
    bomb += "]\n";
  }
  bomb += "devices: *l\n";
  const fs::path file = write_temp("mlsize-bomb.yaml", bomb);
  const auto result = run_cli(with(k_base, "--catalog", file.string()));
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find(file.string() + ":1:1: unknown field \"a\" in the catalogue file") != std::string::npos);
}

// Issue 46: U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR are line breaks to PyYAML,
// which reads the SkyPilot tasks mlsize writes: a name or region holding one followed by
// `image_id:` or `file_mounts:` lines added keys to the task. Such text is refused where it
// enters, naming the file, the line and the code point.
TEST_CASE("line separators with injected keys are refused in overlays and imports", "[hostile]") {
  const std::vector<std::string> separators{"\xe2\x80\xa8", "\xe2\x80\xa9"};
  const std::vector<std::string> payloads{"  image_id: docker:attacker/evil", "file_mounts:"};
  for (const std::string& separator : separators) {
    for (const std::string& payload : payloads) {
      const std::string hostile = "us-east-1" + separator + payload;
      INFO(payload);
      for (const char* field : {"name", "region"}) {
        const std::string name = std::string(field) == "name" ? hostile : "8x GPU";
        const std::string region = std::string(field) == "region" ? hostile : "us-east-1";
        const fs::path file = write_temp(
            "mlsize-separator.yaml",
            "offerings:\n  - id: evil-8x\n    provider: aws\n    kind: cloud\n    name: \"" + name +
                "\"\n    device: h100-sxm\n    devices_per_unit: 8\n    price_per_hour_usd: 1\n    region: \"" +
                region + "\"\n    source: s\n    as_of: \"2026-01-01\"\n");
        for (const std::vector<std::string>& args : {with(k_base, "--catalog", file.string()),
                                                     std::vector<std::string>{"catalog", "validate", file.string()}}) {
          const auto result = run_cli(args);
          INFO(result.err);
          CHECK(result.exit_code == 1);
          CHECK(result.out.empty());
          CHECK(result.err.find("mlsize-separator.yaml:") != std::string::npos);
          CHECK(result.err.find(separator == "\xe2\x80\xa8" ? "U+2028" : "U+2029") != std::string::npos);
          CHECK(result.err.find(separator) == std::string::npos);  // escaped in the message
        }
      }
      // The same region from a SkyPilot price file.
      const fs::path csv =
          write_temp("mlsize-separator.csv",
                     "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,"
                     "AvailabilityZone\np4d.24xlarge,A100,8.0,96.0,1152.0,,39.32,,\"" +
                         hostile + "\",aps1-az1\n");
      const fs::path overlay = fs::temp_directory_path() / "mlsize-separator-overlay.yaml";
      fs::remove(overlay);
      const auto imported = run_cli({"catalog", "import", "--from", "skypilot", csv.string(), "--provider", "aws",
                                     "--as-of", "2026-01-01", "--no-user-catalog", "--output", overlay.string()});
      INFO(imported.err);
      CHECK(imported.exit_code == 1);
      CHECK(imported.out.empty());
      CHECK(imported.err.find("mlsize-separator.csv:2") != std::string::npos);
      CHECK(imported.err.find(separator == "\xe2\x80\xa8" ? "U+2028" : "U+2029") != std::string::npos);
      CHECK(!fs::exists(overlay));
    }
  }
}

TEST_CASE("a region with a non-ASCII letter or an outer space is not a region", "[hostile]") {
  for (const char* region : {"us-\xd0\xb5"
                             "ast-1" /* Cyrillic e */,
                             " us-east-1"}) {
    const fs::path file =
        write_temp("mlsize-region.yaml", std::string("offerings:\n  - id: r-8x\n    provider: aws\n"
                                                     "    kind: cloud\n    name: n\n    device: h100-sxm\n"
                                                     "    devices_per_unit: 8\n    price_per_hour_usd: 1\n"
                                                     "    region: \"") +
                                             region + "\"\n    source: s\n    as_of: \"2026-01-01\"\n");
    const auto result = run_cli({"catalog", "validate", file.string()});
    INFO(result.err);
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("mlsize-region.yaml:9:") != std::string::npos);
    CHECK(result.err.find("region as providers spell it") != std::string::npos);
  }
}

// Issue 46: outside text in reports is written for each format's reader: a spreadsheet
// formula in a CSV or TSV cell is neutralised (OWASP: a leading quote), Markdown keeps HTML
// as text, and a price of -0 is 0 (it ranked #1 as $-0.00).
TEST_CASE("CSV, TSV and Markdown reports escape what their readers would run", "[hostile]") {
  const fs::path file = write_temp("mlsize-formula.yaml",
                                   "offerings:\n  - id: evil-free\n    provider: aws\n    kind: cloud\n"
                                   "    name: \"=HYPERLINK(\\\"http://x\\\",\\\"a\\\") <script>alert(1)</script> | p\"\n"
                                   "    device: h100-sxm\n    devices_per_unit: 8\n    vcpus: 192\n"
                                   "    host_memory_gib: 2048\n    price_per_hour_usd: -0\n    region: us-east-1\n"
                                   "    source: s\n    as_of: \"2026-01-01\"\n");
  const auto args = with(with(k_base, "--catalog", file.string()), "--top", "1");
  const auto csv = run_cli(with(args, "--format", "csv"));
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.find(",\"'=HYPERLINK(\"\"http://x\"\"") != std::string::npos);
  CHECK(csv.out.find(",=HYPERLINK") == std::string::npos);
  const auto tsv = run_cli(with(args, "--format", "tsv"));
  CHECK(tsv.out.find("\t'=HYPERLINK") != std::string::npos);
  const auto markdown = run_cli(with(args, "--format", "markdown"));
  CHECK(markdown.out.find("<script>") == std::string::npos);
  CHECK(markdown.out.find("&lt;script&gt;") != std::string::npos);
  const auto table = run_cli(args);
  CHECK(table.out.find("$-0") == std::string::npos);
  CHECK(table.out.find("$0.00") != std::string::npos);
}

// Issue 46: an Azure price page's region went past the region check (its rows took another
// path), and a price of 1e300 was refused in the overlay, naming the unwritten output.
TEST_CASE("Azure price pages: a region with a separator and an impossible price are refused at the page",
          "[hostile]") {
  const std::string page = mlsize::testing::slurp(std::string(MLSIZE_TEST_DATA_DIR) + "/azure-retail/page-1.json");
  const std::string first_region = "\"armRegionName\": \"eastus\"";
  REQUIRE(page.find(first_region) != std::string::npos);
  const fs::path output = fs::temp_directory_path() / "mlsize-azure-out.yaml";
  fs::remove(output);

  std::string hostile = page;
  hostile.replace(hostile.find(first_region), first_region.size(),
                  "\"armRegionName\": \"eastus\\u2028  image_id: docker:attacker/evil\"");
  const fs::path separator = write_temp("mlsize-azure-separator.json", hostile);
  const auto refused = run_cli({"catalog", "import", "--from", "azure-retail", separator.string(), "--as-of",
                                "2026-01-01", "--output", output.string()});
  INFO(refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("mlsize-azure-separator.json") != std::string::npos);
  CHECK(refused.err.find("U+2028") != std::string::npos);
  CHECK(!fs::exists(output));

  std::string huge = page;
  const std::string first_price = "\"retailPrice\": 3.673";
  REQUIRE(huge.find(first_price) != std::string::npos);
  huge.replace(huge.find(first_price), first_price.size(), "\"retailPrice\": 1e300");
  const fs::path impossible = write_temp("mlsize-azure-huge.json", huge);
  const auto dropped = run_cli({"catalog", "import", "--from", "azure-retail", impossible.string(), "--as-of",
                                "2026-01-01", "--output", output.string()});
  INFO(dropped.err);
  CHECK(dropped.err.find("mlsize-azure-huge.json item 1: dropped") != std::string::npos);
  CHECK(dropped.err.find("mlsize-azure-out.yaml:") == std::string::npos);  // never the output's line
  // A hint of several lines keeps them, indented, not as \x0a.
  CHECK(dropped.err.find("\\x0a") == std::string::npos);
}

TEST_CASE("calibrate reads a measured file that starts with a UTF-8 byte-order mark", "[hostile]") {
  const std::string json =
      mlsize::testing::slurp(std::string(MLSIZE_TEST_DATA_DIR) + "/calibration/h200-llama-2-7b-lora.json");
  const fs::path file = write_temp("mlsize-bom.json", "\xEF\xBB\xBF" + json);
  const auto result = run_cli({"calibrate", "--model", "llama-2-7b", "--task", "lora", "--micro-batch", "4",
                               "--recompute", "full", "--framework", "hf", "--device", "h200", "--measured",
                               file.string()});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("mlsize calibration overlay") != std::string::npos);
}
