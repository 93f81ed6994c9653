#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char* argv[]) {
  // Text is laid out at the default width, whatever the developer's shell exports
  // (docs/cli.md#width).
  ::unsetenv("COLUMNS");
  return Catch::Session().run(argc, argv);
}
