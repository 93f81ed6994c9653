#include "cli/app.hpp"

int main(int argc, char** argv) {
  return mlsize::cli::run(argc, argv);
}
