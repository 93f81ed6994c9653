// What a command keeps (cli/support/kept.hpp) lives until the command ends and is freed
// then, in a process that runs many commands (these tests); a process that ends after its
// command (main) frees none of it, which the sanitizer build's leak checker accepts
// because it stays reachable (scripts/test-sanitizers.sh runs the binary).

#include "cli/support/kept.hpp"
#include "run_capture.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace {

// Appends its name to `log` when destroyed (a moved-from one logs nothing).
struct Logged {
  std::vector<std::string>* log = nullptr;
  std::string name;
  Logged(std::vector<std::string>* l, std::string n) : log(l), name(std::move(n)) {}
  Logged(Logged&& other) noexcept : log(std::exchange(other.log, nullptr)), name(std::move(other.name)) {}
  Logged(const Logged&) = delete;
  Logged& operator=(const Logged&) = delete;
  Logged& operator=(Logged&&) = delete;
  ~Logged() {
    if (log != nullptr) log->push_back(name);
  }
};

}  // namespace

TEST_CASE("what a command keeps lives until the command ends, then is freed last first") {
  std::vector<std::string> log;
  Logged& first = mlsize::cli::kept(Logged(&log, "first"));
  Logged& second = mlsize::cli::kept(Logged(&log, "second"));
  CHECK(log.empty());
  CHECK(first.name == "first");  // alive, where it was kept
  CHECK(second.name == "second");
  mlsize::cli::end_command();
  CHECK(log == std::vector<std::string>{"second", "first"});
  mlsize::cli::end_command();  // nothing left: nothing freed twice
  CHECK(log.size() == 2);
}

TEST_CASE("a command run in this process frees what it kept when it ends") {
  std::vector<std::string> log;
  // Kept before the command: run() ends its command by freeing everything kept on this thread.
  mlsize::cli::kept(Logged(&log, "before"));
  // `catalog show` keeps the catalogue it reads.
  const mlsize::testing::RunResult run = mlsize::testing::run_cli({"catalog", "show", "h100-sxm", "--no-user-catalog"});
  REQUIRE(run.exit_code == 0);
  CHECK(log == std::vector<std::string>{"before"});
}
