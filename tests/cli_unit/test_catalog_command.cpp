#include "cli/options/providers.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/render_catalog.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

using namespace mlsize;
using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
using mlsize::testing::slurp;
namespace fs = std::filesystem;

namespace {

// Every field but the location, which names the file an entry was read from.
void check_same_device(const Device& a, const Device& b) {
  INFO("device " << a.id);
  CHECK(a.id == b.id);
  CHECK(a.aliases == b.aliases);
  CHECK(a.name == b.name);
  CHECK(a.kind == b.kind);
  CHECK(a.vendor == b.vendor);
  CHECK(a.memory == b.memory);
  CHECK(a.memory_bandwidth_bytes_per_s == b.memory_bandwidth_bytes_per_s);
  CHECK(a.peak_flops_per_s == b.peak_flops_per_s);
  CHECK(a.interconnect.has_value() == b.interconnect.has_value());
  if (a.interconnect && b.interconnect) {
    CHECK(a.interconnect->kind == b.interconnect->kind);
    CHECK(a.interconnect->bandwidth_bytes_per_s == b.interconnect->bandwidth_bytes_per_s);
  }
  CHECK(a.tdp_w == b.tdp_w);
  CHECK(a.launch_price == b.launch_price);
  CHECK(a.source == b.source);
  CHECK(a.as_of == b.as_of);
}

void check_same_offering(const Offering& a, const Offering& b) {
  INFO("offering " << a.id);
  CHECK(a.id == b.id);
  CHECK(a.provider == b.provider);
  CHECK(a.kind == b.kind);
  CHECK(a.name == b.name);
  CHECK(a.device_id == b.device_id);
  CHECK(a.devices_per_unit == b.devices_per_unit);
  CHECK(a.vcpus == b.vcpus);
  CHECK(a.host_memory == b.host_memory);
  CHECK(a.price.on_demand == b.price.on_demand);
  CHECK(a.price.spot == b.price.spot);
  CHECK(a.price.region == b.price.region);
  CHECK(a.price == b.price);
  CHECK(a.other_regions == b.other_regions);
  CHECK(a.max_units == b.max_units);
  CHECK(a.purchase_price == b.purchase_price);
  CHECK(a.power_w == b.power_w);
  CHECK(a.limits.session_hours == b.limits.session_hours);
  CHECK(a.limits.weekly_hours == b.limits.weekly_hours);
  CHECK(a.limits.note == b.limits.note);
  CHECK(a.source == b.source);
  CHECK(a.as_of == b.as_of);
}

// Sets an environment variable for one scope and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (m_old) {
      ::setenv(m_name, m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

void touch(const fs::path& path) {
  std::ofstream(path) << "devices: []\n";
}

}  // namespace

TEST_CASE("catalog export --format yaml loads back into the same entries", "[catalog][export]") {
  const Catalog original = load_default_catalog();
  const std::string yaml = cli::render_catalog_yaml(cli::select_all(original), "round trip");
  Catalog loaded;
  load_catalog_yaml(loaded, yaml, "export.yaml");
  REQUIRE_NOTHROW(loaded.check_references());
  REQUIRE(loaded.devices().size() == original.devices().size());
  REQUIRE(loaded.offerings().size() == original.offerings().size());
  for (std::size_t i = 0; i < original.devices().size(); ++i) {
    check_same_device(original.devices()[i], loaded.devices()[i]);
  }
  for (std::size_t i = 0; i < original.offerings().size(); ++i) {
    check_same_offering(original.offerings()[i], loaded.offerings()[i]);
  }
  // And the export of the reloaded catalogue is the same text.
  CHECK(cli::render_catalog_yaml(cli::select_all(loaded), "round trip") == yaml);
}

TEST_CASE("catalog export round-trips the fields the default catalogue does not use", "[catalog][export]") {
  Catalog original;
  load_catalog_yaml(original, R"(devices:
  - id: odd-gpu
    aliases: [odd]
    name: "Odd \"quoted\" GPU: yes, no"
    kind: npu
    vendor: "1e3"
    memory_gb: 0.1
    memory_bandwidth_gbs: 1.5e3
    peak_tflops: {fp32: 0.3, tf32: 1e-3, fp16: 123.456789, bf16: 7, fp8: 9.99, int8: 1000000}
    interconnect: {kind: pcie, bandwidth_gbs: 31.5}
    tdp_w: 70
    launch_price_usd: 1999.99
    source: "a\tb — ünïcode"
    as_of: "2024-02-29"
offerings:
  - id: odd-offer
    provider: "no"
    kind: free-tier
    name: "#not a comment"
    device: odd
    devices_per_unit: 3
    vcpus: 7
    host_memory_gib: 12.5
    price_per_hour_usd: 0
    spot_price_per_hour_usd: 0.001
    region: "eu-west-1"
    max_units: 2
    purchase_price_usd: 10
    power_w: 0.5
    limits: {session_hours: 1.5, weekly_hours: 30, note: "- starts like a list"}
    source: "s"
    as_of: "2025-01-01"
)",
                    "odd.yaml");
  Catalog loaded;
  load_catalog_yaml(loaded, cli::render_catalog_yaml(cli::select_all(original)), "export.yaml");
  REQUIRE(loaded.devices().size() == 1);
  REQUIRE(loaded.offerings().size() == 1);
  check_same_device(original.devices()[0], loaded.devices()[0]);
  check_same_offering(original.offerings()[0], loaded.offerings()[0]);
}

TEST_CASE("catalog list --format json holds every device and offering with its provenance", "[catalog][list]") {
  const auto result = run_cli({"catalog", "list", "--format", "json", "--no-user-catalog"});
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["schema_version"] == 1);
  CHECK(json["devices"].size() == 85);
  CHECK(json["offerings"].size() == 514);
  for (const auto& entry : json["devices"]) {
    CHECK_FALSE(entry["source"].get<std::string>().empty());
    CHECK(entry["as_of"].get<std::string>().size() == 10);
  }
  for (const auto& entry : json["offerings"]) {
    CHECK_FALSE(entry["source"].get<std::string>().empty());
    CHECK(entry["as_of"].get<std::string>().size() == 10);
  }
}

TEST_CASE("filter_providers keeps every device and only the wanted providers' offerings", "[providers]") {
  const Catalog catalog = load_default_catalog();
  const Catalog only = cli::filter_providers(catalog, {"aws", "gcp"}, false, {});
  CHECK(only.devices().size() == catalog.devices().size());
  REQUIRE_FALSE(only.offerings().empty());
  for (const Offering& offering : only.offerings()) CHECK((offering.provider == "aws" || offering.provider == "gcp"));

  const Catalog without = cli::filter_providers(catalog, {}, false, {"aws"});
  for (const Offering& offering : without.offerings()) CHECK(offering.provider != "aws");
  std::size_t aws = 0;
  for (const Offering& offering : catalog.offerings()) aws += offering.provider == "aws" ? 1u : 0u;
  CHECK(without.offerings().size() == catalog.offerings().size() - aws);
  // Aliases still find their devices in the filtered catalogue.
  CHECK(without.find_device("a100-80gb") != nullptr);
}

TEST_CASE("recommend --no-marketplace leaves out a marketplace's offerings, and shown, one is named as such",
          "[providers]") {
  // Vast's real v9 rows, imported into an overlay (the embedded catalogue leaves Vast out).
  const fs::path dir = fresh_directory("mlsize-marketplace-test");
  const std::string overlay = (dir / "vast.yaml").string();
  REQUIRE(run_cli({"catalog", "import", "--from", "skypilot",
                   std::string(MLSIZE_TEST_DATA_DIR) + "/skypilot-v9/vast/vms.csv", "--as-of", "2026-07-09", "--output",
                   overlay, "--no-user-catalog"})
              .exit_code == 0);
  const std::vector<std::string> job{"recommend", "--params",          "7B",    "--data", "200GB", "--catalog",
                                     overlay,     "--no-user-catalog", "--top", "3"};
  const auto with = run_cli(job);
  REQUIRE(with.exit_code == 0);
  CHECK(with.out.find(" vast ") != std::string::npos);
  CHECK(with.out.find("note: vast is a marketplace: each offer is one host's listing") != std::string::npos);
  std::vector<std::string> without_args = job;
  without_args.push_back("--no-marketplace");
  const auto without = run_cli(without_args);
  REQUIRE(without.exit_code == 0);
  CHECK(without.out.find(" vast ") == std::string::npos);
  CHECK(without.out.find("is a marketplace") == std::string::npos);
  CHECK(without.out.find("--no-marketplace") == std::string::npos);  // not in the estimate command shown
  // The catalogue marks the provider, not its offerings one by one.
  const Catalog catalog = load_default_catalog();
  REQUIRE(catalog.find_provider("vast") != nullptr);
  CHECK_FALSE(catalog.find_provider("vast")->marketplace.empty());
  CHECK(catalog.find_provider("aws")->marketplace.empty());
}

TEST_CASE("filter_providers refuses unknown providers with the nearest one", "[providers]") {
  const Catalog catalog = load_default_catalog();
  try {
    cli::filter_providers(catalog, {}, false, {"lamda"});
    FAIL("an unknown provider was accepted");
  } catch (const Error& error) {
    CHECK(error.kind() == ErrorKind::usage);
    CHECK(error.where() == "--exclude-provider");
    CHECK(error.message() == "unknown provider \"lamda\"");
    CHECK(error.hint() == "did you mean \"lambda\"?");
  }
  CHECK_THROWS_AS(cli::filter_providers(catalog, {"aws"}, false, {"aws"}), Error);
}

TEST_CASE("price factor: --price-factor scales the hourly price of an offering in estimate", "[price_factor]") {
  auto price = [](std::vector<std::string> extra) {
    std::vector<std::string> args{"estimate",   "--params",          "1B",       "--tokens", "1B",
                                  "--offering", "aws-p4de.24xlarge", "--format", "json",     "--no-user-catalog"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = run_cli(args);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.out)["cost"]["usd_per_unit_hour"].get<double>();
  };
  const double list = price({});
  CHECK(price({"--price-factor", "aws=0.8"}) == Approx(list * 0.8));
  CHECK(price({"--price-factor", "gcp=0.5"}) == list);
  CHECK(price({"--price-factor", "aws=0.5", "--pricing", "spot"}) == Approx(price({"--pricing", "spot"}) * 0.5));
}

TEST_CASE("price factor: --price-factor refuses malformed values and repeated providers", "[price_factor]") {
  auto error_of = [](const std::string& value, const std::string& second = {}) {
    std::vector<std::string> args{"recommend",         "--params",       "7B", "--data", "1GB",
                                  "--no-user-catalog", "--price-factor", value};
    if (!second.empty()) args.insert(args.end(), {"--price-factor", second});
    const auto result = run_cli(args);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    return result.err;
  };
  CHECK(error_of("aws=0") ==
        "mlsize: error: --price-factor: \"0\" is not a price factor\nhint: examples: 0.4, 4, 1.5\n");
  CHECK(error_of("=0.8").find("is not PROVIDER=FACTOR") != std::string::npos);
  CHECK(error_of("aws=").find("is not PROVIDER=FACTOR") != std::string::npos);
  CHECK(error_of("aws=11").find("is above 10") != std::string::npos);
  CHECK(error_of("aws=0.8", "aws=0.9").find("given more than once") != std::string::npos);
  CHECK(error_of("on-prem=0.5").find("has no cloud prices") != std::string::npos);
}

TEST_CASE("user_catalog_files: catalog.d sorted by name, then MLSIZE_CATALOG in order", "[overlays]") {
  const fs::path config = fresh_directory("mlsize-overlay-test");
  const fs::path dir = config / "mlsize" / "catalog.d";
  fs::create_directories(dir);
  touch(dir / "20-b.yaml");
  touch(dir / "10-a.yaml");
  touch(dir / "15-prices.mlcat");  // a compiled catalogue
  touch(dir / "notes.txt");
  touch(dir / ".hidden.yaml");
  touch(dir / ".hidden.mlcat");
  fs::create_directories(dir / "sub.yaml");  // a directory is not a file
  const ScopedEnv xdg("XDG_CONFIG_HOME", config.string());
  const ScopedEnv list("MLSIZE_CATALOG", std::string("/x/one.yaml::/x/two.yaml:"));
  CHECK(cli::user_catalog_files() == std::vector<std::string>{(dir / "10-a.yaml").string(),
                                                              (dir / "15-prices.mlcat").string(),
                                                              (dir / "20-b.yaml").string(), "/x/one.yaml",
                                                              "/x/two.yaml"});
}

TEST_CASE("user_catalog_files falls back to ~/.config and accepts a missing directory", "[overlays]") {
  const fs::path home = fresh_directory("mlsize-overlay-home");
  const fs::path dir = home / ".config" / "mlsize" / "catalog.d";
  const ScopedEnv list("MLSIZE_CATALOG", std::nullopt);
  const ScopedEnv home_env("HOME", home.string());
  {
    // A relative XDG_CONFIG_HOME is invalid (XDG base directory spec) and ignored.
    const ScopedEnv xdg("XDG_CONFIG_HOME", std::string("relative/config"));
    CHECK(cli::user_catalog_files().empty());
    fs::create_directories(dir);
    touch(dir / "mine.yaml");
    CHECK(cli::user_catalog_files() == std::vector<std::string>{(dir / "mine.yaml").string()});
  }
  const ScopedEnv no_xdg("XDG_CONFIG_HOME", std::nullopt);
  CHECK(cli::user_catalog_files() == std::vector<std::string>{(dir / "mine.yaml").string()});
}

TEST_CASE("overlays: --no-user-catalog skips a broken user overlay, whose error names its origin", "[overlays]") {
  const ScopedEnv list("MLSIZE_CATALOG", std::string("/nonexistent/mlsize-overlay.yaml"));
  const std::vector<std::string> base{"catalog", "list", "--kind", "tpu"};
  const auto failed = run_cli(base);
  CHECK(failed.exit_code == 1);
  CHECK(failed.out.empty());
  CHECK(failed.err ==
        "mlsize: error: /nonexistent/mlsize-overlay.yaml: cannot open: No such file or directory\n"
        "hint: named by the environment variable MLSIZE_CATALOG; --no-user-catalog skips it\n");
  std::vector<std::string> skipped = base;
  skipped.push_back("--no-user-catalog");
  CHECK(run_cli(skipped).exit_code == 0);
}

TEST_CASE("overlays: all files of a run together stop at k_max_overlay_bytes, before any is parsed",
          "[overlays][security]") {
  // Issue 31, must-have 7: yaml-cpp loads about 3,000 offerings a second, so a
  // limit stated up front, not minutes of parsing. The first file is malformed past its
  // padding: the refusal comes before the parser ever sees it.
  const fs::path dir = fresh_directory("mlsize-overlay-total");
  const std::string padding((k_max_overlay_bytes * 3) / 5, '#');
  {
    std::ofstream(dir / "a.yaml") << padding << "\nofferings: [unclosed\n";
    std::ofstream(dir / "b.yaml") << padding << "\nofferings: []\n";
  }
  const std::string a = (dir / "a.yaml").string();
  const std::string b = (dir / "b.yaml").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"catalog", "validate", a, b},
        std::vector<std::string>{"recommend", "--params", "7B", "--data", "200GB", "--catalog", a, "--catalog", b,
                                 "--no-user-catalog"}}) {
    const auto result = run_cli(args);
    INFO(result.err);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err.rfind("mlsize: error: " + b + ": the catalogue overlays come to 3.6 MiB with this file, over the 3 MiB one run reads; nothing was loaded\n", 0) == 0);
  }
  // One of them alone is read and parsed: its error is its own.
  const auto alone = run_cli({"catalog", "validate", a});
  CHECK(alone.exit_code == 1);
  CHECK(alone.err.find(a + ":") != std::string::npos);
  CHECK(alone.err.find("come to") == std::string::npos);
  // A user overlay says where it came from and how to skip it.
  const ScopedEnv list("MLSIZE_CATALOG", a + ":" + b);
  const auto user = run_cli({"catalog", "list", "--kind", "tpu"});
  CHECK(user.exit_code == 1);
  CHECK(user.err.find("this one is named by the environment variable MLSIZE_CATALOG (--no-user-catalog skips it)") !=
        std::string::npos);
}

TEST_CASE("estimate with --offload on an offering that states no host RAM or vCPUs is refused, not assumed to fit",
          "[providers]") {
  // The TPU v2 slices state no host RAM (docs/catalogue.md#host_memory_gib).
  const auto none = run_cli({"estimate", "--params", "7B", "--tokens", "1B", "--offering", "gcp-tpu-v2-8", "--offload",
                             "optimizer", "--zero", "2", "--no-user-catalog"});
  CHECK(none.exit_code == 2);
  CHECK(none.out.empty());
  CHECK(none.err.find("--offload: offering \"gcp-tpu-v2-8\" states no host RAM") != std::string::npos);
  // Nor are a host's vCPUs, which step the offloaded optimizer: Colab states none.
  const auto untimed = run_cli({"estimate", "--params", "1B", "--tokens", "1B", "--offering", "google-colab-pro-t4",
                                "--offload", "optimizer", "--zero", "2", "--no-user-catalog"});
  CHECK(untimed.exit_code == 2);
  CHECK(untimed.out.empty());
  CHECK(untimed.err.find("--offload: offering \"google-colab-pro-t4\" states no vCPUs") != std::string::npos);
  // With both stated, the offloaded states are checked against the RAM less the headroom:
  // 1B × 18 bytes (with accumulation) on g4dn.xlarge's 16 GiB.
  const auto stated = run_cli({"estimate", "--params", "1B", "--tokens", "1B", "--offering", "aws-g4dn.xlarge",
                               "--offload", "optimizer", "--zero", "2", "--no-user-catalog", "--wide"});
  CHECK(stated.exit_code == 3);  // estimated, and it does not fit: the host is too small
  CHECK(stated.out.find("Host RAM: 18.0 GB per unit for the offloaded states, of 15.5 GB usable (17.2 GB, 10% kept "
                        "free): DOES NOT FIT.") != std::string::npos);
}
