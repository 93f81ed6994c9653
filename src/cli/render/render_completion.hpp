#pragma once
// `mlsize completion bash|zsh|fish`: shell completion scripts written from a description
// of the command line (commands/command_completion.cpp reads it off the CLI11 definition).

#include <string>
#include <vector>

namespace mlsize::cli {

// What a flag's value (or a command's positional argument) completes to.
struct CompletionValue {
  bool takes_value = false;           // false: a flag without a value
  std::vector<std::string> choices;   // the fixed names it accepts (--optimize cost|time|...)
  std::vector<std::string> id_kinds;  // ids listed by `mlsize completion --ids KIND` at TAB
  bool file = false;                  // a path
  bool list = false;                  // comma-separated (--device h100,a100-80gb)
};

struct CompletionFlag {
  std::vector<std::string> names;  // "--params", "-h"
  std::string description;
  CompletionValue value;
};

struct CompletionCommand {
  std::string path;  // the words after mlsize: "" for mlsize itself, "catalog list"
  std::string description;
  std::vector<std::string> subcommands;  // names, in the order of --help
  std::vector<std::string> subcommand_descriptions;
  std::vector<CompletionFlag> flags;
  CompletionValue positional;  // takes_value false when it takes no word
};

// Every command, parents before their subcommands; the first is mlsize itself.
using CompletionTree = std::vector<CompletionCommand>;

std::string render_bash_completion(const CompletionTree& tree);
std::string render_zsh_completion(const CompletionTree& tree);
std::string render_fish_completion(const CompletionTree& tree);

}  // namespace mlsize::cli
