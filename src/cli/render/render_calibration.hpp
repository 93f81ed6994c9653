#pragma once
// What `mlsize calibrate` prints: the measured run against the estimate, term by term, and
// the overlay it writes (docs/cli.md#calibrate).

#include <mlsize/estimate/calibration.hpp>
#include <mlsize/model/workload.hpp>

#include <cstddef>
#include <string>

namespace mlsize::cli {

// The comparison: each measured peak and the estimate it is compared with, the step time
// and efficiency, what the overlay sets against the defaults, and what it could not set;
// within `width` columns.
std::string render_calibration_table(const CalibrationComparison& comparison, const Workload& workload, int devices,
                                     std::size_t width);

// The overlay as YAML, which parse_calibration reads back; the comparison heads it as comments.
std::string render_calibration_overlay(const CalibrationComparison& comparison, const std::string& table);

}  // namespace mlsize::cli
