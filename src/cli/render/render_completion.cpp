#include "cli/render/render_completion.hpp"

#include <utility>

namespace mlsize::cli {
namespace {

// `text` as one single-quoted word for sh, zsh and fish ('it'\''s').
std::string single_quoted(std::string_view text) {
  std::string result = "'";
  for (char c : text) result += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return result + "'";
}

std::string joined(const std::vector<std::string>& words, std::string_view separator = " ") {
  std::string text;
  for (const std::string& word : words) {
    if (!text.empty()) text += separator;
    text += word;
  }
  return text;
}

// Each command's flags that take a value, as one space-separated string.
std::vector<std::string> value_flag_names(const CompletionCommand& command) {
  std::vector<std::string> names;
  for (const CompletionFlag& flag : command.flags) {
    if (flag.value.takes_value) names.insert(names.end(), flag.names.begin(), flag.names.end());
  }
  return names;
}

std::vector<std::string> flag_names(const CompletionCommand& command) {
  std::vector<std::string> names;
  for (const CompletionFlag& flag : command.flags) names.insert(names.end(), flag.names.begin(), flag.names.end());
  return names;
}

// A shell function `NAME CMD` that prints a word list for each command: a `case` with one
// branch per command that has one.
template <class Words>
std::string case_function(std::string_view shell, const std::string& name, const CompletionTree& tree, Words words) {
  const bool fish = shell == "fish";
  std::string text = fish ? "function " + name + "\n  switch $argv[1]\n" : name + "() {\n  case $1 in\n";
  for (const CompletionCommand& command : tree) {
    const std::vector<std::string> list = words(command);
    if (list.empty()) continue;
    if (fish) {
      text += "    case " + single_quoted(command.path) + "\n      printf '%s\\n' " + joined(list) + "\n";
    } else {
      text += "    " + single_quoted(command.path) + ") echo " + single_quoted(joined(list)) + " ;;\n";
    }
  }
  return text + (fish ? "  end\nend\n\n" : "  esac\n}\n\n");
}

// The (command, flag) pairs that complete alike, with the action that completes them, in
// the order they first appear; a positional argument is the flag "@arg".
struct ValueCase {
  std::string action;
  std::vector<std::pair<std::string, std::string>> keys;  // command path, flag
};

template <class Action>
std::vector<ValueCase> value_cases(const CompletionTree& tree, Action action) {
  std::vector<ValueCase> cases;
  const auto add = [&](const std::string& path, const std::string& flag, const CompletionValue& value) {
    const std::string text = action(value);
    if (!value.takes_value || text.empty()) return;
    for (ValueCase& existing : cases) {
      if (existing.action != text) continue;
      existing.keys.emplace_back(path, flag);
      return;
    }
    cases.push_back({text, {{path, flag}}});
  };
  for (const CompletionCommand& command : tree) {
    for (const CompletionFlag& flag : command.flags) {
      for (const std::string& name : flag.names) add(command.path, name, flag.value);
    }
    add(command.path, "@arg", command.positional);
  }
  return cases;
}

std::string value_function(const std::string& name, const std::vector<ValueCase>& cases) {
  std::string text = name + "() {\n  case \"$1 $2\" in\n";
  for (const ValueCase& value_case : cases) {
    std::vector<std::string> patterns;
    for (const auto& [path, flag] : value_case.keys) patterns.push_back(single_quoted(path + " " + flag));
    text += "    " + joined(patterns, " | ") + ")\n      " + value_case.action + " ;;\n";
  }
  return text + "  esac\n}\n\n";
}

std::string subcommand_names_function(std::string_view shell, const std::string& name, const CompletionTree& tree) {
  return case_function(shell, name, tree, [](const CompletionCommand& command) { return command.subcommands; });
}

std::string value_flags_function(std::string_view shell, const std::string& name, const CompletionTree& tree) {
  return case_function(shell, name, tree, value_flag_names);
}

std::string ids_words(const std::vector<std::string>& kinds) {
  return "$(_mlsize_ids " + joined(kinds) + ")";
}

// The words before the cursor name the command: each subcommand name moves down one level;
// a flag that takes a value skips that value (given apart, not as --flag=value).
constexpr std::string_view k_bash_walk = R"(  local cmd= i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      if [[ " $(_mlsize_value_flags "$cmd") " == *" $word "* ]]; then
        ((i++))
        [[ ${COMP_WORDS[i]-} == = ]] && ((i++))
      fi
    elif [[ " $(_mlsize_subcommands "$cmd") " == *" $word "* ]]; then
      cmd=${cmd:+$cmd }$word
    fi
  done
)";

// zsh: a function that offers, with their descriptions, the words `entries` gives each command.
template <class Entries>
std::string zsh_describe_function(const std::string& name, std::string_view tag, const CompletionTree& tree,
                                  Entries entries) {
  std::string text = name + "() {\n  local -a specs\n  case $1 in\n";
  for (const CompletionCommand& command : tree) {
    const std::vector<std::pair<std::string, std::string>> list = entries(command);
    if (list.empty()) continue;
    text += "    " + single_quoted(command.path) + ") specs=(\n";
    for (const auto& [word, description] : list) text += "      " + single_quoted(word + ":" + description) + "\n";
    text += "    ) ;;\n";
  }
  return text + "    *) return 1 ;;\n  esac\n  _describe -t " + std::string(tag) + " " + std::string(tag) +
         " specs\n}\n\n";
}

std::vector<std::pair<std::string, std::string>> described_flags(const CompletionCommand& command) {
  std::vector<std::pair<std::string, std::string>> list;
  for (const CompletionFlag& flag : command.flags) {
    for (const std::string& name : flag.names) list.emplace_back(name, flag.description);
  }
  return list;
}

std::vector<std::pair<std::string, std::string>> described_subcommands(const CompletionCommand& command) {
  std::vector<std::pair<std::string, std::string>> list;
  for (std::size_t i = 0; i < command.subcommands.size(); ++i) {
    list.emplace_back(command.subcommands[i], command.subcommand_descriptions[i]);
  }
  return list;
}

constexpr std::string_view k_zsh_main = R"(_mlsize() {
  local _mlsize_bin=${words[1]} cmd= i word
  for ((i = 2; i < CURRENT; i++)); do
    word=${words[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* && " $(_mlsize_value_flags "$cmd") " == *" $word "* ]] && ((i++))
    elif [[ " $(_mlsize_subcommands "$cmd") " == *" $word "* ]]; then
      cmd=${cmd:+$cmd }$word
    fi
  done
  local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
  if [[ $cur == -*=* ]]; then
    prev=${cur%%=*}
    compset -P '*='
    _mlsize_values "$cmd" "$prev"
  elif [[ $prev == -* && " $(_mlsize_value_flags "$cmd") " == *" $prev "* ]]; then
    _mlsize_values "$cmd" "$prev"
  elif [[ $cur == -* ]]; then
    _mlsize_describe_flags "$cmd"
  elif [[ -n $(_mlsize_subcommands "$cmd") ]]; then
    _mlsize_describe_subcommands "$cmd"
  else
    _mlsize_values "$cmd" @arg || _mlsize_describe_flags "$cmd"
  fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _mlsize "$@"
else
  compdef _mlsize mlsize
fi
)";

constexpr std::string_view k_fish_functions =
    R"(# The command the words before the cursor name; a flag that takes a value skips it.
function __mlsize_command
  set -l cmd ''
  set -l skip 0
  for word in (commandline -opc)[2..-1]
    if test $skip = 1
      set skip 0
    else if string match -q -- '-*' $word
      if not string match -q -- '*=*' $word; and contains -- $word (__mlsize_value_flags $cmd)
        set skip 1
      end
    else if contains -- $word (__mlsize_subcommands $cmd)
      set cmd (string trim -- "$cmd $word")
    end
  end
  echo $cmd
end

function __mlsize_is
  set -l cmd (__mlsize_command)
  test "$cmd" = "$argv[1]"
end

# The ids of each kind given (offerings, devices, models, providers), from the mlsize
# being completed, with the user's catalogue overlays.
function __mlsize_ids
  set -l bin (commandline -opc)[1]
  for kind in $argv
    $bin completion --ids $kind 2>/dev/null
  end
end

# The words given, each after the current token's text up to its last comma: the next
# item of a comma-separated list (--gpus h100:8,a1).
function __mlsize_list
  set -l prefix (string replace -r '[^,]*$' '' -- (commandline -ct))
  for word in $argv
    echo "$prefix$word"
  end
end

complete -c mlsize -f
)";

// fish: the arguments of `complete` that give a value's completions.
std::string fish_value(const CompletionValue& value) {
  if (!value.takes_value) return {};
  if (value.file) return " -r -F";
  // A list completes its last item, after what the token holds up to its last comma.
  if (value.list && !value.id_kinds.empty())
    return " -x -a " + single_quoted("(__mlsize_list (__mlsize_ids " + joined(value.id_kinds) + "))");
  if (value.list && !value.choices.empty())
    return " -x -a " + single_quoted("(__mlsize_list " + joined(value.choices) + ")");
  if (!value.id_kinds.empty()) return " -x -a " + single_quoted("(__mlsize_ids " + joined(value.id_kinds) + ")");
  if (!value.choices.empty()) return " -x -a " + single_quoted(joined(value.choices));
  return " -x";
}

}  // namespace

std::string render_bash_completion(const CompletionTree& tree) {
  std::string text =
      "# bash completion for mlsize, written by `mlsize completion bash` from its command line.\n"
      "# Load it with: source <(mlsize completion bash)\n\n";
  text += subcommand_names_function("bash", "_mlsize_subcommands", tree);
  text += case_function("bash", "_mlsize_flags", tree, flag_names);
  text += value_flags_function("bash", "_mlsize_value_flags", tree);
  text +=
      "# The ids of each kind given (offerings, devices, models, providers), from the mlsize\n"
      "# being completed, with the user's catalogue overlays.\n"
      "_mlsize_ids() {\n"
      "  local kind\n"
      "  for kind in \"$@\"; do \"$_mlsize_bin\" completion --ids \"$kind\" 2>/dev/null; done\n"
      "}\n\n"
      "# COMPREPLY: the words of $1 that start with the current word; in a comma-separated\n"
      "# list ($2 = list), with its last item.\n"
      "_mlsize_reply() {\n"
      "  local cur=$_mlsize_cur prefix=\n"
      "  if [[ ${2-} == list && $cur == *,* ]]; then prefix=${cur%,*},; cur=${cur##*,}; fi\n"
      "  COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n"
      "  if [[ -n $prefix ]]; then COMPREPLY=(\"${COMPREPLY[@]/#/$prefix}\"); fi\n"
      "}\n\n"
      "# The values of flag $2 of command $1 (@arg: the command's argument).\n";
  text += value_function("_mlsize_values", value_cases(tree, [](const CompletionValue& value) -> std::string {
                           const std::string list = value.list ? " list" : "";
                           if (value.file)
                             return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$_mlsize_cur\"))";
                           if (!value.id_kinds.empty())
                             return "_mlsize_reply \"" + ids_words(value.id_kinds) + "\"" + list;
                           if (!value.choices.empty())
                             return "_mlsize_reply " + single_quoted(joined(value.choices)) + list;
                           return {};
                         }));
  text += "_mlsize() {\n";
  text += "  local _mlsize_bin=${COMP_WORDS[0]} _mlsize_cur=${COMP_WORDS[COMP_CWORD]}\n";
  text += "  local prev=${COMP_WORDS[COMP_CWORD-1]}\n";
  text += k_bash_walk;
  text +=
      "  # --flag=value: bash splits it at =.\n"
      "  local split=\n"
      "  if [[ $_mlsize_cur == = ]]; then\n"
      "    _mlsize_cur= split=1\n"
      "  elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then\n"
      "    prev=${COMP_WORDS[COMP_CWORD-2]} split=1\n"
      "  fi\n"
      "  COMPREPLY=()\n"
      "  # A list's next item after a count (--gpus h100:8,a1): bash splits the word at each :,\n"
      "  # so the flag is before the value's first part; the item after the last comma completes.\n"
      "  if [[ $prev == : && $_mlsize_cur == *,* ]]; then\n"
      "    i=$COMP_CWORD\n"
      "    while ((i >= 3)) && [[ ${COMP_WORDS[i-1]} == : ]]; do ((i -= 2)); done\n"
      "    prev=${COMP_WORDS[i-1]}\n"
      "    if [[ $prev == -* && \" $(_mlsize_value_flags \"$cmd\") \" == *\" $prev \"* ]]; then\n"
      "      _mlsize_values \"$cmd\" \"$prev\"\n"
      "    fi\n"
      "    return 0\n"
      "  fi\n"
      "  # Within a value (h100:8 after --gpus, aws=0.8 after --price-factor): nothing to offer.\n"
      "  if [[ $_mlsize_cur == : || $prev == : || ( -n $split && $prev != -* ) ]]; then return 0; fi\n"
      "  if [[ $prev == -* && \" $(_mlsize_value_flags \"$cmd\") \" == *\" $prev \"* ]]; then\n"
      "    _mlsize_values \"$cmd\" \"$prev\"\n"
      "  elif [[ $_mlsize_cur == -* ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$(_mlsize_flags \"$cmd\")\" -- \"$_mlsize_cur\"))\n"
      "  elif [[ -n $(_mlsize_subcommands \"$cmd\") ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$(_mlsize_subcommands \"$cmd\")\" -- \"$_mlsize_cur\"))\n"
      "  else\n"
      "    _mlsize_values \"$cmd\" @arg\n"
      "    # A command without an argument to complete: its flags.\n"
      "    if [[ ${#COMPREPLY[@]} -eq 0 && -z $_mlsize_cur ]]; then\n"
      "      COMPREPLY=($(compgen -W \"$(_mlsize_flags \"$cmd\")\" -- \"\"))\n"
      "    fi\n"
      "  fi\n"
      "  return 0\n"
      "}\n\n"
      "complete -F _mlsize mlsize\n";
  return text;
}

std::string render_zsh_completion(const CompletionTree& tree) {
  std::string text =
      "#compdef mlsize\n"
      "# zsh completion for mlsize, written by `mlsize completion zsh` from its command line.\n"
      "# Install it as _mlsize in a directory of $fpath, or load it with: source <(mlsize completion zsh)\n\n";
  text += subcommand_names_function("zsh", "_mlsize_subcommands", tree);
  text += value_flags_function("zsh", "_mlsize_value_flags", tree);
  text += zsh_describe_function("_mlsize_describe_subcommands", "commands", tree, described_subcommands);
  text += zsh_describe_function("_mlsize_describe_flags", "flags", tree, described_flags);
  text +=
      "_mlsize_ids() {\n"
      "  local kind\n"
      "  for kind in \"$@\"; do \"$_mlsize_bin\" completion --ids \"$kind\" 2>/dev/null; done\n"
      "}\n\n";
  std::vector<ValueCase> cases = value_cases(tree, [](const CompletionValue& value) -> std::string {
    const std::string list = value.list ? "compset -P '*,'; " : "";
    if (value.file) return "_files";
    if (!value.id_kinds.empty()) return list + "compadd -- ${(f)\"" + ids_words(value.id_kinds) + "\"}";
    if (!value.choices.empty()) return list + "compadd -- " + joined(value.choices);
    return {};
  });
  std::string values = value_function("_mlsize_values", cases);
  values.insert(values.rfind("  esac"), "    *) return 1 ;;\n");
  text += values;
  text += k_zsh_main;
  return text;
}

std::string render_fish_completion(const CompletionTree& tree) {
  std::string text =
      "# fish completion for mlsize, written by `mlsize completion fish` from its command line.\n"
      "# Install it as ~/.config/fish/completions/mlsize.fish, or load it with: mlsize completion fish | source\n\n";
  text += subcommand_names_function("fish", "__mlsize_subcommands", tree);
  text += value_flags_function("fish", "__mlsize_value_flags", tree);
  text += k_fish_functions;
  for (const CompletionCommand& command : tree) {
    const std::string condition = " -n " + single_quoted("__mlsize_is \"" + command.path + "\"");
    for (std::size_t i = 0; i < command.subcommands.size(); ++i) {
      text += "complete -c mlsize" + condition + " -a " + single_quoted(command.subcommands[i]) + " -d " +
              single_quoted(command.subcommand_descriptions[i]) + "\n";
    }
    for (const CompletionFlag& flag : command.flags) {
      std::string names;
      for (const std::string& name : flag.names) {
        names += name.starts_with("--") ? " -l " + name.substr(2) : " -s " + name.substr(1);
      }
      text += "complete -c mlsize" + condition + names + fish_value(flag.value) + " -d " +
              single_quoted(flag.description) + "\n";
    }
    if (command.positional.takes_value) {
      std::string value = fish_value(command.positional);
      if (value.starts_with(" -x")) value.erase(0, 3);  // an argument: the values, no flag
      if (value.starts_with(" -r")) value.erase(0, 3);
      if (!value.empty()) text += "complete -c mlsize" + condition + value + "\n";
    }
  }
  return text;
}

}  // namespace mlsize::cli
