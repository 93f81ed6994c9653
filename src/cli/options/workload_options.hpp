#pragma once
// The flags shared by recommend and estimate, and turning them into core values.

#include "cli/options/catalog_options.hpp"
#include "cli/options/output_format.hpp"
#include "cli/options/team_defaults.hpp"

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/calibration.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/error.hpp>

#include <CLI/CLI.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mlsize::cli {

// Raw flag text, parsed after CLI11 so that errors name the flag and the accepted forms.
// Optional flags are std::optional: a flag given with an empty value is an error, not absent.
// A flag not given leaves the core's default (Workload{}, CostSettings{}), which help shows.
struct WorkloadOptions {
  std::optional<std::string> params;
  std::optional<std::string> model;
  std::optional<std::string> model_config;
  std::optional<std::string> data;
  std::optional<std::string> tokens;
  std::optional<std::string> epochs;
  std::optional<std::string> bytes_per_token;
  std::optional<std::string> task;
  std::optional<std::string> precision;
  std::optional<std::string> optimizer;
  std::optional<std::string> sequence_length;
  std::optional<std::string> micro_batch;
  std::optional<std::string> mfu;
  std::optional<std::string> bandwidth_efficiency;
  std::optional<std::string> engine;  // inference
  std::optional<std::string> step_overhead;
  std::optional<std::string> setup_time;
  std::optional<std::string> global_batch;
  std::optional<std::string> attention;
  std::optional<std::string> framework;
  std::optional<std::string> lora_rank;
  std::optional<std::string> lora_targets;
  std::optional<std::string> quant;
  std::optional<std::string> kv_cache_dtype;
  std::optional<std::string> context;
  std::optional<std::string> batch;
  std::optional<std::string> rate;  // serving a load (--task inference)
  std::optional<std::string> tokens_per_day;
  std::optional<std::string> prompt_tokens;
  std::optional<std::string> output_tokens;
  std::optional<std::string> ttft;
  std::optional<std::string> tpot;
  std::optional<std::string> max_batch;
  std::optional<std::string> max_step_tokens;
  std::optional<std::string> replica_utilisation;
  std::optional<std::string> redundancy;
  std::optional<std::string> percentile;
  std::optional<std::string> batching;
  std::optional<std::string> images;           // vision: images per epoch
  std::optional<std::string> resolution;       // vision: 224 or HxW
  std::optional<std::string> bytes_per_image;  // vision: --data in images
  std::optional<std::string> data_loader;      // vision: pil or dali
  std::optional<std::string> steps;            // diffusion generation: denoising steps
  std::optional<std::string> guidance;         // diffusion generation: the guidance scale (1: none)
  bool cache_latents = false;                  // diffusion training: precomputed latents and text embeddings
  bool vae_slicing = false;                    // diffusion generation: decode one image at a time
  bool model_cpu_offload = false;              // diffusion generation: text encoders off the GPU at the peak
  std::optional<std::string> audio_hours;      // speech: hours to transcribe, or to fine-tune on per epoch
  std::optional<std::string> clip_seconds;     // speech fine-tuning: seconds per training clip
  std::optional<std::string> beam;             // speech: beam width (1: greedy)
  std::optional<std::string> rows;             // --task gbdt
  std::optional<std::string> features;
  std::optional<std::string> rounds;
  std::optional<std::string> max_depth;
  std::optional<std::string> bins;
  std::optional<std::string> library;
  std::optional<std::string> data_file;  // CSV or Parquet: rows and features (io/tabular_file.hpp)
  std::optional<std::string> overhead;
  std::optional<std::string> memory_margin;
  std::optional<std::string> memory_headroom;
  std::optional<std::string> budget;
  std::optional<std::string> deadline;
  std::optional<std::string> pricing;
  std::optional<std::string> region;         // --region: price cloud offerings there only
  std::optional<std::string> max_price_age;  // --max-price-age MONTHS
  std::optional<std::string> today;          // --today YYYY-MM-DD (MLSIZE_TODAY): the prices' age is to it
  std::optional<std::string> profile;
  std::optional<std::string> amortization_years;
  std::optional<std::string> utilisation;
  std::optional<std::string> electricity_price;
  std::vector<std::string> catalog_files;
  std::vector<std::string> calibration_files;  // --calibration: overlays of mlsize calibrate
  bool no_user_catalog = false;                // skip catalog.d and MLSIZE_CATALOG
  std::vector<std::string> price_factors;      // PROVIDER=FACTOR
  std::vector<std::string> owned;              // --owned: on-premise offering ids the user has
  std::optional<std::string> format;
  // What --format offers on this command: set before add_workload_options (recommend and
  // estimate add html).
  std::span<const OutputFormat> formats = k_report_formats;
  std::optional<std::string> output_path;
  bool force_output = false;             // --force: --output may replace a read-only file
  bool no_defaults = false;              // --no-defaults: no config file, no MLSIZE_* variables
  std::vector<AppliedDefault> defaults;  // what the config file and MLSIZE_* set (app.cpp)
};

// The files a run reads (--catalog, --calibration, --model-config, --data-file), which its
// --output must not replace.
std::vector<std::string> input_files(const WorkloadOptions& options);

// Declared in workload_flags.cpp.
void add_workload_options(CLI::App& command, WorkloadOptions& options);

// The --lora-targets names, groups and single layers apart (for help and for errors).
struct LoraTargetNames {
  std::vector<std::string_view> groups;
  std::vector<std::string_view> layers;
};
LoraTargetNames lora_target_names();

// The names --model accepts: the language-model presets, then the vision and diffusion models (completion,
// "did you mean").
std::vector<std::string> built_in_model_names();

// `require_data`: training needs --data or --tokens (recommend ranks by time and cost);
// estimate can show memory alone.
Workload build_workload(const WorkloadOptions& options, bool require_data = true);
// Needs the catalogue to check the providers named by --price-factor.
CostSettings build_cost_settings(const WorkloadOptions& options, const Catalog& catalog);

// The catalogue from the embedded one, the user's overlays and --catalog (catalog_options.hpp).
// `applied`, when given, gets the overlay files laid over the embedded one, in order.
Catalog build_catalog(const WorkloadOptions& options, std::vector<std::string>* applied = nullptr,
                      std::string_view only_offering = {});

// `catalog` with each cloud offering priced in one region: --region's (a usage error when
// no offering is priced there), else its cheapest under the pricing (choose_regions).
Catalog priced_catalog(const WorkloadOptions& options, Catalog catalog, const CostSettings& cost);

// The date the age of the prices is measured to: --today (or MLSIZE_TODAY) as YYYY-MM-DD,
// else the clock's date in UTC.
std::string prices_today(const WorkloadOptions& options);
// --max-price-age: months after which the table warns that prices are old; 0 never warns.
int max_price_age_months(const WorkloadOptions& options);

// The --calibration overlays, each for a device of `catalog` (docs/cli.md#calibrate).
std::vector<Calibration> build_calibrations(const WorkloadOptions& options, const Catalog& catalog);

// Throws a usage Error naming `flag`.
[[noreturn]] void flag_error(const std::string& flag, std::string message, std::string hint = {});

// The --format of recommend, estimate and explain; throws unless it is one of `formats`.
OutputFormat report_format(const WorkloadOptions& options);

// Calls `parse`, adding the flag name to any error it throws.
template <class Parse>
auto parse_flag(const std::string& flag, Parse parse) {
  try {
    return parse();
  } catch (Error& error) {
    error.at_flag(flag);
    throw;
  }
}

// A whole number within [minimum, maximum] given to `flag`.
int parse_int_flag(const std::string& text, const std::string& flag, int minimum, int maximum);

// A bare count below this is almost surely a unit left out (--params 7 meant as 7B): the
// count flags refuse it (docs/cli.md#quantities).
inline constexpr double k_min_bare_count = 1e6;

// --params, --tokens, --tokens-per-day: a count (parse_count), refused when written as a bare
// number below k_min_bare_count; the hint names `likely_unit` ("B": "did you mean 7B?").
double parse_count_flag(const std::string& text, const std::string& flag, const std::string& noun,
                        const std::string& likely_unit);

// --data, --overhead, --min-memory: a size with its unit; a bare number would be bytes, and
// "--data 200" meant as 200 GB gives a run of seconds and $0. The byte unit is B. Where
// `zero_allowed`, 0 needs no unit (--overhead 0).
Bytes parse_size_flag(const std::string& text, const std::string& flag, const std::string& examples,
                      bool zero_allowed = false);
// --resolution: "1024" (square) or "HxW" in pixels, each from 16 to 16384.
std::pair<int, int> parse_resolution_flag(const std::string& text);

// A fraction above 0 and at most 1 given to `flag`.
double parse_fraction_flag(const std::string& text, const std::string& flag);

}  // namespace mlsize::cli
