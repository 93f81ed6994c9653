#include "cli/app.hpp"

#include "cli/commands.hpp"
#include "cli/error_message.hpp"

#include <mlsize/error.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <iostream>
#include <new>

namespace mlsize::cli {
namespace {

void write(std::FILE* stream, const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stream);
  std::fflush(stream);
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"mlsize: what hardware a machine-learning workload needs, how long it takes, what it costs"};
  app.name("mlsize");
  app.set_version_flag("--version", std::string("mlsize ") + MLSIZE_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  RecommendOptions recommend_options;
  EstimateOptions estimate_options;
  CLI::App* recommend = add_recommend_command(app, recommend_options);
  CLI::App* estimate = add_estimate_command(app, estimate_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help, std::cout, std::cerr);  // help goes to stdout, exit 0
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help, std::cout, std::cerr);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version, std::cout, std::cerr);
  } catch (const CLI::ParseError& failure) {
    // CLI11's own codes (100+) are mapped to our one usage code.
    write(stderr, std::string("mlsize: error: ") + failure.what() + "\nhint: run 'mlsize --help' or 'mlsize " +
                      (app.get_subcommands().empty() ? std::string("recommend") : app.get_subcommands().front()->get_name()) +
                      " --help'\n");
    return k_exit_usage;
  }

  try {
    CommandOutput output;
    if (recommend->parsed()) output = run_recommend(recommend_options);
    if (estimate->parsed()) output = run_estimate(estimate_options);
    write(stdout, output.stdout_text);  // the whole report at once: nothing partial on failure
    if (!output.stderr_text.empty()) write(stderr, output.stderr_text);
    return output.exit_code;
  } catch (const Error& error) {
    write(stderr, format_error(error));
    return error.kind() == ErrorKind::usage ? k_exit_usage : k_exit_error;
  } catch (const std::bad_alloc&) {
    write(stderr, "mlsize: error: out of memory\n");
    return k_exit_error;
  } catch (const std::exception& failure) {
    write(stderr, std::string("mlsize: error: internal error: ") + failure.what() + "\n");
    return k_exit_error;
  }
}

}  // namespace mlsize::cli
