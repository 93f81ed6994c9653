#!/usr/bin/env python3
"""Validates mlsize's JSON against the JSON Schemas in docs/schema (docs/cli.md#json-schemas).

usage: validate_outputs.py MLSIZE SOURCE_DIR [--schema-dir DIR] [--drop SCHEMA:KEY]

1. Every schema is a valid Draft 2020-12 schema, and the definitions recommend and
   estimate share are the same in both files.
2. Real outputs: each command of CASES is run (from SOURCE_DIR) and its stdout validated
   against the schema of its command; its exit status and a fact about the variant it
   stands for (a purchase table, a serving plan, ...) are checked too, so that a case
   that stops covering its variant fails instead of passing quietly.
3. Every JSON expected_stdout of the CLI golden cases (tests/cli/cases) is validated.
4. The catalogue and rules files (data/, tests/schema/*.yaml and the golden cases'
   overlays) are validated against the file schemas.
5. Negative checks: real outputs and files with a key removed, added, renamed or of the
   wrong type must be rejected, or the schemas are not strict enough.

Needs Debian's python3-jsonschema (4.10 or later) and python3-yaml. --drop removes a key
from a schema's top-level properties, so that a run can show the failure a renamed or
added key gives (the ctest schema.detects_drift). Exits 0 when everything holds, 1 if not.
"""

import argparse
import copy
import csv
import glob
import io
import json
import os
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
    import yaml
except ImportError as missing:
    sys.exit(f"{sys.argv[0]}: {missing}: run it with Debian's python3 (/usr/bin/python3) and its packages "
             "python3-jsonschema and python3-yaml (scripts/install-deps.sh --test)")

Validator = jsonschema.Draft202012Validator

OUTPUT_SCHEMAS = ["recommend", "estimate", "explain", "catalog", "rules", "detect", "error"]
FILE_SCHEMAS = ["catalog-file", "rules-file"]
# Definitions that recommend.schema.json and estimate.schema.json both hold: kept equal.
SHARED_DEFS = ["date", "rule_id", "provenance", "model", "workload", "plan", "rules_fired"]

OVERLAY = "tests/schema/overlay-catalog.yaml"
POLICY = "tests/schema/policy-rules.yaml"
ONLY_AWS = "tests/cli/cases/rules_only_aws_recommend/only-aws.yaml"
DETECT = "tests/data/detect"  # recorded machines (tests/data/detect/README.md)


def plans(j):
    return j.get("recommendations", []) + (j.get("purchases") or [])


def reasons(j):
    return {r["reason"] for r in j["rejected"]}


# (name, arguments, expected exit status, what the output must show for the case to cover its variant)
CASES = [
    # recommend
    ("recommend pretrain", ["recommend", "--params", "7B", "--data", "200GB", "--top", "3"], 0,
     lambda j: j["workload"]["task"] == "pretrain" and j["purchases"] is None and "purchase" in reasons(j)),
    ("recommend multi-node communication", ["recommend", "--params", "70B", "--tokens", "100B", "--top", "2"], 0,
     lambda j: "communication" in j["recommendations"][0]["time"]),
    ("recommend finetune moe preset", ["recommend", "--model", "mixtral-8x7b", "--task", "finetune", "--tokens", "1B",
                                       "--top", "2"], 0,
     lambda j: j["workload"]["model"]["experts"] > 1 and j["workload"]["active_params"] < j["workload"]["params"]),
    ("recommend lora", ["recommend", "--model", "llama-3-8b", "--task", "lora", "--tokens", "100M", "--top", "2"], 0,
     lambda j: "lora_rank" in j["workload"]),
    ("recommend qlora", ["recommend", "--model", "llama-2-13b", "--task", "qlora", "--tokens", "50M", "--top", "2"], 0,
     lambda j: j["workload"]["task"] == "qlora"),
    ("recommend inference batch run", ["recommend", "--model", "llama-3-8b", "--task", "inference", "--tokens", "1M",
                                       "--context", "8192", "--batch", "4", "--top", "2"], 0,
     lambda j: "serving" not in j["workload"] and "serving" not in j["recommendations"][0]),
    ("recommend serving a load", ["recommend", "--model", "llama-3-70b", "--task", "inference", "--rate", "20",
                                  "--ttft", "2s", "--tpot", "50ms", "--top", "2"], 0,
     lambda j: "serving" in j["workload"] and j["recommendations"][0]["serving"]["usd_per_hour"] is not None),
    ("recommend serving tokens per day", ["recommend", "--model", "llama-3-8b", "--task", "inference",
                                          "--tokens-per-day", "1B", "--prompt-tokens", "2000", "--output-tokens", "500",
                                          "--max-batch", "64", "--replica-utilisation", "0.6", "--top", "2"], 0,
     lambda j: j["workload"]["serving"]["ttft_seconds"] == 2.0),
    ("recommend offline job", ["recommend", "--model", "llama-3-8b", "--task", "inference", "--tokens", "100M",
                               "--prompt-tokens", "500", "--output-tokens", "100", "--top", "2"], 0,
     lambda j: j["recommendations"][0]["time"]["seconds"] is not None and "serving" in j["recommendations"][0]),
    ("recommend serving moe config", ["recommend", "--model-config", "tests/data/hf-configs/Qwen--Qwen3-30B-A3B.json",
                                      "--task", "inference", "--rate", "5", "--quant", "fp8", "--kv-cache-dtype", "fp8",
                                      "--top", "2"], 0,
     lambda j: j["workload"]["weight_format"] == "fp8" and j["workload"]["model"]["experts"] > 1),
    ("recommend mla config", ["recommend", "--model-config", "tests/data/hf-configs/deepseek-ai--DeepSeek-V3.json",
                              "--task", "inference", "--tokens", "10M", "--quant", "int4", "--top", "1"], 0,
     lambda j: j["workload"]["model"]["mla_kv_lora_rank"] is not None),
    ("recommend gbdt", ["recommend", "--task", "gbdt", "--data", "20GB", "--top", "2"], 0,
     lambda j: "gbdt" in j["recommendations"][0]["compute"]),
    ("recommend vision", ["recommend", "--model", "resnet-50", "--images", "1.28M", "--epochs", "90", "--top", "3"], 0,
     lambda j: j["workload"]["vision"]["model"] == "resnet-50" and "vision" in j["recommendations"][0]["compute"]),
    ("recommend diffusion fleet", ["recommend", "--model", "sdxl", "--task", "inference", "--rate", "2", "--steps", "30",
                                   "--top", "2"], 0,
     lambda j: j["workload"]["diffusion"]["model"] == "sdxl" and "diffusion" in j["recommendations"][0]["compute"]),
    ("recommend speech transcription", ["recommend", "--model", "whisper-large-v3", "--task", "inference",
                                        "--audio-hours", "1000", "--deadline", "12h", "--top", "2"], 0,
     lambda j: j["workload"]["speech"]["engine"] == "faster-whisper" and "speech" in j["recommendations"][0]["compute"]),
    ("recommend speech fine-tune", ["recommend", "--model", "whisper-small", "--task", "finetune", "--audio-hours", "100",
                                    "--clip-seconds", "5", "--top", "2"], 0,
     lambda j: j["workload"]["speech"]["clip_seconds"] == 5 and j["workload"]["speech"]["engine"] is None),
    ("recommend include purchase", ["recommend", "--params", "7B", "--data", "200GB", "--include-purchase",
                                    "--top", "3"], 0,
     lambda j: j["purchases"] and j["purchases"][0]["compared_with"] is not None and "cards_only" in reasons(j)),
    ("recommend purchase never pays", ["recommend", "--params", "7B", "--data", "200GB", "--include-purchase",
                                       "--electricity-price", "100", "--top", "2"], 0,
     lambda j: any(p["break_even_never"] for p in j["purchases"])),
    ("recommend gbdt purchase", ["recommend", "--task", "gbdt", "--data", "20GB", "--include-purchase", "--top", "2"], 0,
     lambda j: j["purchases"] and "gbdt" in j["purchases"][0]["compute"]),
    ("recommend purchase without rental (exit 3)", ["recommend", "--params", "7B", "--data", "200GB",
                                                    "--include-purchase", "--provider", "on-prem", "--top", "2"], 3,
     lambda j: j["purchases"] and j["purchases"][0]["compared_with"] is None and j["recommendations"] == []),
    ("recommend owned", ["recommend", "--params", "7B", "--data", "200GB", "--owned", "on-prem-dgx-b200",
                         "--top", "3"], 0,
     lambda j: any(p["offering"]["kind"] == "on-prem" for p in j["recommendations"])),
    ("recommend budget deadline", ["recommend", "--params", "7B", "--data", "200GB", "--budget", "5k",
                                   "--deadline", "7d", "--optimize", "time", "--top", "3"], 0,
     lambda j: {"deadline", "budget"} <= reasons(j)),
    ("recommend nothing meets (exit 3)", ["recommend", "--params", "7B", "--data", "200GB", "--budget", "10"], 3,
     lambda j: j["recommendations"] == [] and j["feasible_count"] == 0),
    ("recommend serving targets unmet (exit 3)", ["recommend", "--model", "llama-3-70b", "--task", "inference",
                                                  "--rate", "5", "--tpot", "5ms"], 3,
     lambda j: "tpot" in reasons(j)),
    ("recommend serving load beyond any (exit 3)", ["recommend", "--model", "llama-3-70b", "--task", "inference",
                                                    "--rate", "1e9", "--top", "1"], 3,
     lambda j: "load" in reasons(j)),
    ("recommend gpus counts", ["recommend", "--params", "7B", "--data", "200GB", "--gpus", "h100:8,a100-80gb:3",
                               "--top", "2"], 0,
     lambda j: "device_count" in reasons(j)),
    ("recommend startup free tiers", ["recommend", "--params", "100M", "--data", "1GB", "--profile", "startup",
                                      "--verbose", "--top", "3"], 0,
     lambda j: any(a["severity"] == "tip" for a in j["advice"]) and any("rules" in p for p in j["recommendations"])),
    ("recommend here", ["recommend", "--here", "--from", f"{DETECT}/h100x8", "--params", "7B", "--data", "20GB"], 0,
     lambda j: j["recommendations"][0]["offering"]["id"] == "here" and j["recommendations"][0]["device_count"] == 8),
    ("recommend overlay and rules files", ["recommend", "--params", "7B", "--data", "200GB", "--catalog", OVERLAY,
                                           "--rules", POLICY, "--rules", ONLY_AWS, "--top", "3"], 0,
     lambda j: j["provenance"]["catalog"]["overlays"] and len(j["provenance"]["rules_files"]) == 2
     and "rule" in reasons(j)),
    # estimate
    ("estimate offering zero-1", ["estimate", "--params", "7B", "--tokens", "2T", "--offering", "aws-p4de.24xlarge",
                                  "--count", "64", "--zero", "1"], 0,
     lambda j: "communication" in j["time"] and j["constraints"]["meets_deadline"] is None),
    ("estimate without hardware", ["estimate", "--params", "7B"], 0,
     lambda j: j["device"] is None and j["offering"] is None and j["memory"]["fits"] is None),
    ("estimate bare device explain", ["estimate", "--model", "llama-2-7b", "--task", "qlora", "--tokens", "100M",
                                      "--device", "a100-80gb", "--explain"], 0,
     lambda j: j["explain"] and j["offering"] is None and j["cost"]["usd"] is None),
    ("estimate offload optimizer", ["estimate", "--params", "13B", "--task", "finetune", "--tokens", "10M",
                                    "--precision", "fp16-mixed", "--recompute", "full", "--device", "v100-sxm2-32gb",
                                    "--zero", "2", "--offload", "optimizer", "--explain"], 0,
     lambda j: "host_bytes" in j["memory"] and j["memory"]["host_fits"] is None),
    ("estimate offload params moe", ["estimate", "--model", "mixtral-8x7b", "--tokens", "1B", "--offering",
                                     "aws-p4de.24xlarge", "--zero", "3", "--ep", "8", "--offload", "optimizer+params"],
     0, lambda j: j["strategy"]["offload"] == "optimizer+params" and j["memory"]["host_fits"] is not None),
    ("estimate tp pp sp", ["estimate", "--model", "llama-3-70b", "--tokens", "1T", "--offering", "aws-p5.48xlarge",
                           "--count", "64", "--tp", "8", "--pp", "4", "--sp", "--zero", "1", "--recompute", "selective",
                           "--attention", "standard", "--framework", "hf", "--deadline", "300d", "--budget", "10M"], 0,
     lambda j: j["strategy"]["sequence_parallel"] and j["constraints"]["within_budget"] is not None),
    ("estimate hsdp", ["estimate", "--model", "llama-2-13b", "--tokens", "100B", "--offering", "aws-p5.48xlarge",
                       "--count", "64", "--zero", "3", "--shard-group", "8"], 0,
     lambda j: j["strategy"]["shard_group"] == 8 and j["strategy"]["data_parallel"] == 64),
    ("estimate inference decode", ["estimate", "--model", "llama-3-8b", "--task", "inference", "--device", "h100",
                                   "--context", "8192", "--batch", "8"], 0,
     lambda j: "decode" in j),
    ("estimate serving offering", ["estimate", "--model", "llama-3-8b", "--task", "inference", "--rate", "5",
                                   "--ttft", "300ms", "--tpot", "30ms", "--offering", "aws-g6e.xlarge"], 0,
     lambda j: "serving" in j and j["time"]["seconds"] is None),
    ("estimate offline job", ["estimate", "--model", "llama-3-8b", "--task", "inference", "--tokens", "1B",
                              "--prompt-tokens", "500", "--output-tokens", "100", "--offering", "aws-p5.48xlarge"], 0,
     lambda j: "serving" in j and j["time"]["seconds"] is not None),
    ("estimate mxfp4 config", ["estimate", "--model-config", "tests/data/hf-configs/openai--gpt-oss-20b.json",
                               "--task", "inference", "--gpus", "h100:1"], 0,
     lambda j: j["workload"]["weight_format"] == "mxfp4"),
    ("estimate encoder-decoder config", ["estimate", "--model-config", "tests/data/hf-configs/google--flan-t5-large.json",
                                         "--task", "finetune", "--tokens", "1B", "--device", "a100-80gb", "--count", "2",
                                         "--zero", "3", "--explain"], 0,
     lambda j: j["workload"]["model"]["encoder_layers"] > 0),
    ("estimate gbdt", ["estimate", "--task", "gbdt", "--data", "20GB", "--offering", "aws-c5.12xlarge"], 0,
     lambda j: "gbdt" in j["compute"]),
    ("estimate vision", ["estimate", "--model", "vit-b-16", "--task", "finetune", "--images", "100k", "--epochs", "10",
                         "--resolution", "384", "--offering", "aws-p4d.24xlarge"], 0,
     lambda j: j["workload"]["vision"]["height"] == 384 and j["compute"]["vision"]["images_per_s"] > 0),
    ("estimate here gbdt on a CPU", ["estimate", "--here", "--from", f"{DETECT}/no-gpu-c5", "--task", "gbdt",
                                     "--data", "2GB"], 0,
     lambda j: j["offering"]["id"] == "here" and j["device"]["kind"] == "cpu" and "gbdt" in j["compute"]),
    ("estimate overlay offering", ["estimate", "--params", "7B", "--tokens", "10B", "--catalog", OVERLAY,
                                   "--offering", "schema-lab-gpu-x8", "--count", "16", "--zero", "2"], 0,
     lambda j: j["provenance"]["catalog"]["overlays"] and j["offering"]["network_gbps"] is not None),
    ("estimate does not fit (exit 3)", ["estimate", "--params", "70B", "--tokens", "1T", "--device", "a100-40gb",
                                        "--deadline", "1d"], 3,
     lambda j: j["constraints"]["feasible"] is False and j["constraints"]["meets_deadline"] is False),
    # explain
    ("explain default rules", ["explain", "--params", "7B", "--data", "200GB", "--top", "3"], 0,
     lambda j: len(j["recommendations"]) == 3 and any(p["fired"] for p in j["recommendations"])),
    ("explain rules files", ["explain", "--params", "7B", "--data", "200GB", "--rules", POLICY, "--rules", ONLY_AWS], 0,
     lambda j: j["excluded"] and "schema-prefer-h100" in j["rules_in_force"]),
    ("explain one offering", ["explain", "--params", "7B", "--data", "200GB", "--offering", "aws-p5.48xlarge"], 0,
     lambda j: all(p["offering"] == "aws-p5.48xlarge" for p in j["recommendations"])),
    # catalog
    ("catalog list", ["catalog", "list"], 0, lambda j: j["devices"] and j["offerings"]),
    ("catalog list filtered", ["catalog", "list", "--kind", "cpu", "--provider", "aws"], 0,
     lambda j: all(d["kind"] == "cpu" for d in j["devices"])),
    ("catalog show device", ["catalog", "show", "h100"], 0, lambda j: len(j["devices"]) == 1),
    ("catalog show free tier", ["catalog", "show", "google-colab-free-t4"], 0,
     lambda j: j["offerings"][0]["limits"]["session_hours"] is not None),
    ("catalog export with overlay", ["catalog", "export", "--catalog", OVERLAY], 0,
     lambda j: any(o["id"] == "schema-lab-onprem" for o in j["offerings"])),
    # detect
    ("detect 8x H100", ["detect", "--from", f"{DETECT}/h100x8"], 0,
     lambda j: len(j["gpus"]) == 8 and all(g["device"] == "h100-sxm" for g in j["gpus"]) and j["here"]["devices"] == 8),
    ("detect MIG", ["detect", "--from", f"{DETECT}/a100-mig"], 0,
     lambda j: j["gpus"][0]["mig_instances"] and j["here"]["devices"] == 1),
    ("detect MI300X", ["detect", "--from", f"{DETECT}/mi300x"], 0,
     lambda j: all(g["vendor"] == "amd" and g["device"] == "mi300x" for g in j["gpus"])),
    ("detect no GPU", ["detect", "--from", f"{DETECT}/no-gpu"], 0,
     lambda j: j["gpus"] == [] and j["cpu"]["device"] is None and j["here"]["cpu_only"]),
    ("detect macOS", ["detect", "--from", f"{DETECT}/macos-m3-max"], 0,
     lambda j: j["gpus"][0]["vendor"] == "apple" and j["cpu"]["vendor"] == "apple"),
    ("detect nothing to plan on", ["detect", "--from", "tests/cli/cases/detect_unknown_gpu/machine"], 0,
     lambda j: j["here"] is None and j["here_error"]),
    # rules
    ("rules list", ["rules", "list"], 0, lambda j: len(j["rules"]) > 10),
    ("rules list with a policy", ["rules", "list", "--rules", POLICY], 0,
     lambda j: any("require" in r for r in j["rules"])),
    ("rules list policy only", ["rules", "list", "--no-default-rules", "--rules", POLICY], 0,
     lambda j: len(j["rules"]) == 6),
]


class Run:
    def __init__(self):
        self.failures = 0
        self.checks = 0

    def ok(self, what):
        self.checks += 1
        print(f"ok: {what}")

    def fail(self, what, details=()):
        self.checks += 1
        self.failures += 1
        print(f"FAIL: {what}")
        for line in details:
            print(f"  {line}")


def load_schemas(schema_dir, drops):
    schemas = {}
    for name in OUTPUT_SCHEMAS + FILE_SCHEMAS:
        with open(os.path.join(schema_dir, f"{name}.schema.json"), encoding="utf-8") as f:
            schemas[name] = json.load(f)
    for drop in drops:
        name, _, key = drop.partition(":")
        schemas[name]["properties"].pop(key, None)
        if key in schemas[name].get("required", []):
            schemas[name]["required"].remove(key)
    return schemas


def error_lines(errors, limit=6):
    """The validation errors, most specific first: the JSON path in the instance, the
    message, and where in the schema the failed keyword is. A plan with a bad key also
    leaves every plan key "unevaluated" in the object that holds it: that error comes
    only when there is no other."""
    specific = [e for e in errors if e.validator != "unevaluatedProperties"]
    errors = sorted(specific or errors, key=lambda e: (-len(e.absolute_path), jsonschema.exceptions.relevance(e)))
    lines = []
    for error in errors[:limit]:
        message = error.message
        if error.validator in ("anyOf", "oneOf", "not"):  # jsonschema's message repeats the whole instance
            message = f"matches no schema of its {error.validator}: {json.dumps(error.validator_value)}"
        if len(message) > 300:
            message = message[:300] + "..."
        schema_path = "/".join(str(p) for p in error.absolute_schema_path)
        lines.append(f"at {error.json_path}: {message} (schema: #/{schema_path})")
    if len(errors) > limit:
        lines.append(f"... and {len(errors) - limit} more")
    return lines


def validate(schema, instance):
    return list(Validator(schema, format_checker=Validator.FORMAT_CHECKER).iter_errors(instance))


def check_schemas(run, schemas):
    for name, schema in schemas.items():
        problems = []
        try:
            Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as error:
            problems.append(f"not a valid Draft 2020-12 schema: {error.message} at #/{'/'.join(map(str, error.path))}")
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            problems.append("$schema is not Draft 2020-12")
        if not str(schema.get("$id", "")).endswith(f"/{name}.schema.json"):
            problems.append(f"$id does not end with /{name}.schema.json")
        if not schema.get("title") or not schema.get("description"):
            problems.append("no title or description")
        if problems:
            run.fail(f"schema {name}.schema.json", problems)
        else:
            run.ok(f"schema {name}.schema.json")
    recommend_defs, estimate_defs = schemas["recommend"]["$defs"], schemas["estimate"]["$defs"]
    differ = [d for d in SHARED_DEFS if recommend_defs.get(d) != estimate_defs.get(d)]
    if differ:
        run.fail("recommend and estimate share their definitions",
                 [f"$defs/{d} differs between recommend.schema.json and estimate.schema.json" for d in differ])
    else:
        run.ok(f"recommend and estimate share $defs {', '.join(SHARED_DEFS)}")


def run_cases(run, schemas, mlsize, source_dir, env):
    outputs = {}
    for name, args, expected_rc, covers in CASES:
        args = args + ["--format", "json"]
        command = "mlsize " + " ".join(args)
        result = subprocess.run([mlsize] + args, cwd=source_dir, env=env, capture_output=True, text=True, check=False)
        if result.returncode != expected_rc:
            run.fail(f"{name}: {command}",
                     [f"exit status {result.returncode}, expected {expected_rc}", *result.stderr.splitlines()[:5]])
            continue
        try:
            output = json.loads(result.stdout)
        except json.JSONDecodeError as error:
            run.fail(f"{name}: {command}", [f"stdout is not JSON: {error}"])
            continue
        schema_name = args[0]
        errors = validate(schemas[schema_name], output)
        if errors:
            run.fail(f"{name}: {command} against {schema_name}.schema.json", error_lines(errors))
            continue
        try:
            covered = bool(covers(output))
        except (KeyError, IndexError, TypeError) as error:
            covered, why = False, f"{type(error).__name__}: {error}"
        else:
            why = "the output does not show the variant the case is for"
        if not covered:
            run.fail(f"{name}: {command}", [why + " (see CASES in tests/schema/validate_outputs.py)"])
            continue
        run.ok(f"{name}: {command}")
        outputs[name] = output
    return outputs


# The cases whose other formats are compared with their JSON: YAML must load to the same
# document, CSV and TSV rows must hold the JSON's figures (docs/cli.md#formats).
FORMAT_CASES = {
    "recommend pretrain": lambda j: j["recommendations"],
    "recommend serving a load": lambda j: j["recommendations"],
    "recommend gbdt": lambda j: j["recommendations"],
    "recommend vision": lambda j: j["recommendations"],
    "estimate offering zero-1": lambda j: [{k: v for k, v in j.items()
                                            if k not in ("schema_version", "command", "provenance")}],
    "explain default rules": lambda j: [dict({k: v for k, v in plan.items() if k != "fired"}, **fired)
                                        for plan in j["recommendations"] for fired in plan["fired"]],
    "rules list": lambda j: j["rules"],
}


def flattened(value, prefix=""):
    """The columns of one row as render_rows.cpp writes them: dotted keys, lists of objects left out."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            out.update(flattened(item, f"{prefix}.{key}" if prefix else key))
        return out
    if isinstance(value, list):
        if any(isinstance(item, (dict, list)) for item in value):
            return {}
        return {prefix: " ".join(cell_text(item) for item in value)}
    return {prefix: value}


def cell_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def same_cell(cell, value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return cell != "" and float(cell) == float(value)
    return cell == cell_text(value)


def check_formats(run, mlsize, source_dir, env, outputs):
    for name, args, _, _ in CASES:
        if name not in FORMAT_CASES or name not in outputs:
            continue
        document = outputs[name]
        result = subprocess.run([mlsize] + args + ["--format", "yaml"], cwd=source_dir, env=env,
                                capture_output=True, text=True, check=False)
        loaded = yaml.safe_load(result.stdout) if result.returncode == 0 else None
        if loaded == document:
            run.ok(f"{name}: --format yaml loads to the JSON document")
        else:
            run.fail(f"{name}: --format yaml does not load to the JSON document",
                     [f"exit {result.returncode}", *result.stderr.splitlines()[:3]])
        objects = FORMAT_CASES[name](document)
        expected = [flattened(o) for o in objects]
        for fmt, delimiter in (("csv", ","), ("tsv", "\t")):
            result = subprocess.run([mlsize] + args + ["--format", fmt], cwd=source_dir, env=env,
                                    capture_output=True, text=True, check=False)
            rows = list(csv.reader(io.StringIO(result.stdout), delimiter=delimiter))
            problems = []
            if result.returncode != 0 or not rows:
                problems.append(f"exit {result.returncode}, {len(rows)} lines")
            else:
                header, body = rows[0], rows[1:]
                if len(body) != len(expected):
                    problems.append(f"{len(body)} rows for {len(expected)} objects")
                for number, (row, want) in enumerate(zip(body, expected), 1):
                    if len(row) != len(header):
                        problems.append(f"row {number}: {len(row)} cells for {len(header)} columns")
                        continue
                    cells = dict(zip(header, row))
                    for column, value in want.items():
                        if column not in cells or not same_cell(cells[column], value):
                            problems.append(f"row {number} {column}: {cells.get(column)!r}, JSON {value!r}")
                            break
            if problems:
                run.fail(f"{name}: --format {fmt} differs from the JSON", problems[:5])
            else:
                run.ok(f"{name}: --format {fmt} holds the JSON's {len(expected)} rows")
        result = subprocess.run([mlsize] + args + ["--format", "markdown"], cwd=source_dir, env=env,
                                capture_output=True, text=True, check=False)
        if result.returncode == 0 and any(line.startswith("| ") for line in result.stdout.splitlines()):
            run.ok(f"{name}: --format markdown has a pipe table")
        else:
            run.fail(f"{name}: --format markdown has no pipe table", [f"exit {result.returncode}"])


# Failures under --format json: stderr is one JSON object (error.schema.json), stdout empty,
# the exit code the object names (issue 51).
ERROR_CASES = [
    ("bad count flag", ["recommend", "--params", "0", "--format", "json"], 2, "usage", "flag"),
    ("unknown flag", ["estimate", "--params", "7B", "--bogus", "--format", "json"], 2, "usage", None),
    ("bad catalogue file", ["recommend", "--params", "7B", "--data", "200GB", "--format", "json", "--catalog",
                            "tests/cli/cases/catalog_bad_field_exit1/bad.yaml"], 1, "input", "file"),
]


def check_errors(run, schemas, mlsize, source_dir, env):
    for name, args, code, kind, where in ERROR_CASES:
        result = subprocess.run([mlsize] + args, cwd=source_dir, env=env, capture_output=True, text=True, check=False)
        details = [f"exit {result.returncode}", f"stderr: {result.stderr[:300]}"]
        try:
            document = json.loads(result.stderr)
        except json.JSONDecodeError:
            run.fail(f"error {name}: stderr is not one JSON object", details)
            continue
        errors = validate(schemas["error"], document)
        if errors:
            run.fail(f"error {name} against error.schema.json", error_lines(errors))
        elif result.returncode != code or document["error"]["exit_code"] != code or result.stdout:
            run.fail(f"error {name}: exit {result.returncode}, stdout {len(result.stdout)} bytes", details)
        elif document["error"]["code"] != kind or (where and document["error"][where] is None):
            run.fail(f"error {name}: code {document['error']['code']!r}, {where} missing", details)
        else:
            run.ok(f"error {name} against error.schema.json")


def check_golden_outputs(run, schemas, source_dir):
    for case_dir in sorted(glob.glob(os.path.join(source_dir, "tests/cli/cases/*"))):
        path = os.path.join(case_dir, "expected_stdout")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not text.startswith("{"):
            continue
        with open(os.path.join(case_dir, "args"), encoding="utf-8") as f:
            args = f.read().split("\n")
        schema_name = args[0].strip()
        if "--emit" in args:
            continue  # a launch config, not mlsize's JSON: tests/launch checks it
        shown = os.path.relpath(path, source_dir)
        if schema_name not in OUTPUT_SCHEMAS:
            run.fail(shown, [f"no schema for the command {schema_name!r}"])
            continue
        errors = validate(schemas[schema_name], json.loads(text))
        if errors:
            run.fail(f"{shown} against {schema_name}.schema.json", error_lines(errors))
        else:
            run.ok(f"{shown} against {schema_name}.schema.json")


def yaml_files(source_dir):
    """(path, schema) of every catalogue and rules file that the loader accepts."""
    files = [(p, "catalog-file") for p in sorted(glob.glob(os.path.join(source_dir, "data/catalog/*.yaml")))]
    files += [(p, "rules-file") for p in sorted(glob.glob(os.path.join(source_dir, "data/rules/*.yaml")))]
    files += [(os.path.join(source_dir, OVERLAY), "catalog-file"), (os.path.join(source_dir, POLICY), "rules-file")]
    # The golden cases' overlays and rules files, except those of cases that expect an error.
    for path in sorted(glob.glob(os.path.join(source_dir, "tests/cli/cases/*/**/*.yaml"), recursive=True)):
        case = os.path.relpath(path, os.path.join(source_dir, "tests/cli/cases")).split(os.sep)[0]
        if case.endswith("_exit1"):
            continue
        with open(path, encoding="utf-8") as f:
            top = yaml.safe_load(f)
        files.append((path, "rules-file" if isinstance(top, dict) and "rules" in top else "catalog-file"))
    return files


def check_files(run, schemas, source_dir):
    for path, schema_name in yaml_files(source_dir):
        shown = os.path.relpath(path, source_dir)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        errors = validate(schemas[schema_name], yaml.safe_load(text))
        modeline = f"# yaml-language-server: $schema=../../docs/schema/{schema_name}.schema.json"
        if errors:
            run.fail(f"{shown} against {schema_name}.schema.json", error_lines(errors))
        elif shown.startswith(("data/", "tests/schema/")) and not text.startswith(modeline + "\n"):
            run.fail(shown, [f"does not start with the line {modeline}"])
        else:
            run.ok(f"{shown} against {schema_name}.schema.json")


def mutated(document, path, action, value=None):
    """A copy of `document` with the key at `path` (a list of keys and indexes) removed,
    renamed to `value`, or set to `value`."""
    document = copy.deepcopy(document)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "remove":
        del parent[last]
    elif action == "rename":
        parent[value] = parent.pop(last)
    else:
        parent[last] = value
    return document


def check_negatives(run, schemas, outputs, source_dir):
    """A schema that accepts these is not strict enough."""
    needed = ["recommend pretrain", "estimate offering zero-1", "explain default rules", "catalog list", "rules list",
              "detect 8x H100", "detect no GPU"]
    missing = [name for name in needed if name not in outputs]
    if missing:
        run.fail("negative checks", [f"skipped: they alter the outputs of {', '.join(missing)}, which failed"])
        return
    rec, est = outputs["recommend pretrain"], outputs["estimate offering zero-1"]
    explain, catalog, rules = outputs["explain default rules"], outputs["catalog list"], outputs["rules list"]
    advise = next(i for i, r in enumerate(rules["rules"]) if r["action"] == "advise")
    cases = [
        ("recommend", rec, ["summary"], "remove", None),
        ("recommend", rec, ["recommendations", 0, "memory", "per_device", "total_bytes"], "remove", None),
        ("recommend", rec, ["recommendations", 0, "strategy", "zero_stage"], "rename", "zero"),
        ("recommend", rec, ["workload", "params"], "rename", "parameters"),
        ("recommend", rec, ["recommendations", 0, "hardware"], "set", "h100"),
        ("recommend", rec, ["provenance", "catalog", "git_commit"], "set", "abc"),
        ("recommend", rec, ["recommendations", 0, "device_count"], "set", "4"),
        ("recommend", rec, ["recommendations", 0, "strategy", "recompute"], "set", "partial"),
        ("recommend", rec, ["workload", "lora_rank"], "set", 16),
        ("recommend", rec, ["rejected", 0, "reason"], "set", "too_slow"),
        ("recommend", rec, ["schema_version"], "set", 2),
        ("estimate", est, ["constraints", "feasible"], "remove", None),
        ("estimate", est, ["memory", "host_bytes"], "set", 1),
        ("estimate", est, ["recommendations"], "set", []),
        ("estimate", est, ["workload", "task"], "set", "train"),
        ("explain", explain, ["recommendations", 0, "rule_score"], "remove", None),
        ("explain", explain, ["provenance"], "set", {}),
        ("catalog", catalog, ["devices", 0, "memory_bytes"], "rename", "memory_gib"),
        ("catalog", catalog, ["offerings", 0, "kind"], "set", "rental"),
        ("rules", rules, ["rules", 0, "when"], "remove", None),
        ("rules", rules, ["rules", advise, "factor"], "set", 2.0),
        ("detect", outputs["detect 8x H100"], ["gpus", 0, "memory_bytes"], "rename", "memory_mib"),
        ("detect", outputs["detect 8x H100"], ["here", "devices"], "set", 0),
        ("detect", outputs["detect 8x H100"], ["gpus", 0, "vendor"], "set", "intel"),
        ("detect", outputs["detect no GPU"], ["cpu", "threads"], "remove", None),
        ("detect", outputs["detect no GPU"], ["here_error"], "remove", None),
    ]
    with open(os.path.join(source_dir, OVERLAY), encoding="utf-8") as f:
        overlay = yaml.safe_load(f)
    with open(os.path.join(source_dir, POLICY), encoding="utf-8") as f:
        policy = yaml.safe_load(f)
    cases += [
        ("catalog-file", overlay, ["devices", 0, "memory_gib"], "rename", "memory_gb_"),
        ("catalog-file", overlay, ["devices", 0, "memory_gib"], "remove", None),
        ("catalog-file", overlay, ["offerings", 2, "purchase_price_usd"], "remove", None),
        ("catalog-file", overlay, ["offerings", 0, "as_of"], "set", "2026-13-01"),
        ("catalog-file", overlay, ["offerings", 0, "devices_per_unit"], "set", 0),
        ("rules-file", policy, ["rules", 0, "action"], "set", "forbid"),
        ("rules-file", policy, ["rules", 0, "factor"], "set", 2),
        ("rules-file", policy, ["rules", 1, "factor"], "remove", None),
        ("rules-file", policy, ["rules", 0, "Message"], "set", "x"),
    ]
    for schema_name, document, path, action, value in cases:
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        what = {"remove": f"{where} removed", "rename": f"{where} renamed to {value!r}",
                "set": f"{where} set to {json.dumps(value)}"}[action]
        errors = validate(schemas[schema_name], mutated(document, path, action, value))
        if errors:
            best = error_lines(errors, 1)[0]
            run.ok(f"{schema_name}.schema.json rejects a real document with {what}: {best}")
        else:
            run.fail(f"{schema_name}.schema.json accepts a document with {what}")
    bad = os.path.join(source_dir, "tests/cli/cases/catalog_bad_field_exit1/bad.yaml")
    with open(bad, encoding="utf-8") as f:
        if validate(schemas["catalog-file"], yaml.safe_load(f)):
            run.ok(f"catalog-file.schema.json rejects {os.path.relpath(bad, source_dir)} (a misspelt field)")
        else:
            run.fail(f"catalog-file.schema.json accepts {os.path.relpath(bad, source_dir)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mlsize")
    parser.add_argument("source_dir")
    parser.add_argument("--schema-dir", help="default: SOURCE_DIR/docs/schema")
    parser.add_argument("--drop", action="append", default=[], metavar="SCHEMA:KEY",
                        help="remove KEY from the top-level properties of SCHEMA first (to see the test fail)")
    options = parser.parse_args()
    mlsize = os.path.abspath(options.mlsize)
    source_dir = os.path.abspath(options.source_dir)
    schemas = load_schemas(options.schema_dir or os.path.join(source_dir, "docs/schema"), options.drop)
    started = time.monotonic()
    run = Run()
    with tempfile.TemporaryDirectory() as empty_config:
        # The developer's own overlays (catalog.d, MLSIZE_CATALOG) must not leak in.
        env = dict(os.environ, XDG_CONFIG_HOME=empty_config, LC_ALL="C")
        env.pop("MLSIZE_CATALOG", None)
        check_schemas(run, schemas)
        outputs = run_cases(run, schemas, mlsize, source_dir, env)
        check_formats(run, mlsize, source_dir, env, outputs)
        check_golden_outputs(run, schemas, source_dir)
        check_errors(run, schemas, mlsize, source_dir, env)
        check_files(run, schemas, source_dir)
        check_negatives(run, schemas, outputs, source_dir)
    seconds = time.monotonic() - started
    print(f"\n{run.checks - run.failures} of {run.checks} checks passed in {seconds:.1f} s "
          f"(jsonschema {jsonschema_version()}).")
    return 1 if run.failures else 0


def jsonschema_version():
    try:
        from importlib import metadata
        return metadata.version("jsonschema")
    except Exception:  # pylint: disable=broad-except
        return "?"


if __name__ == "__main__":
    sys.exit(main())
