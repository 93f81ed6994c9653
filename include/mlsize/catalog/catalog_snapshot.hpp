#pragma once
// A loaded catalogue as compact bytes: the build loads the embedded YAML once, with all
// of its validation, and compiles the bytes in, so that start-up parses no YAML
// (docs/performance.md). The bytes are read on the machine that wrote them (native byte
// order and double layout), which a build-time product always is.

#include <mlsize/catalog/catalog.hpp>

#include <string>
#include <string_view>

namespace mlsize {

// Every device, offering and provider of `catalog`, in order.
std::string write_catalog_snapshot(const Catalog& catalog);

// The catalogue write_catalog_snapshot wrote; throws Error (input) when `bytes` is not
// one (a build out of step with its sources). `only_offering`, when not empty, builds that
// offering alone of them, with its device and every provider: a command that reads one
// offering (estimate --offering) builds no heap copy of the other 500 offerings and 84
// devices (issue 49); the others are counted in Catalog::unread.
Catalog read_catalog_snapshot(std::string_view bytes, std::string_view only_offering = {});

}  // namespace mlsize
