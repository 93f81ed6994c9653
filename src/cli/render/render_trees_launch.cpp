#include "cli/render/render_trees_launch.hpp"

#include "cli/render/shell_command.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace mlsize::cli {

namespace {

// The Dask scheduler's port (distributed's default, `dask scheduler --port`).
constexpr int k_scheduler_port = 8786;
// Dask spills a worker's data to disk above this share of its memory limit
// (distributed.worker.memory.target: 0.60, docs.dask.org "Worker Memory Management").
constexpr double k_dask_spill_share = 0.6;
// Spark: the JVM heap of an executor holds the ETL (reading Parquet, repartitioning); XGBoost
// trains in the executor's Python worker, whose memory is spark.executor.pyspark.memory. The
// heap gets a quarter of the executor's RAM, at least 4 GB, and Spark adds 10% of it as
// overhead (spark.executor.memoryOverhead: executorMemory × 0.10, spark.apache.org
// "Configuration").
constexpr double k_spark_heap_share = 0.25;
constexpr double k_spark_least_heap_gb = 4;
constexpr double k_spark_overhead_share = 0.10;

bool on_gpu(const LaunchSpec& s) {
  return s.device_kind == DeviceKind::gpu;
}

// Workers per machine: one per GPU (dask-cuda starts one per GPU), else one per machine.
int workers_per_machine(const LaunchSpec& s) {
  return on_gpu(s) ? std::max(1, s.processes_per_node) : 1;
}

std::string gigabytes(double gb) {
  return std::to_string(static_cast<long long>(std::floor(gb))) + "GB";
}

std::string library_name(GbdtLibrary library) {
  switch (library) {
    case GbdtLibrary::xgboost: return "XGBoost";
    case GbdtLibrary::lightgbm: return "LightGBM";
    case GbdtLibrary::sklearn: return "scikit-learn";
  }
  return "";
}

// LightGBM grows trees leaf-wise: a depth-d tree of the estimate has 2^d − 1 splits, and
// num_leaves = 2^d − 1 with max_depth = d bounds it the same (255 leaves ↔ depth 8, as in
// LightGBM's Higgs runs, docs/methodology.md#gbdt-libraries).
long long leaves(const LaunchSpec& s) {
  return (1LL << std::min(s.max_depth, 30)) - 1;
}

// The command that starts one machine's workers.
std::string worker_command(const LaunchSpec& s, const std::string& scheduler) {
  std::string line = on_gpu(s) ? "dask cuda worker " + scheduler : "dask worker " + scheduler + " --nworkers 1";
  if (!on_gpu(s) && s.worker_threads > 0) line += " --nthreads " + std::to_string(s.worker_threads);
  if (s.worker_memory_gb > 0) line += " --memory-limit " + gigabytes(s.worker_memory_gb);
  return line;
}

std::string dask_memory_note(const LaunchSpec& s) {
  if (s.worker_memory_gb <= 0 || s.worker_data_gb <= k_dask_spill_share * s.worker_memory_gb) return "";
  return "mlsize: note: each worker holds about " + gigabytes(s.worker_data_gb) + " of its " +
         gigabytes(s.worker_memory_gb) +
         " memory limit, above the 60% at which Dask spills to disk (distributed.worker.memory.target); raise it "
         "in the Dask config or take more machines\n";
}

std::string objective_note() {
  return "mlsize: note: the objective is yours to set (reg:squarederror is written; binary:logistic, "
         "multi:softprob, ...): mlsize sizes the trees, not the loss\n";
}

}  // namespace

std::string trees_layout_line(const LaunchSpec& s) {
  const int per_machine = workers_per_machine(s);
  std::string line = std::to_string(s.tree_workers) + (s.tree_workers == 1 ? " worker: " : " workers: ") +
                     std::to_string(s.nodes) + (s.nodes == 1 ? " machine" : " machines");
  if (on_gpu(s)) {
    line += " × " + std::to_string(per_machine) + (per_machine == 1 ? " GPU" : " GPUs") + ", one worker per GPU";
  } else {
    line += ", one worker per machine";
    if (s.worker_threads > 0) line += " of " + std::to_string(s.worker_threads) + " threads";
  }
  line += "; " + library_name(s.library) + (on_gpu(s) ? " device=\"cuda\"" : " on CPUs") + ", " +
          std::to_string(s.rounds) + " rounds of depth " + std::to_string(s.max_depth) + ", " + std::to_string(s.bins) +
          " bins";
  return line;
}

LaunchText dask_job(const LaunchSpec& s, const std::string& title) {
  const std::string scheduler = "tcp://FIRST_MACHINE:" + std::to_string(k_scheduler_port);
  std::string py = "#!/usr/bin/env python3\n# mlsize: " + title + "\n# " + trees_layout_line(s) + "\n";
  py += "#\n# Start the cluster, then run this job on any machine that reaches it:\n";
  py += "#   on the first machine:  dask scheduler --port " + std::to_string(k_scheduler_port) + "\n";
  py += (s.nodes == 1 ? std::string("#   on the same machine:  ")
                      : "#   on each of the " + std::to_string(s.nodes) + " machines:  ") +
        worker_command(s, scheduler) + "\n";
  py += "#   then:  python job.py " + scheduler + " DATA LABEL\n";
  py += "# DATA: Parquet files (a directory, a glob, s3://...); LABEL: the label column.\n";
  py += "# --emit skypilot starts the same cluster on the plan's machines and runs this job.\n";
  py += "import sys\n\nimport dask.dataframe as dd\n";
  py += s.library == GbdtLibrary::xgboost ? "import xgboost as xgb\n" : "import lightgbm as lgb\n";
  py += "from dask.distributed import Client\n\n";
  py += "scheduler, data, label = sys.argv[1:4]\n";
  py += "with Client(scheduler) as client:\n";
  py += "    client.wait_for_workers(" + std::to_string(s.tree_workers) + ")\n";
  py += "    frame = dd.read_parquet(data)\n";
  py += "    X, y = frame.drop(columns=[label]), frame[label]\n";
  if (s.library == GbdtLibrary::xgboost) {
    py += "    dtrain = xgb.dask.DaskQuantileDMatrix(client, X, y, max_bin=" + std::to_string(s.bins) + ")\n";
    py += "    params = {\n";
    py += "        \"objective\": \"reg:squarederror\",\n";
    py += "        \"tree_method\": \"hist\",\n";
    py += std::string("        \"device\": \"") + (on_gpu(s) ? "cuda" : "cpu") + "\",\n";
    py += "        \"max_depth\": " + std::to_string(s.max_depth) + ",\n";
    py += "        \"max_bin\": " + std::to_string(s.bins) + ",\n";
    py += "    }\n";
    py += "    output = xgb.dask.train(client, params, dtrain, num_boost_round=" + std::to_string(s.rounds) + ")\n";
    py += "    output[\"booster\"].save_model(\"model.json\")\n";
  } else {
    py += "    model = lgb.DaskLGBMRegressor(\n";
    py += "        client=client,\n";
    py += "        n_estimators=" + std::to_string(s.rounds) + ",\n";
    py += "        max_depth=" + std::to_string(s.max_depth) + ",\n";
    py += "        num_leaves=" + std::to_string(leaves(s)) + ",\n";
    py += "        max_bin=" + std::to_string(s.bins) + ",\n";
    py += "        tree_learner=\"data\",\n";
    py += "    )\n";
    py += "    model.fit(X, y)\n";
    py += "    model.to_local().booster_.save_model(\"model.txt\")\n";
  }
  py += "    client.shutdown()  # stops the scheduler and the workers: the cluster's job is done\n";
  LaunchText out;
  out.text = std::move(py);
  out.notes = objective_note() + dask_memory_note(s);
  if (on_gpu(s)) {
    out.notes += "mlsize: note: the workers need dask-cuda (pip install dask-cuda): one worker per GPU\n";
  }
  return out;
}

LaunchText spark_script(const LaunchSpec& s, const std::string& title) {
  std::string sh = "#!/bin/sh\n# mlsize: " + title + "\n# " + trees_layout_line(s) + "\n";
  sh += "# job.py: your PySpark application; its estimator:\n";
  sh += "#   SparkXGBRegressor(features_col=FEATURE_COLUMNS, label_col=LABEL, num_workers=" +
        std::to_string(s.tree_workers) + ", device=\"" + (on_gpu(s) ? "cuda" : "cpu") +
        "\",\n#                     n_estimators=" + std::to_string(s.rounds) +
        ", max_depth=" + std::to_string(s.max_depth) + ", max_bin=" + std::to_string(s.bins) + ")\n";
  sh += "# One executor per worker, each running one XGBoost task (xgboost doc/tutorials/spark_estimator.rst).\n";
  Command submit("spark-submit");
  submit.arg("--master", "\"${SPARK_MASTER:?spark://HOST:7077, yarn or k8s://...}\"");
  submit.arg("--conf", "spark.executor.instances=" + std::to_string(s.tree_workers));
  if (s.worker_threads > 0) {
    submit.arg("--conf", "spark.executor.cores=" + std::to_string(s.worker_threads));
    // On CPUs XGBoost's nthread is spark.task.cpus: one task takes every core of its executor.
    submit.arg("--conf", "spark.task.cpus=" + std::to_string(on_gpu(s) ? 1 : s.worker_threads));
  }
  if (s.worker_memory_gb > 0) {
    const double heap = std::max(k_spark_least_heap_gb, s.worker_memory_gb * k_spark_heap_share);
    const double python = s.worker_memory_gb - heap * (1 + k_spark_overhead_share);
    submit.arg("--conf", "spark.executor.memory=" + std::to_string(static_cast<long long>(heap)) + "g");
    if (python >= 1) {
      submit.arg("--conf", "spark.executor.pyspark.memory=" + std::to_string(static_cast<long long>(python)) + "g");
    }
  }
  if (on_gpu(s)) {
    // One GPU per executor and per task, which every cluster manager and XGBoost version
    // takes (fractional task amounts need Spark standalone 3.4 and XGBoost 2.0.1).
    submit.arg("--conf", "spark.executor.resource.gpu.amount=1");
    submit.arg("--conf", "spark.task.resource.gpu.amount=1");
  }
  submit.arg("job.py");
  sh += submit.text();
  LaunchText out;
  out.text = std::move(sh);
  out.notes = objective_note();
  if (on_gpu(s)) {
    out.notes +=
        "mlsize: note: Spark schedules GPUs only with a discovery script on each worker "
        "(spark.worker.resource.gpu.discoveryScript, or the executor's on YARN and Kubernetes)\n";
  }
  return out;
}

std::string trees_skypilot_setup(const LaunchSpec& s) {
  std::string packages;
  switch (s.library) {
    case GbdtLibrary::xgboost: packages = "xgboost \"dask[dataframe,distributed]\" pyarrow"; break;
    case GbdtLibrary::lightgbm: packages = "lightgbm \"dask[dataframe,distributed]\" pyarrow"; break;
    case GbdtLibrary::sklearn: packages = "scikit-learn pandas pyarrow"; break;
  }
  if (on_gpu(s) && s.library != GbdtLibrary::sklearn) packages += " dask-cuda";
  return "pip install " + packages + "\nif [ -f requirements.txt ]; then pip install -r requirements.txt; fi";
}

std::string trees_skypilot_run(const LaunchSpec& s) {
  if (s.library == GbdtLibrary::sklearn) return "python job.py \"$DATA\" \"$LABEL\"\n";
  const std::string port = std::to_string(k_scheduler_port);
  std::string run = "HEAD=$(echo \"$SKYPILOT_NODE_IPS\" | head -n1)\n";
  run += "if [ \"$SKYPILOT_NODE_RANK\" = 0 ]; then dask scheduler --port " + port + " & fi\n";
  run += worker_command(s, "\"tcp://$HEAD:" + port + "\"") + " &\n";
  run +=
      "if [ \"$SKYPILOT_NODE_RANK\" = 0 ]; then python job.py \"tcp://$HEAD:" + port + "\" \"$DATA\" \"$LABEL\"; fi\n";
  run += "wait\n";
  return run;
}

std::string trees_skypilot_notes(const LaunchSpec& s) {
  std::string notes =
      s.library == GbdtLibrary::sklearn
          ? "mlsize: note: job.py is your scikit-learn script (HistGradientBoostingRegressor(max_iter=" +
                std::to_string(s.rounds) + ", max_depth=" + std::to_string(s.max_depth) +
                ", max_bins=" + std::to_string(s.bins) + "))\n"
          : "mlsize: note: job.py is the same command with --emit dask; it stops the cluster when done\n";
  notes += "mlsize: note: launch with: sky launch task.yaml --env DATA=s3://... --env LABEL=...\n";
  return notes + dask_memory_note(s);
}

}  // namespace mlsize::cli
