#pragma once
// Lines under the recommendation tables: what the ranking decided beside the objective.

#include <mlsize/rank/report.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

// #1's offering's smallest and fastest plans, a tie between #1 and #2, host-shape variants,
// plans beyond the on-demand limit, Arm hosts and spot interruptions, for the `top` shown.
// `full`: every note in full, a line per row (--verbose, HTML); else one line per kind of note,
// naming its rows (issue 51: the table and the answer on one screen).
std::string ranking_notes(const Report& report, int top, bool full);

// The reservations the plan's provider names (OnDemandLimit::channels) that hold its machines
// and devices for its run (a service: its size alone), by name; none when it names none.
std::optional<std::vector<std::string>> reservations_covering(const RankedPlan& plan, bool service);

// A serving fleet's spares, and what spot means for a service.
std::string serving_notes(const Report& report);

// "Rejected 378 offerings: 18 purchase (e.g. on-prem-dgx-a100-320gb); ...", or empty.
// Compact: the counts by reason; `full`: an example offering of each reason.
std::string rejected_summary(const Report& report, bool full);

}  // namespace mlsize::cli
