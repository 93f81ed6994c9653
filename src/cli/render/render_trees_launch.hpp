#pragma once
// Gradient-boosted trees as a job (--emit dask, spark, skypilot with --task gbdt): the
// cluster, its workers' sizing and the library's settings (docs/launch.md#dask).

#include "cli/render/render_launch.hpp"

#include <string>

namespace mlsize::cli {

// "64 workers: 8 machines × 8 GPUs, one worker per GPU; XGBoost device="cuda" ...".
std::string trees_layout_line(const LaunchSpec& s);

// A Python job for xgboost.dask or lightgbm.dask, with the commands that start its cluster.
LaunchText dask_job(const LaunchSpec& s, const std::string& title);

// A spark-submit command for xgboost.spark, its executors sized from the plan.
LaunchText spark_script(const LaunchSpec& s, const std::string& title);

// What a SkyPilot task installs and runs on each node for the trees: the Dask cluster and,
// on the first node, the job (--emit dask writes it); scikit-learn: the script on one node.
std::string trees_skypilot_setup(const LaunchSpec& s);
std::string trees_skypilot_run(const LaunchSpec& s);
std::string trees_skypilot_notes(const LaunchSpec& s);

}  // namespace mlsize::cli
