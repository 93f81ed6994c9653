#pragma once
// The flags shared by recommend and estimate, and turning them into core values.

#include <mlsize/catalog.hpp>
#include <mlsize/cost.hpp>
#include <mlsize/workload.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

// Raw flag text, parsed after CLI11 so that errors name the flag and the accepted forms.
struct WorkloadOptions {
  std::string params;
  std::string model;
  std::string model_config;
  std::string data;
  std::string tokens;
  std::string epochs;
  std::string bytes_per_token;
  std::string task = "pretrain";
  std::string precision = "bf16-mixed";
  std::string optimizer = "adamw";
  std::string sequence_length;
  std::string micro_batch;
  std::string mfu;
  std::string attention = "flash";
  std::string lora_rank;
  std::string lora_targets = "all-linear";
  std::string quant = "bf16";
  std::string kv_cache_dtype = "bf16";
  std::string context;
  std::string batch;
  std::string overhead;
  std::string memory_margin;
  std::string budget;
  std::string deadline;
  std::string pricing = "on-demand";
  std::vector<std::string> catalog_files;
  std::string format = "table";
  std::string output_path;
};

void add_workload_options(CLI::App& command, WorkloadOptions& options);

// `require_data`: training needs --data or --tokens (recommend ranks by time and cost);
// estimate can show memory alone.
Workload build_workload(const WorkloadOptions& options, bool require_data = true);
CostSettings build_cost_settings(const WorkloadOptions& options);

// The embedded catalogue with each --catalog file laid over it in order.
Catalog build_catalog(const WorkloadOptions& options);

// Throws a usage Error naming `flag`.
[[noreturn]] void flag_error(const std::string& flag, std::string message, std::string hint = {});

// Throws unless --format is one the commands render.
void check_format(const WorkloadOptions& options);

// A whole number within [minimum, maximum] given to `flag`.
int parse_int_flag(const std::string& text, const std::string& flag, int minimum, int maximum);

}  // namespace mlsize::cli
