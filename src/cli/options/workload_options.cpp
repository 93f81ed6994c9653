#include "cli/options/workload_options.hpp"

#include "cli/io/input_file.hpp"
#include "cli/io/tabular_file.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/diffusion_options.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/providers.hpp"
#include "cli/options/serving_options.hpp"
#include "cli/options/speech_options.hpp"
#include "cli/options/task_flags.hpp"

#include <mlsize/estimate/engine.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>
#include <mlsize/model/vision.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/units.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace mlsize::cli {
namespace {

// The value of an enum flag when given; otherwise `value` keeps the core's default.
template <NamedEnum E>
void parse_choice_if_given(const std::optional<std::string>& text, const std::string& flag, E& value) {
  if (text) value = parse_choice<E>(flag, *text);
}

// --engine: a preset, or a release of an engine whose presets split by version ("vllm-0.8.5"),
// which takes the preset that covers it.
Engine parse_engine(const std::string& text) {
  const std::string name = lower_case(text);
  if (const std::optional<Engine> engine = parse_name<Engine>(name)) return *engine;
  if (const std::optional<Engine> release = engine_of_release(name)) return *release;
  return parse_choice<Engine>("--engine", text);
}

}  // namespace

LoraTargetNames lora_target_names() {
  LoraTargetNames result;
  for (const EnumName<LoraTarget>& entry : name_table<LoraTarget>()) {
    (is_lora_group(entry.value) ? result.groups : result.layers).push_back(entry.name);
  }
  return result;
}
void flag_error(const std::string& flag, std::string message, std::string hint) {
  Error error(ErrorKind::usage, std::move(message), std::move(hint));
  error.at_flag(flag);
  throw error;
}

OutputFormat report_format(const WorkloadOptions& options) {
  return parse_format(options.format, options.formats);
}

double parse_fraction_flag(const std::string& text, const std::string& flag) {
  return parse_flag(flag, [&] {
    const double fraction = parse_positive_number(text, "a fraction above 0, at most 1");
    if (fraction > 1) throw Error(ErrorKind::usage, "\"" + text + "\" is above 1");
    return fraction;
  });
}

int parse_int_flag(const std::string& text, const std::string& flag, int minimum, int maximum) {
  const std::string accepted = "a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum);
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < minimum || value > maximum) {
    flag_error(flag, "\"" + text + "\" is not " + accepted);
  }
  return static_cast<int>(value);
}

namespace {

// Digits and at most a point, nothing else: the number a unit was left off.
bool is_bare_decimal(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  const std::size_t last = text.find_last_not_of(" \t");
  if (first == std::string_view::npos) return false;
  const std::string_view body = text.substr(first, last - first + 1);
  return std::all_of(body.begin(), body.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
}

}  // namespace

Bytes parse_size_flag(const std::string& text, const std::string& flag, const std::string& examples,
                      bool zero_allowed) {
  if (zero_allowed) {
    const Bytes size = parse_flag(flag, [&] { return parse_bytes_or_zero(text); });
    if (size.value == 0) return size;  // 0 needs no unit
  }
  if (is_bare_decimal(text)) {
    flag_error(flag, "\"" + text + "\" has no unit", "a size such as " + examples + " (" + text + "B for bytes)");
  }
  return parse_flag(flag, [&] { return parse_bytes(text); });
}

std::pair<int, int> parse_resolution_flag(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  const int height = parse_int_flag(text.substr(0, x), "--resolution", 16, 16384);
  return {height, x == std::string::npos ? height : parse_int_flag(text.substr(x + 1), "--resolution", 16, 16384)};
}

double parse_count_flag(const std::string& text, const std::string& flag, const std::string& noun,
                        const std::string& likely_unit) {
  const double count = parse_flag(flag, [&] { return parse_count(text); });
  if (count < k_min_bare_count && is_bare_decimal(text)) {
    const std::string number(text.substr(text.find_first_not_of(" \t")));
    const std::string trimmed = number.substr(0, number.find_last_not_of(" \t") + 1);
    // The exact form a person would write: 8.192k for 8192, 7e0 for 7.
    const std::string exact = count >= 1000 ? fmt::format("{:g}k or {}e0", count / 1000, trimmed) : trimmed + "e0";
    flag_error(flag, fmt::format("\"{}\" has no unit: it would be {} {}", text, trimmed, noun),
               fmt::format("did you mean {}{}? A count below 10^6 takes a unit (k, M, B, T) or an exponent: "
                           "{} for exactly {}",
                           trimmed, likely_unit, exact, trimmed));
  }
  return count;
}

namespace {

// The model from exactly one of --params, --model and --model-config.
// A vision model: its images stand for the tokens (one token each, sequence length 1); the
// per-device batch its family trains with by default (DeepLearningExamples' 256 for ResNet-50
// with AMP, DeiT's 128 per GPU, Ultralytics' 16 images for YOLO at 640).
void set_vision_model(const VisionModel& model, Workload& workload) {
  if (workload.task != Task::pretrain && workload.task != Task::finetune && workload.task != Task::inference) {
    flag_error("--task", "vision models are sized for pretrain, finetune and inference (a batch of images)",
               "drop --task, or give --task finetune or inference");
  }
  workload.vision = VisionWorkload{model};
  workload.vision->height = workload.vision->width = model.resolution;
  workload.model = Architecture{};
  workload.model.name = model.name;
  workload.model.family = "vision";
  workload.model.source = model.source;
  workload.parameters.total = workload.parameters.active = model.params;
  workload.sequence_length = 1;
  workload.attention = Attention::flash;
  workload.framework = Framework::hf;  // PyTorch DDP: fp32 weights under autocast
  // SGD with momentum for CNNs (DeepLearningExamples' ResNet-50, Ultralytics), AdamW for the
  // transformers (DeiT, timm's ViT recipes); --optimizer is read after and overrides it.
  const bool transformer =
      model.family == VisionFamily::vit || model.family == VisionFamily::swin || model.family == VisionFamily::convnext;
  workload.optimizer = transformer ? Optimizer::adamw : Optimizer::sgd_momentum;
  switch (model.family) {
    case VisionFamily::conv: workload.micro_batch = 256; break;
    case VisionFamily::detector: workload.micro_batch = 16; break;
    default: workload.micro_batch = 128; break;
  }
}

void resolve_model(const WorkloadOptions& options, Workload& workload) {
  const int given = options.params.has_value() + options.model.has_value() + options.model_config.has_value();
  if (given == 0 && workload.task == Task::gbdt) {
    workload.model.name = "gradient-boosted trees";  // no neural network to describe
    workload.model.family = to_string(Task::gbdt);
    return;
  }
  if (given != 1) {
    flag_error("--params", given == 0 ? "the model is missing" : "give only one of --params, --model, --model-config",
               "e.g. --params 7B, --model llama-2-7b or --model-config config.json");
  }
  if (options.params) {
    const double params = parse_count_flag(*options.params, "--params", "parameters", "B");
    workload.model = architecture_from_params(params);
    workload.parameters = parameter_count_from_params(params, workload.model);
    return;
  }
  if (options.model) {
    if (const VisionModel* vision = find_vision_model(*options.model)) {
      set_vision_model(*vision, workload);
      return;
    }
    if (const DiffusionModel* diffusion = find_diffusion_model(*options.model)) {
      set_diffusion_model(*diffusion, workload);
      return;
    }
    if (const SpeechModel* speech = find_speech_model(*options.model)) {
      set_speech_model(*speech, workload);
      return;
    }
    const std::optional<Architecture> preset = model_preset(*options.model);
    if (!preset) {
      const std::vector<std::string> names = built_in_model_names();
      std::string hint = did_you_mean(*options.model, names);
      if (hint.empty()) {
        for (const std::string& name : names) hint += (hint.empty() ? "built-in models: " : ", ") + name;
      }
      flag_error("--model", "unknown model \"" + *options.model + "\"", hint);
    }
    workload.model = *preset;
  } else {
    auto model =
        model_from_hf_config(read_input_file(*options.model_config, k_max_config_bytes), *options.model_config);
    if (const VisionModel* vision = std::get_if<VisionModel>(&model)) {
      set_vision_model(*vision, workload);
      return;
    }
    if (const DiffusionModel* diffusion = std::get_if<DiffusionModel>(&model)) {
      set_diffusion_model(*diffusion, workload);
      return;
    }
    if (const SpeechModel* speech = std::get_if<SpeechModel>(&model)) {
      set_speech_model(*speech, workload);
      return;
    }
    workload.model = std::get<Architecture>(std::move(model));
  }
  workload.parameters = count_parameters(workload.model);
}

// Gradient-boosted trees: rows and features; the data bytes from them when --data is not
// given (float32 values, docs/methodology.md#gbdt-run-time).
void resolve_gbdt_shape(const WorkloadOptions& options, Workload& workload) {
  if (options.data_file) {
    if (options.rows) flag_error("--rows", "--data-file gives the rows", "drop --rows or --data-file");
    if (options.data) flag_error("--data", "--data-file gives the data's size", "drop --data or --data-file");
    const TabularFile file = read_tabular_file(*options.data_file);
    if (file.rows < 1) {
      throw Error(ErrorKind::input, "has no data rows", "give a file with a header line and rows")
          .at(SourceLocation{*options.data_file, 0, 0, {}});
    }
    if (file.columns < 2 && !options.features) {
      throw Error(ErrorKind::input, "has " + std::to_string(file.columns) + " column: no features beside a label",
                  "give --features to count them yourself")
          .at(SourceLocation{*options.data_file, 0, 0, {}});
    }
    workload.rows = file.rows;
    workload.features = file.columns - 1;  // one column is the label
  }
  if (options.features) {
    workload.features = parse_flag("--features", [&] { return parse_count(*options.features); });
    if (workload.features < 1) flag_error("--features", "\"" + *options.features + "\" is below 1", "e.g. 28, 100");
  }
  if (options.rows) {
    workload.rows = parse_flag("--rows", [&] { return parse_count(*options.rows); });
    if (workload.rows < 1) flag_error("--rows", "\"" + *options.rows + "\" is below 1", "e.g. 10.5M, 2B");
  }
  if (options.rounds) workload.rounds = parse_int_flag(*options.rounds, "--rounds", 1, 1'000'000);
  if (options.max_depth) workload.max_depth = parse_int_flag(*options.max_depth, "--max-depth", 1, 64);
  parse_choice_if_given(options.library, "--library", workload.library);
  // scikit-learn bins into uint8 with one bin kept for missing values: max_bins ≤ 255.
  const int most_bins = workload.library == GbdtLibrary::sklearn ? 255 : 65536;
  if (options.bins) {
    workload.bins = parse_int_flag(*options.bins, "--bins", 2, most_bins);
  } else if (workload.library != GbdtLibrary::xgboost) {
    workload.bins = 255;  // LightGBM's max_bin and scikit-learn's max_bins default
  }
  if (options.tokens) {
    flag_error("--tokens", "gradient-boosted trees are sized in rows, not tokens", "give --data or --rows");
  }
  if (!options.data && workload.rows > 0) {
    workload.dataset_bytes = Bytes(workload.rows * workload.features * k_gbdt_bytes_per_value);
    workload.tokens = tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, workload.epochs);
  }
}

// --rows, --features, --rounds and --max-depth describe gradient-boosted trees only.
void check_gbdt_flags(const WorkloadOptions& options, const Workload& workload) {
  if (workload.task == Task::gbdt) return;
  const std::pair<const std::optional<std::string>&, const char*> flags[] = {
      {options.rows, "--rows"},           {options.features, "--features"}, {options.rounds, "--rounds"},
      {options.max_depth, "--max-depth"}, {options.bins, "--bins"},         {options.library, "--library"},
      {options.data_file, "--data-file"}};
  for (const auto& [value, flag] : flags) {
    if (value) flag_error(flag, std::string(flag) + " describes gradient-boosted trees", "add --task gbdt");
  }
}

Bytes parse_data(const std::string& text) {
  return parse_size_flag(text, "--data", "200GB or 1.5TiB");
}

// A vision job's images and how they are read (docs/cli.md#vision): --images, or --data at
// --bytes-per-image; the resolution; the loader. The tokens are images × epochs.
void resolve_vision(const WorkloadOptions& options, Workload& workload) {
  VisionWorkload& v = *workload.vision;
  if (options.tokens) flag_error("--tokens", "a vision model trains on images", "give --images (e.g. 1.28M) or --data");
  if (options.bytes_per_image) {
    v.bytes_per_image = parse_size_flag(*options.bytes_per_image, "--bytes-per-image", "110KB or 2MB").value;
  }
  if (options.images) {
    v.images = parse_count_flag(*options.images, "--images", "images", "M");
    if (options.data) workload.dataset_bytes = parse_data(*options.data);
  } else if (options.data) {
    workload.dataset_bytes = parse_data(*options.data);
    v.images = std::max(1.0, std::floor(workload.dataset_bytes->value / v.bytes_per_image));
  } else {
    flag_error("--images", "the number of images is missing", "give --images (e.g. 1.28M) or --data (e.g. 150GB)");
  }
  if (options.resolution) {
    const std::string& text = *options.resolution;
    std::tie(v.height, v.width) = parse_resolution_flag(text);
    if (v.model.family == VisionFamily::vit && (v.height % v.model.patch != 0 || v.width % v.model.patch != 0)) {
      flag_error("--resolution", fmt::format("{} does not divide into {}-pixel patches", text, v.model.patch),
                 fmt::format("a multiple of {}, e.g. {}", v.model.patch, v.model.patch * 24));
    }
  }
  parse_choice_if_given(options.data_loader, "--data-loader", v.loader);
  if (workload.task == Task::inference) {
    // Scoring a set of images once; a fleet at a rate of images is not sized yet.
    if (workload.serving) {
      flag_error("--rate", "serving images at a rate is not sized yet", "give --images N for a batch of N images");
    }
    if (options.epochs) flag_error("--epochs", "inference passes over the images once", "drop --epochs");
  }
  workload.tokens = v.images * (workload.task == Task::inference ? 1.0 : workload.epochs);
  // The stored images, for the rules' data-size tiers and the disk.
  if (!workload.dataset_bytes) workload.dataset_bytes = Bytes(v.images * v.bytes_per_image);
}

void check_vision_flags(const WorkloadOptions& options, const Workload& workload) {
  if (workload.images_are_tokens()) return;
  for (const auto& [given, flag] :
       {std::pair{options.images.has_value(), "--images"}, std::pair{options.resolution.has_value(), "--resolution"},
        std::pair{options.bytes_per_image.has_value(), "--bytes-per-image"},
        std::pair{options.data_loader.has_value(), "--data-loader"}}) {
    if (given) flag_error(flag, std::string(flag) + " is for vision models", "give --model resnet-50, vit-b-16, ...");
  }
}

// Training needs a dataset size; inference defaults to one full batch of contexts.
void resolve_tokens(const WorkloadOptions& options, Workload& workload, bool require_data) {
  check_vision_flags(options, workload);
  check_diffusion_flags(options, workload);
  check_speech_flags(options, workload);
  if (workload.speech) {
    resolve_speech(options, workload);
    return;
  }
  if (workload.diffusion) {
    resolve_diffusion(options, workload);
    return;
  }
  if (workload.vision) {
    resolve_vision(options, workload);
    return;
  }
  check_gbdt_flags(options, workload);
  if (workload.task == Task::gbdt) resolve_gbdt_shape(options, workload);
  if (workload.task == Task::gbdt && workload.dataset_bytes && !options.data) {
    return;  // from --rows × --features
  }
  if (options.tokens) {
    workload.tokens = parse_count_flag(*options.tokens, "--tokens", "tokens", "B") * workload.epochs;
    if (options.data) {
      // Both set the tokens: three would be one too many, and two say the dataset's size
      // apart from the tokens trained on (the line and the note say which is which).
      if (options.bytes_per_token) {
        flag_error("--bytes-per-token", "--data, --tokens and --bytes-per-token all set the tokens",
                   "give two of them: --data with --bytes-per-token, or --tokens (with --data for the dataset's size)");
      }
      workload.dataset_bytes = parse_data(*options.data);
    }
  } else if (options.data) {
    workload.dataset_bytes = parse_data(*options.data);
    workload.tokens = tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, workload.epochs);
  } else if (workload.task == Task::inference && workload.serving && workload.serving->saturated) {
    workload.tokens = k_saturation_tokens;
  } else if (workload.task == Task::inference) {
    workload.tokens = static_cast<double>(workload.context) * workload.batch;
  } else if (require_data) {
    flag_error("--data", "the dataset size is missing",
               workload.task == Task::gbdt ? "give --data (e.g. 20GB) or --rows (e.g. 50M)"
                                           : "give --data (e.g. 200GB) or --tokens (e.g. 50B)");
  }
}

}  // namespace

std::vector<std::string> input_files(const WorkloadOptions& options) {
  std::vector<std::string> files = options.catalog_files;
  files.insert(files.end(), options.calibration_files.begin(), options.calibration_files.end());
  if (options.model_config) files.push_back(*options.model_config);
  if (options.data_file) files.push_back(*options.data_file);
  return files;
}

std::vector<std::string> built_in_model_names() {
  std::vector<std::string> names = model_preset_names();
  for (const VisionModel& vision : vision_models()) names.push_back(vision.id);
  for (const DiffusionModel& diffusion : diffusion_models()) names.push_back(diffusion.id);
  for (const SpeechModel& speech : speech_models()) names.push_back(speech.id);
  return names;
}

Workload build_workload(const WorkloadOptions& options, bool require_data) {
  Workload workload;
  parse_choice_if_given(options.task, "--task", workload.task);
  parse_choice_if_given(options.profile, "--profile", workload.profile);
  resolve_model(options, workload);
  parse_choice_if_given(options.optimizer, "--optimizer", workload.optimizer);
  parse_choice_if_given(options.attention, "--attention", workload.attention);
  parse_choice_if_given(options.framework, "--framework", workload.framework);
  workload.framework_named = options.framework.has_value();
  parse_choice_if_given(options.quant, "--quant", workload.weight_format);
  if (workload.task == Task::inference) {
    resolve_inference_precision(options, workload);
  } else {
    parse_choice_if_given(options.precision, "--precision", workload.precision);
  }
  parse_choice_if_given(options.kv_cache_dtype, "--kv-cache-dtype", workload.kv_format);
  if (options.lora_targets) {
    if (auto targets = parse_lora_targets(*options.lora_targets)) {
      workload.lora_targets = *targets;
    } else {
      const LoraTargetNames names = lora_target_names();
      flag_error("--lora-targets", in_quotes(*options.lora_targets) + " is not a list of linear layers",
                 join_names(names.groups) + ", or names from " + join_names(names.layers) + " separated by commas");
    }
  }
  if (options.lora_rank) workload.lora_rank = parse_int_flag(*options.lora_rank, "--lora-rank", 1, 65536);
  if (options.context) workload.context = parse_int_flag(*options.context, "--context", 1, 100'000'000);
  if (options.batch) workload.batch = parse_int_flag(*options.batch, "--batch", 1, 1'000'000);
  if (options.overhead) {
    workload.overhead = parse_size_flag(*options.overhead, "--overhead", "2GB or 512MiB", true);
  }
  if (options.memory_margin) {
    workload.allocator_margin =
        parse_flag("--memory-margin", [&] { return parse_non_negative_number(*options.memory_margin, "a fraction"); });
  }
  if (options.memory_headroom) {
    workload.memory_headroom = parse_flag("--memory-headroom", [&] {
      const double fraction = parse_non_negative_number(*options.memory_headroom, "a fraction from 0 to below 1");
      if (fraction >= 1) throw Error(ErrorKind::usage, "\"" + *options.memory_headroom + "\" is not below 1");
      return fraction;
    });
  }
  if (options.epochs) {
    workload.epochs =
        parse_flag("--epochs", [&] { return parse_positive_number(*options.epochs, "a number of epochs"); });
  }
  if (options.bytes_per_token) {
    workload.bytes_per_token = parse_flag(
        "--bytes-per-token", [&] { return parse_positive_number(*options.bytes_per_token, "a number of bytes"); });
  }
  // The engine's defaults for the batch and the step's tokens apply to the load.
  // A speech model's engine is one of its own (resolve_speech).
  if (!workload.speech && options.engine) workload.engine = parse_engine(*options.engine);
  // An engine whose FP8 checkpoints carry an FP8 KV cache (TensorRT-LLM's) caches in FP8.
  if (workload.task == Task::inference && workload.weight_format == WeightFormat::fp8 && !options.kv_cache_dtype &&
      engine_profile(workload.engine).fp8_weights_cache_fp8) {
    workload.kv_format = KvFormat::fp8;
  }
  resolve_serving(options, workload);
  resolve_tokens(options, workload, require_data);
  check_context(options, workload);
  // A learned absolute position table (BERT 512, GPT-2 1024) bounds the sequence: the
  // default shrinks to it, and a longer --seq-len is an error, not a silent estimate.
  const int positions = workload.model.learned_positions;
  if (options.sequence_length) {
    workload.sequence_length = parse_int_flag(*options.sequence_length, "--seq-len", 1, 10'000'000);
    if (positions > 0 && workload.sequence_length > positions) {
      flag_error("--seq-len",
                 fmt::format("{} is longer than the {} positions {} has learned", workload.sequence_length, positions,
                             workload.model.name),
                 fmt::format("at most {}", positions));
    }
  } else if (positions > 0) {
    workload.sequence_length = std::min(workload.sequence_length, positions);
  }
  if (options.micro_batch) {
    workload.micro_batch = parse_int_flag(*options.micro_batch, "--micro-batch", 1, 1'000'000);
    workload.micro_batch_pinned = true;
  }
  if (options.global_batch) {
    workload.global_batch = parse_flag("--global-batch", [&] { return parse_count(*options.global_batch); });
  }
  if (options.mfu) {
    workload.mfu = parse_flag("--mfu", [&] { return parse_positive_number(*options.mfu, "a utilisation"); });
    workload.mfu_pinned = true;
    if (workload.mfu > 1.0) {
      flag_error("--mfu", "\"" + *options.mfu + "\" is above 1", "a fraction such as 0.4 (40% of peak)");
    }
  }
  if (options.bandwidth_efficiency) {
    workload.bandwidth_efficiency = parse_fraction_flag(*options.bandwidth_efficiency, "--bandwidth-efficiency");
  }
  if (options.step_overhead) {
    workload.step_overhead = parse_flag("--step-overhead", [&] {
      return *options.step_overhead == "0" ? Seconds(0) : parse_latency(*options.step_overhead);
    });
  }
  // --budget 0: only what costs nothing, the free tiers.
  if (options.budget) workload.budget = parse_flag("--budget", [&] { return parse_money_or_zero(*options.budget); });
  if (options.deadline) {
    workload.deadline = parse_flag("--deadline", [&] { return parse_duration(*options.deadline); });
  }
  // --rate max without a size: per million tokens at saturation, no start-up in it.
  if (workload.serving && workload.serving->saturated && !options.tokens && !options.data) {
    workload.setup_time = Seconds(0);
  }
  if (options.setup_time) {
    workload.setup_time = parse_flag(
        "--setup-time", [&] { return *options.setup_time == "0" ? Seconds(0) : parse_duration(*options.setup_time); });
  }
  return workload;
}

namespace {

// Discounts and surcharges; a larger factor is most likely a percentage typed as a factor.
constexpr double k_max_price_factor = 10.0;

void add_price_factor(const std::string& text, const Catalog& catalog, CostSettings& settings) {
  const std::string flag = "--price-factor";
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    flag_error(flag, "\"" + text + "\" is not PROVIDER=FACTOR", "e.g. --price-factor aws=0.8 for 20% off AWS prices");
  }
  const std::string provider = text.substr(0, equals);
  check_provider(flag, provider, catalog);
  if (!provider_has_cloud_prices(provider, catalog)) {
    flag_error(flag, "provider \"" + provider + "\" has no cloud prices to scale",
               "for on-premise hardware, overlay the offering with its purchase_price_usd (see --catalog)");
  }
  const double factor =
      parse_flag(flag, [&] { return parse_positive_number(text.substr(equals + 1), "a price factor"); });
  if (factor > k_max_price_factor) {
    flag_error(flag, "\"" + text.substr(equals + 1) + "\" is above 10", "a multiplier such as 0.8 for 20% off");
  }
  if (!settings.price_factors.emplace(provider, factor).second) {
    flag_error(flag, "provider \"" + provider + "\" is given more than once", "give one factor per provider");
  }
}

// --owned names an on-premise offering of the catalogue.
void add_owned(const std::string& id, const Catalog& catalog, CostSettings& settings) {
  const Offering* offering = catalog.find_offering(id);
  if (offering == nullptr || offering->kind != OfferingKind::on_prem) {
    std::vector<std::string> on_prem;
    for (const Offering& candidate : catalog.offerings()) {
      if (candidate.kind == OfferingKind::on_prem) on_prem.push_back(candidate.id);
    }
    const std::string hint = did_you_mean(id, on_prem);
    flag_error("--owned",
               offering == nullptr
                   ? "\"" + id + "\" is not an offering of the catalogue"
                   : "\"" + id + "\" is not on-premise hardware (it is " + std::string(to_string(offering->kind)) + ")",
               hint.empty()
                   ? "catalog list --provider on-prem lists the on-premise offerings; add your own with --catalog"
                   : hint);
  }
  settings.owned.insert(id);
}

}  // namespace

CostSettings build_cost_settings(const WorkloadOptions& options, const Catalog& catalog) {
  CostSettings settings;
  parse_choice_if_given(options.pricing, "--pricing", settings.pricing);
  for (const std::string& text : options.price_factors) add_price_factor(text, catalog, settings);
  for (const std::string& id : options.owned) add_owned(id, catalog, settings);
  if (options.amortization_years) {
    settings.amortization_years = parse_flag("--amortization-years", [&] {
      return parse_positive_number(*options.amortization_years, "a number of years");
    });
  }
  if (options.utilisation) {
    settings.utilisation =
        parse_flag("--utilisation", [&] { return parse_positive_number(*options.utilisation, "a utilisation"); });
    if (settings.utilisation > 1.0) {
      flag_error("--utilisation", "\"" + *options.utilisation + "\" is above 1",
                 "a fraction such as 0.5 (busy half of the time)");
    }
  }
  if (options.electricity_price) {
    settings.electricity_usd_per_kwh =
        parse_flag("--electricity-price", [&] { return parse_money(*options.electricity_price).value; });
  }
  return settings;
}

Catalog build_catalog(const WorkloadOptions& options, std::vector<std::string>* applied,
                      std::string_view only_offering) {
  return build_catalog(options.catalog_files, !options.no_user_catalog, applied, only_offering);
}

Catalog priced_catalog(const WorkloadOptions& options, Catalog catalog, const CostSettings& cost) {
  const std::string region = options.region.value_or("");
  if (!region.empty()) {
    std::set<std::string> regions;
    for (const Offering& offering : catalog.offerings()) {
      if (offering.kind != OfferingKind::cloud) continue;
      regions.insert(offering.price.region);
      for (const RegionalPrice& price : offering.other_regions) regions.insert(price.region);
    }
    regions.erase("");
    if (!regions.contains(region)) {
      const std::vector<std::string> known(regions.begin(), regions.end());
      std::string hint = did_you_mean(region, known);
      if (hint.empty()) hint = "mlsize catalog list --format json shows each offering's regions";
      flag_error("--region", "no cloud offering in the catalogue is priced in region \"" + region + "\"", hint);
    }
  }
  return choose_regions(std::move(catalog), region, cost.pricing);
}

std::string prices_today(const WorkloadOptions& options) {
  if (options.today) {
    if (!is_iso_date(*options.today)) {
      flag_error("--today", "\"" + *options.today + "\" is not a date", "a date written YYYY-MM-DD, e.g. 2026-12-01");
    }
    return *options.today;
  }
  if (const char* today = std::getenv("MLSIZE_TODAY"); today != nullptr && today[0] != '\0') {
    if (!is_iso_date(today)) {
      throw Error(ErrorKind::usage,
                  "the environment variable MLSIZE_TODAY is \"" + std::string(today) + "\", not a date",
                  "a date written YYYY-MM-DD, e.g. 2026-12-01, or unset it");
    }
    return today;
  }
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  return fmt::format("{:04}-{:02}-{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
}

int max_price_age_months(const WorkloadOptions& options) {
  if (!options.max_price_age) return 12;
  return parse_int_flag(*options.max_price_age, "--max-price-age", 0, 1200);
}

std::vector<Calibration> build_calibrations(const WorkloadOptions& options, const Catalog& catalog) {
  // An overlay is a dozen lines; this refuses a wrong file (a log, a model) before parsing it.
  constexpr std::size_t k_max_calibration_bytes = 64 * 1024;
  std::vector<Calibration> calibrations;
  for (const std::string& path : options.calibration_files) {
    Calibration calibration = parse_calibration(read_input_file(path, k_max_calibration_bytes), path);
    if (catalog.find_device(calibration.device_id) == nullptr) {
      Error error(
          ErrorKind::input,
          "the calibration is for device " + in_quotes(calibration.device_id) + ", which is not in the catalogue",
          "mlsize catalog list shows the device ids; a --catalog overlay may add it");
      error.at(SourceLocation{path, 0, 0, {}});
      throw error;
    }
    calibrations.push_back(std::move(calibration));
  }
  return calibrations;
}

}  // namespace mlsize::cli
