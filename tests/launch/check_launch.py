#!/usr/bin/env python3
"""Checks mlsize's launch configs (`--emit`, docs/launch.md) against what each tool documents.

usage: check_launch.py MLSIZE SOURCE_DIR [--tamper] [--corpus-stride N]

1. Schemas. For each tool a key/type schema (or a flag list) is written from the tool's own
   docs and code, cited beside it; the list fixtures in tests/launch/fixtures/ are excerpts
   of that code (fixtures/README.md names repo@commit:path for each). Every schema must
   first ACCEPT the real files of its tool in fixtures/ (DeepSpeed's and Hugging Face's
   ds_config JSON, Accelerate's config templates, SkyPilot's example tasks and their
   torchrun lines), which shows it is the tool's schema and not one tailored to mlsize.
2. Outputs. A matrix of real `mlsize recommend/estimate --emit KIND` commands runs through
   the binary; each output is parsed (JSON, YAML or `sh -n`), validated with its tool's
   schema, and checked against the consistency rules the tools enforce (DeepSpeed's
   `_batch_assertion`, Megatron-LM's global batch, Accelerate's process count, SkyPilot's
   accelerator names) and against the plan of the same command with `--format json`.
3. Refusals. Plans a kind cannot express must exit 2 with empty stdout and a stderr that
   names `--emit` and a kind that can.
4. A corpus (issue 48): every provider × task × --framework; each ranked #1-#3 runs on the
   stack it is ranked for (the framework's devices and layouts, the host floor), every --emit
   for it writes a file that passes 2. or refuses as in 3., and a CUDA training plan is
   written by at least one launcher.

--corpus-stride N runs every Nth request of the corpus (4.), for sanitised builds, where each
command takes a tenth of a second or more: the sanitised suite checks the same code on fewer
plans.

--tamper changes one value of one output before it is checked (train_batch_size of the first
DeepSpeed config, +1): the run must then fail, naming the command and the rule (the ctest
launch.detects_errors). Exits 0 when everything holds, 1 if not.

Needs Debian's python3-jsonschema and python3-yaml (/usr/bin/python3).
"""

import ast
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import time

try:
    import jsonschema
    import yaml
except ImportError as missing:
    sys.exit(f"{sys.argv[0]}: {missing}: run it with Debian's python3 (/usr/bin/python3) and its packages "
             "python3-jsonschema and python3-yaml (scripts/install-deps.sh --test)")

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "fixtures")

failures = []
checks = 0


def check(condition, where, message):
    global checks
    checks += 1
    if not condition:
        failures.append(f"FAIL: {where}\n  {message}")
    return condition


def fixture(path):
    with open(os.path.join(FIX, path), encoding="utf-8") as f:
        return f.read()


def fixture_lines(path):
    return [line.rstrip("\n") for line in fixture(path).splitlines() if line.strip() and not line.startswith("#")]


# ---------------------------------------------------------------------------------------------
# DeepSpeed. Top-level keys and types: deepspeed.ai/docs/config-json and the names in
# deepspeed/runtime/constants.py (TRAIN_BATCH_SIZE, TRAIN_MICRO_BATCH_SIZE_PER_GPU,
# GRADIENT_ACCUMULATION_STEPS, GRADIENT_CLIPPING, STEPS_PER_PRINT, FP16_* with the FP16_FORMAT
# block, BFLOAT16 "bf16" and its old name "bfloat16", ZERO_OPTIMIZATION, ACT_CHKPT_* of
# activation_checkpointing/config.py). zero_optimization, offload_* and tensor_parallel are
# pydantic models with extra="forbid" (runtime/config_utils.py DeepSpeedConfigModel): their
# keys are exactly the fields and aliases of DeepSpeedZeroConfig (runtime/zero/config.py),
# DeepSpeedZeroOffload{Param,Optimizer}Config (runtime/zero/offload_config.py) and
# TPTrainingConfig (runtime/tensor_parallel/config.py), read from the fixture excerpt
# deepspeed/config_model_fields.txt. "auto" is Hugging Face's placeholder, which its
# Trainer fills before DeepSpeed reads the file (transformers integrations/deepspeed.py);
# the batch rule below requires integers, so an "auto" from mlsize fails there.
# ---------------------------------------------------------------------------------------------
def model_fields(cls):
    keys = []
    for line in fixture_lines("deepspeed/config_model_fields.txt"):
        words = line.split()
        if words[0] == cls:
            keys += words[1:]
    return keys


def closed(properties, keys=None):
    """An object with these properties and no others (pydantic extra="forbid")."""
    props = dict(properties)
    for key in keys or []:
        props.setdefault(key, {})
    return {"type": "object", "properties": props, "additionalProperties": False}


AUTO = {"const": "auto"}
INT = {"type": "integer"}
NUM = {"type": "number"}
BOOL = {"type": "boolean"}


def auto_or(schema):
    return {"anyOf": [schema, AUTO]}


def deepspeed_schema():
    offload_devices = [w.split()[1] for w in fixture_lines("deepspeed/config_model_fields.txt")
                       if w.startswith("OffloadDeviceEnum ")]
    offload = lambda cls: closed({"device": {"enum": offload_devices}, "pin_memory": BOOL}, model_fields(cls))
    zero = closed({
        "stage": {"enum": [0, 1, 2, 3]},  # ZeroStageEnum
        "overlap_comm": BOOL, "contiguous_gradients": BOOL,
        "offload_optimizer": offload("DeepSpeedZeroOffloadOptimizerConfig"),
        "offload_param": offload("DeepSpeedZeroOffloadParamConfig"),
    }, model_fields("DeepSpeedZeroConfig"))
    # The ZeRO-3 key stage3_gather_fp16_weights_on_model_save is an old field name, itself a field.
    fp16 = {"type": "object", "properties": {
        "enabled": auto_or(BOOL), "auto_cast": BOOL, "loss_scale": NUM, "initial_scale_power": INT,
        "loss_scale_window": INT, "hysteresis": INT, "consecutive_hysteresis": BOOL, "min_loss_scale": NUM,
        "fp16_master_weights_and_grads": BOOL}, "additionalProperties": False}
    bf16 = {"type": "object", "properties": {
        "enabled": auto_or(BOOL), "check_grad_overflow": BOOL, "immediate_grad_update": BOOL,
        "bf16_master_weights_and_grads": BOOL, "bf16_optimizer_states": BOOL}, "additionalProperties": False}
    activation = {"type": "object", "properties": {
        "partition_activations": BOOL, "number_checkpoints": {"type": ["integer", "null"]},
        "contiguous_memory_optimization": BOOL, "synchronize_checkpoint_boundary": BOOL, "profile": BOOL,
        "cpu_checkpointing": BOOL}, "additionalProperties": False}
    return {
        "type": "object",
        "properties": {
            "train_batch_size": auto_or({"type": "integer", "minimum": 1}),
            "train_micro_batch_size_per_gpu": auto_or({"type": "integer", "minimum": 1}),
            "gradient_accumulation_steps": auto_or({"type": "integer", "minimum": 1}),
            "gradient_clipping": auto_or(NUM),
            "steps_per_print": INT,
            "wall_clock_breakdown": BOOL,
            "prescale_gradients": BOOL,
            "fp16": fp16, "bf16": bf16, "bfloat16": bf16,
            "zero_optimization": zero,
            "activation_checkpointing": activation,
            "tensor_parallel": closed({"autotp_size": {"type": "integer", "minimum": 0}},
                                      model_fields("TPTrainingConfig")),
            # Named by the docs page; their insides are the optimizer's and scheduler's own.
            "optimizer": {"type": "object", "required": ["type"]},
            "scheduler": {"type": "object", "required": ["type"]},
        },
        # The page documents many more top-level sections (comms_logger, flops_profiler, ...)
        # that DeepSpeed reads with .get(); mlsize writes none of them, so the check is closed.
        "additionalProperties": False,
    }


# ---------------------------------------------------------------------------------------------
# Accelerate. The file's keys are the fields of ClusterConfig and BaseConfig
# (src/accelerate/commands/config/config_args.py), whose from_yaml_file rejects any other key
# ("had unknown keys"); fixture accelerate/config_args_fields.txt. distributed_type is a
# DistributedType (utils/dataclasses.py); mixed_precision one of launch.py's --mixed_precision
# choices. launch.py copies fsdp_config's keys to args.fsdp_<key> and deepspeed_config's to
# args.<key> (the LOCAL_MACHINE branch of _validate_launch_command): each must be one of
# launch.py's options (fixture accelerate/launch_flags.txt), with the FSDP_* choices of
# utils/constants.py (fixture accelerate/choices.txt).
# ---------------------------------------------------------------------------------------------
def accelerate_lists():
    fields = [line.split()[1] for line in fixture_lines("accelerate/config_args_fields.txt")]
    choices = {}
    for line in fixture_lines("accelerate/choices.txt"):
        name, value = line.split(maxsplit=1)
        choices.setdefault(name, []).append(value)
    options, option_choices = parse_argparse_list("accelerate/launch_flags.txt")
    return fields, choices, options, option_choices


def parse_argparse_list(path):
    """FLAG [ALIAS...] [flag] [choices=A,B] lines: {name: takes_value}, {name: choices}."""
    options, choices = {}, {}
    for line in fixture_lines(path):
        words = line.split()
        names = [w for w in words if w.startswith("-")]
        takes_value = "flag" not in words
        found = [w[len("choices="):].split(",") for w in words if w.startswith("choices=")]
        for name in names:
            options[name] = takes_value
            if found:
                choices[name] = found[0]
    return options, choices


def accelerate_schema():
    fields, choices, options, option_choices = accelerate_lists()
    launch_keys = {name[2:] for name in options if name.startswith("--")}
    fsdp_keys = sorted(k for k in launch_keys if k.startswith("fsdp_"))
    fsdp = {"type": "object", "propertyNames": {"enum": fsdp_keys}, "properties": {
        "fsdp_sharding_strategy": {"enum": choices["FSDP_SHARDING_STRATEGY"]},
        "fsdp_auto_wrap_policy": {"enum": choices["FSDP_AUTO_WRAP_POLICY"]},
        "fsdp_backward_prefetch": {"enum": choices["FSDP_BACKWARD_PREFETCH"]},
        "fsdp_state_dict_type": {"enum": choices["FSDP_STATE_DICT_TYPE"]},
        "fsdp_offload_params": BOOL, "fsdp_activation_checkpointing": BOOL, "fsdp_use_orig_params": BOOL,
        "fsdp_sync_module_states": BOOL, "fsdp_cpu_ram_efficient_loading": BOOL, "fsdp_forward_prefetch": BOOL,
    }}
    deepspeed = {"type": "object", "propertyNames": {"enum": sorted(launch_keys)}, "properties": {
        "zero_stage": {"enum": [0, 1, 2, 3]},
        # launch.py's help: "where (none|cpu|nvme) to offload"
        "offload_optimizer_device": {"enum": ["none", "cpu", "nvme"]},
        "offload_param_device": {"enum": ["none", "cpu", "nvme"]},
        "gradient_accumulation_steps": auto_or({"type": "integer", "minimum": 1}),
        "gradient_clipping": auto_or(NUM), "zero3_init_flag": BOOL,
        "deepspeed_multinode_launcher": {"enum": choices["DEEPSPEED_MULTINODE_LAUNCHERS"]},
        "deepspeed_config_file": {"type": "string"},
    }}
    properties = {key: {} for key in fields}
    properties.update({
        "compute_environment": {"enum": ["LOCAL_MACHINE", "AMAZON_SAGEMAKER"]},  # ComputeEnvironment
        "distributed_type": {"enum": choices["DistributedType"]},
        "mixed_precision": {"enum": option_choices["--mixed_precision"]},
        "num_machines": {"type": "integer", "minimum": 1}, "num_processes": INT, "machine_rank": INT,
        "main_training_function": {"type": "string"}, "rdzv_backend": {"type": "string"},
        "same_network": BOOL, "use_cpu": BOOL, "main_process_ip": {"type": "string"},
        "main_process_port": INT, "fsdp_config": fsdp, "deepspeed_config": deepspeed,
        "fp8_config": {"type": "object"},
    })
    return {"type": "object", "properties": properties, "additionalProperties": False}


# ---------------------------------------------------------------------------------------------
# SkyPilot: its own schemas (SkyPilotValidator, below), generated from sky/utils/schemas.py;
# every emitted task also has workdir "." and a setup that installs what its run needs.
# Accelerator names: `sky show-gpus -a` (fixture skypilot/show-gpus-all.txt).
# ---------------------------------------------------------------------------------------------


class SkyPilotValidator:
    """SkyPilot's own schemas, generated from sky/utils/schemas.py
    (skypilot-org/skypilot@00052dfe0d132c5ad6aa9a175572b0695f747c80; tests/data/skypilot/README.md):
    get_task_schema() for the task, then get_resources_schema() for its `resources:` and
    get_service_schema() for its `service:`, which the task schema leaves as objects, as
    SkyPilot checks them (Task.from_yaml_config, Resources.from_yaml_config,
    SkyServiceSpec.from_yaml_config). Its validator is Draft 7 with the keyword
    case_insensitive_enum (sky/utils/validator.py), whatever `$schema` says."""

    def __init__(self):
        def case_insensitive_enum(validator, enums, instance, schema):
            del validator, schema
            if not isinstance(instance, str) or instance.lower() not in [e.lower() for e in enums]:
                yield jsonschema.ValidationError(f"{instance!r} is not one of {enums!r}")

        cls = jsonschema.validators.extend(jsonschema.Draft7Validator,
                                           {"case_insensitive_enum": case_insensitive_enum})

        def load(name):
            with open(os.path.join(HERE, "..", "data", "skypilot", name), encoding="utf-8") as f:
                return cls(json.load(f))

        self.task, self.resources, self.service = (load(f"{n}.schema.json") for n in ("task", "resources", "service"))

    def iter_errors(self, doc):
        yield from self.task.iter_errors(doc)
        if not isinstance(doc, dict):
            return
        for key, validator in (("resources", self.resources), ("service", self.service)):
            if isinstance(doc.get(key), dict):
                for error in validator.iter_errors(doc[key]):
                    error.path.appendleft(key)
                    yield error


def skypilot_schema():
    return SkyPilotValidator()


def skypilot_accelerators():
    names = set()
    for line in fixture("skypilot/show-gpus-all.txt").splitlines():
        m = re.match(r"^(\S+(?: \S+)*?)\s{2,}(\d[\d, ]*)\s*$", line)
        if m:
            names.add(m.group(1))
    # `sky show-gpus -a` lists TPU slices up to 8 chips; SkyPilot's own GCP price file
    # (catalogs/v9/gcp/vms.csv, tests/data/skypilot-v9) names every slice it launches.
    with open(os.path.join(HERE, "..", "data", "skypilot-v9", "gcp", "vms.csv"), encoding="utf-8") as f:
        names.update(row["AcceleratorName"] for row in csv.DictReader(f) if row["AcceleratorName"].startswith("tpu-"))
    return names


# ---------------------------------------------------------------------------------------------
# Command lines: torchrun's options (torch/distributed/run.py get_args_parser, fixture
# torchrun/run_py_args.txt), Megatron-LM's (megatron/training/arguments.py, fixture
# megatron/arguments_flags.txt), vLLM's (vllm/engine/arg_utils.py EngineArgs.add_cli_args and
# the OpenAI server's FrontendArgs, fixture vllm/engine_args_flags.txt; --quantization values
# from quantization/__init__.py QuantizationMethods, fixture vllm/quantization_methods.txt).
# Hugging Face Trainer flags: TrainingArguments' fields (transformers training_args.py) and
# FSDPOption's values (trainer_utils.py), listed below.
# ---------------------------------------------------------------------------------------------
# transformers src/transformers/training_args.py, TrainingArguments fields that mlsize passes;
# HfArgumentParser spells each field --field_name (hf_argparser.py, _parse_dataclass_field).
TRAINING_ARGUMENTS = {
    "--per_device_train_batch_size": True, "--gradient_accumulation_steps": True, "--bf16": False,
    "--fp16": False, "--gradient_checkpointing": False, "--max_grad_norm": True, "--deepspeed": True,
    "--fsdp": True, "--fsdp_config": True,
}
# timm's train.py (huggingface/pytorch-image-models, train.py, its argparse groups "Dataset",
# "Model", "Device", "Optimizer", "Learning rate schedule" and "Misc": -j/--workers): the
# options mlsize writes, each with its values (--input-size takes three, nargs=3).
TIMM_TRAIN_ARGUMENTS = {
    "--data-dir": True, "--model": True, "--input-size": 3, "-b": True, "--grad-accum-steps": True,
    "--epochs": True, "-j": True, "--amp": False, "--amp-dtype": True, "--channels-last": False,
    "--grad-checkpointing": False, "--opt": True, "--momentum": True,
}
TIMM_AMP_DTYPES = {"float16", "bfloat16"}
# transformers src/transformers/trainer_utils.py, class FSDPOption
FSDP_OPTIONS = {"full_shard", "shard_grad_op", "no_shard", "hybrid_shard", "hybrid_shard_zero2", "offload",
                "auto_wrap"}


def shell_words(text):
    """The words of a shell command: lines joined at backslashes, comments dropped."""
    joined = re.sub(r"\\\n", " ", text)
    lines = [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return lines


def parse_options(words, options, where, tool):
    """Walks --flag[=value] / --flag value words against {name: takes_value}; returns {flag: value}."""
    found = {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("-"):
            return found, words[i:]
        name, eq, value = word.partition("=")
        if not check(name in options, where, f"{name} is not an option of {tool}"):
            i += 1
            continue
        if options[name] is True:
            if not eq:
                i += 1
                value = words[i] if i < len(words) else None
            check(value is not None, where, f"{name} takes a value in {tool}")
        elif options[name]:  # a count of values (argparse nargs)
            value = words[i + 1:i + 1 + options[name]]
            check(len(value) == options[name], where, f"{name} takes {options[name]} values in {tool}")
            i += options[name]
        else:
            check(not eq, where, f"{name} takes no value in {tool}")
            value = True
        found[name] = value
        i += 1
    return found, []


def expand(value):
    """A shell word's value with ${VAR:...} / $VAR left as a marker."""
    return re.sub(r"\$\{?[A-Z_]+[^}]*\}?", "$VAR", value) if isinstance(value, str) else value


# ---------------------------------------------------------------------------------------------
# Running mlsize
# ---------------------------------------------------------------------------------------------
MLSIZE = None
SOURCE = None
TAMPER = False
tampered = False
commands_run = 0


def run(args):
    global commands_run
    commands_run += 1
    env = dict(os.environ)
    env.pop("MLSIZE_CATALOG", None)
    p = subprocess.run([MLSIZE] + args, cwd=SOURCE, capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


def first_plan(args):
    """The plan an --emit command writes: the same command's JSON, #rank (recommend) or the plan."""
    rank = 1
    plain = []
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ("--emit", "--rank"):
            if a == "--rank":
                rank = int(args[i + 1])
            skip = True
            continue
        plain.append(a)
    code, out, err = run(plain + ["--format", "json"])
    if code != 0:
        return None
    doc = json.loads(out)
    plan = doc["recommendations"][rank - 1] if args[0] == "recommend" else doc.get("plan", doc)
    plan["_workload"] = doc.get("workload") or {}
    return plan


def world_of(plan):
    s = plan["strategy"]
    return plan["device_count"], s["data_parallel"], s["tensor_parallel"], s["pipeline_parallel"]


def micro_steps(plan):
    comm = (plan.get("time") or {}).get("communication") or {}
    return comm.get("micro_steps_per_step")


# ---------------------------------------------------------------------------------------------
# Per-kind checks of one output
# ---------------------------------------------------------------------------------------------
def check_deepspeed(where, text, plan, schema):
    global tampered
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        check(False, where, f"not JSON: {e}")
        return
    if TAMPER and not tampered:
        config["train_batch_size"] += 1
        tampered = True
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(config), key=str)
    check(not errors, where, "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                                       for e in errors[:3]))
    devices, dp, tp, pp = world_of(plan)
    tb, mb, ga = (config.get(k) for k in ("train_batch_size", "train_micro_batch_size_per_gpu",
                                          "gradient_accumulation_steps"))
    # deepspeed/runtime/config.py, _batch_assertion: train_batch == micro_batch * grad_acc *
    # world_size, world_size being the data-parallel one (mpu.get_data_parallel_world_size()).
    check(isinstance(tb, int) and tb == mb * ga * dp, where,
          f"_batch_assertion: train_batch_size {tb} != micro {mb} × accumulation {ga} × data-parallel {dp}")
    check(dp * tp * pp == devices, where, f"data {dp} × tensor {tp} × pipeline {pp} != {devices} devices")
    s = plan["strategy"]
    zero = config["zero_optimization"]
    check(zero["stage"] == s["zero_stage"], where, f"stage {zero['stage']} != plan's ZeRO-{s['zero_stage']}")
    if s.get("micro_batch"):
        check(mb == s["micro_batch"], where, f"micro-batch {mb} != plan's {s['micro_batch']}")
    if micro_steps(plan) is not None:
        check(ga == micro_steps(plan), where, f"accumulation {ga} != plan's micro_steps_per_step {micro_steps(plan)}")
    check(("offload_optimizer" in zero) == (s["offload"] != "none"), where, f"offload_optimizer vs {s['offload']}")
    check(("offload_param" in zero) == (s["offload"] == "optimizer+params"), where, f"offload_param vs {s['offload']}")
    if s["offload"] == "optimizer+params":
        check(zero["stage"] == 3, where, "offload_param needs ZeRO-3 (DeepSpeed: stage 3 only)")
    for section in ("offload_optimizer", "offload_param"):
        if section in zero:
            check(zero[section]["device"] == "cpu", where, f"{section} device {zero[section]['device']}: host RAM planned")
    precision = plan["precision"]
    check(("fp16" in config) == (precision == "fp16-mixed"), where, f"fp16 section vs precision {precision}")
    check(("bf16" in config) == (precision in ("bf16-mixed", "bf16", "fp8-mixed")), where,
          f"bf16 section vs precision {precision}")
    check(not (config.get("fp16", {}).get("enabled") and config.get("bf16", {}).get("enabled")), where,
          "fp16 and bf16 both enabled (DeepSpeed asserts one: runtime/config.py)")
    check((config.get("tensor_parallel", {}).get("autotp_size", 1)) == tp, where, f"autotp_size vs tensor {tp}")
    check(("activation_checkpointing" in config) == (s["recompute"] != "none"), where, "activation_checkpointing")
    return config


def check_accelerate(where, text, plan, schema):
    try:
        config = yaml.safe_load(text)
    except yaml.YAMLError as e:
        check(False, where, f"not YAML: {e}")
        return
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(config), key=str)
    check(not errors, where, "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                                       for e in errors[:3]))
    devices = plan["device_count"]
    per_node = plan["offering"]["devices_per_unit"] if plan.get("offering") else None
    # accelerate launch: num_processes is the total across machines (multi_node.yaml's comment)
    check(config["num_processes"] == devices, where, f"num_processes {config['num_processes']} != {devices} devices")
    if per_node:
        check(config["num_processes"] == config["num_machines"] * per_node, where,
              f"num_processes != num_machines {config['num_machines']} × {per_node} per node")
    kind = config["distributed_type"]
    check(("fsdp_config" in config) == (kind == "FSDP"), where, f"fsdp_config with distributed_type {kind}")
    check(("deepspeed_config" in config) == (kind == "DEEPSPEED"), where, f"deepspeed_config with {kind}")
    s = plan["strategy"]
    # Offload plans are timed as DeepSpeed runs them (DeepSpeedCPUAdam): never FSDP's CPU offload.
    check(s["offload"] == "none" or kind == "DEEPSPEED", where, f"offload {s['offload']} under {kind}")
    if kind == "FSDP":
        expected = "FULL_SHARD" if s["zero_stage"] == 3 else "SHARD_GRAD_OP"
        check(config["fsdp_config"]["fsdp_sharding_strategy"] == expected, where, f"sharding != {expected}")
        check(config["fsdp_config"]["fsdp_offload_params"] is False, where, "FSDP offload")
    if kind == "DEEPSPEED":
        ds = config["deepspeed_config"]
        check(ds["zero_stage"] == s["zero_stage"], where, "zero_stage != plan's")
        # accelerate's DeepSpeed plugin: offload_{optimizer,param}_device none|cpu|nvme.
        check(ds["offload_optimizer_device"] == ("none" if s["offload"] == "none" else "cpu"), where,
              f"offload_optimizer_device {ds['offload_optimizer_device']} vs {s['offload']}")
        check(ds["offload_param_device"] == ("cpu" if s["offload"] == "optimizer+params" else "none"), where,
              f"offload_param_device {ds['offload_param_device']} vs {s['offload']}")
        if micro_steps(plan) is not None:
            check(ds["gradient_accumulation_steps"] == micro_steps(plan), where, "accumulation != plan's")
        check(ds.get("deepspeed_multinode_launcher") is None or config["num_machines"] > 1, where, "launcher on 1 node")
    mp = {"fp16-mixed": "fp16", "fp8-mixed": "fp8", "bf16-mixed": "bf16", "bf16": "bf16", "fp32": "no"}
    check(config["mixed_precision"] == mp.get(plan["precision"]), where,
          f"mixed_precision {config['mixed_precision']} vs plan's {plan['precision']}")
    check(s["tensor_parallel"] == 1 and s["pipeline_parallel"] == 1, where, "model-parallel plan accepted")


def check_sh(where, text):
    p = subprocess.run(["sh", "-n"], input=text, capture_output=True, text=True)
    check(p.returncode == 0, where, f"sh -n: {p.stderr.strip()}")


def check_torchrun_command(where, line, plan, torch_options, megatron_options, megatron_choices):
    words = shlex.split(line)
    if not check(words and words[0] == "torchrun", where, f"not a torchrun command: {line[:60]}"):
        return
    found, rest = parse_options(words[1:], torch_options, where, "torchrun (torch/distributed/run.py)")
    check(bool(rest), where, "torchrun without a training script")
    if not rest:
        return
    devices, dp, tp, pp = world_of(plan)
    nproc = expand(found.get("--nproc-per-node", found.get("--nproc_per_node")))
    nnodes = expand(found.get("--nnodes", "1"))
    if nproc != "$VAR" and nnodes != "$VAR":
        check(int(nproc) * int(nnodes) == devices, where, f"--nnodes {nnodes} × --nproc-per-node {nproc} != {devices}")
    if "--standalone" not in found and nnodes != "1" and nnodes != "$VAR":
        check("--rdzv-endpoint" in found or "--master-addr" in found, where, "several nodes without a rendezvous")
    script, args = rest[0], rest[1:]
    s = plan["strategy"]
    if script == "pretrain_gpt.py":
        opts, extra = parse_options(args, megatron_options, where, "Megatron-LM (megatron/training/arguments.py)")
        check(not extra, where, f"stray words {extra}")
        for name, value in opts.items():
            if name in megatron_choices:
                check(value in megatron_choices[name], where, f"{name} {value} not in {megatron_choices[name]}")
        check(int(opts["--tensor-model-parallel-size"]) == tp and int(opts["--pipeline-model-parallel-size"]) == pp,
              where, "tensor/pipeline sizes != plan's")
        mb, gb = int(opts["--micro-batch-size"]), int(opts["--global-batch-size"])
        # megatron/core/num_microbatches_calculator.py: global batch divisible by micro × data parallel
        check(gb % (mb * dp) == 0, where, f"--global-batch-size {gb} not a multiple of micro {mb} × data {dp}")
        if micro_steps(plan) is not None:
            check(gb == mb * micro_steps(plan) * dp, where,
                  f"global {gb} != micro {mb} × accumulation {micro_steps(plan)} × data {dp}")
        check(("--use-distributed-optimizer" in opts) == (s["zero_stage"] == 1), where, "distributed optimizer")
        check(not ("--fp16" in opts and "--bf16" in opts), where, "--fp16 and --bf16 together")
    elif script == "train.py" and (plan.get("_workload") or {}).get("vision"):
        vision = plan["_workload"]["vision"]
        opts, extra = parse_options(args, TIMM_TRAIN_ARGUMENTS, where, "timm's train.py")
        check(not extra, where, f"stray words {extra}")
        check(tp == 1 and pp == 1, where, "a model-parallel plan as a timm script")
        check(int(opts["-b"]) == (s.get("micro_batch") or plan["_workload"]["micro_batch"]), where,
              "-b != the plan's images per GPU")
        check(int(opts.get("--grad-accum-steps", 1)) == (micro_steps(plan) or 1), where, "accumulation != plan's")
        check(int(opts["--epochs"]) >= plan["_workload"]["epochs"], where, "fewer epochs than the plan's")
        size = opts.get("--input-size")
        if size:
            check(size == ["3", str(vision["height"]), str(vision["width"])], where, f"--input-size {size}")
        check(opts.get("--amp-dtype", "float16") in TIMM_AMP_DTYPES, where, "--amp-dtype")
        check(("--amp" in opts) == (plan["precision"] != "fp32"), where, "--amp and the plan's precision")
        check(("--grad-checkpointing" in opts) == (s["recompute"] != "none"), where, "checkpointing != plan's")
    elif script == "train.py":
        opts, extra = parse_options(args, TRAINING_ARGUMENTS, where, "TrainingArguments (transformers)")
        check(not extra, where, f"stray words {extra}")
        check(tp == 1 and pp == 1, where, "a model-parallel plan as a Trainer script")
        if "--fsdp" in opts:
            check(set(opts["--fsdp"].split()) <= FSDP_OPTIONS, where, f"--fsdp {opts['--fsdp']}")
            check(s["zero_stage"] >= 2, where, "FSDP for ZeRO < 2")
            # Issue 48: every FSDP launch loads the checkpoint on the first rank only, which
            # needs sync_module_states (TrainingArguments' fsdp_config, a JSON string:
            # training_args.py _VALID_DICT_FIELDS; accelerate's FSDP guide).
            fsdp_config = json.loads(opts.get("--fsdp_config", "{}"))
            check(fsdp_config.get("cpu_ram_efficient_loading") is True and fsdp_config.get("sync_module_states") is True,
                  where, f"FSDP without RAM-efficient loading: --fsdp_config {fsdp_config}")
        check(("--deepspeed" in opts) == (s["zero_stage"] == 1 or s["offload"] != "none"), where,
              "--deepspeed only for ZeRO-1 and offload (DeepSpeedCPUAdam)")
        if s.get("micro_batch"):
            check(int(opts["--per_device_train_batch_size"]) == s["micro_batch"], where, "micro-batch != plan's")
        if micro_steps(plan) is not None:
            check(int(opts["--gradient_accumulation_steps"]) == micro_steps(plan), where, "accumulation != plan's")
    else:
        check(script == "python" or script.endswith(".py"), where, f"unknown script {script}")


def check_torchrun(where, text, plan, lists):
    check_sh(where, text)
    check(text.startswith("#!/bin/sh\n"), where, "no #!/bin/sh line")
    lines = shell_words(text)
    check(len(lines) == 1, where, f"{len(lines)} commands, expected one torchrun")
    if lines:
        check_torchrun_command(where, lines[0], plan, *lists)


# --quantization values that read a quantisation config from the checkpoint and stop on a
# 16-bit one ("Cannot find the config file for awq": vllm/model_executor/model_loader/
# weight_utils.py, get_quant_config). No model of the matrix is such a checkpoint, so each
# must leave MODEL to the user.
PREQUANTIZED = {"awq", "awq_marlin", "gptq", "gptq_marlin", "mxfp4"}
# What the plan's 4-bit formats are sized and timed as (docs/methodology.md#inference): GPTQ
# or AWQ checkpoints read at the bandwidth bound, which bitsandbytes' kernels are not.
INT4_KERNELS = {"int4": {"gptq_marlin"}, "gptq": {"gptq_marlin"}, "awq": {"awq_marlin"}}


def check_vllm_command(where, line, plan, vllm_options, vllm_choices, quantizations, comments=""):
    words = shlex.split(line)
    if not check(words[:2] == ["vllm", "serve"] and len(words) > 2, where, f"not vllm serve MODEL: {line[:60]}"):
        return
    opts, extra = parse_options(words[3:], vllm_options, where, "vllm serve (vllm/engine/arg_utils.py)")
    check(not extra, where, f"stray words {extra}")
    for name, value in opts.items():
        if name in vllm_choices:
            check(value in vllm_choices[name], where, f"{name} {value} not in {vllm_choices[name]}")
    model = expand(words[2])
    workload = plan.get("_workload") or {}
    quantization = opts.get("--quantization")
    if quantization:
        check(quantization in quantizations, where, f"--quantization {quantization} unknown")
    if quantization in PREQUANTIZED:
        check(model == "$VAR", where, f"--quantization {quantization} on {model}, a checkpoint of 16-bit weights")
    # A model mlsize cannot name is no path of this checkout (a config file's own path).
    check(model == "$VAR" or (not model.endswith(".json") and not os.path.exists(os.path.join(SOURCE, model))),
          where, f"the model is a local file's path: {model}")
    weight_format = workload.get("weight_format")
    device = DEVICES.get((plan.get("device") or {}).get("id"), {})
    # Marlin: NVIDIA Ampere and later, the GPUs with a bf16 rate (docs.vllm.ai, quantization
    # supported hardware).
    if weight_format in INT4_KERNELS and device.get("vendor") == "nvidia" and device_peak(device, "bf16"):
        check(quantization in INT4_KERNELS[weight_format], where,
              f"{weight_format} weights served with --quantization {quantization}, not the Marlin kernels "
              f"{sorted(INT4_KERNELS[weight_format])} the plan's decode time assumes")
    if model == "$VAR":
        check("# MODEL: " in comments, where, "${MODEL} without a comment saying what it must be")
    check_model_length(where, int(opts["--max-model-len"]), plan, workload, comments)
    s = plan["strategy"]
    check(int(opts["--tensor-parallel-size"]) == s["tensor_parallel"], where, "tensor parallel != plan's")
    per_node = plan["offering"]["devices_per_unit"] if plan.get("offering") else plan["device_count"]
    replicas = int(opts.get("--data-parallel-size", 1))
    # An expert-parallel replica is one vllm serve, TP × DP wide (docs.vllm.ai, "Expert
    # Parallel Deployment"): its devices as data-parallel ranks, the experts split over them.
    ep = s.get("expert_parallel", 1)
    check(("--enable-expert-parallel" in opts) == (ep > 1), where, f"--enable-expert-parallel for expert parallel {ep}")
    if ep > 1:
        check(replicas == ep, where, f"--data-parallel-size {replicas} != the plan's expert parallel {ep}")
    check(replicas * s["tensor_parallel"] <= max(per_node, s["tensor_parallel"]), where,
          f"{replicas} replicas × tensor {s['tensor_parallel']} > {per_node} devices of a node")
    check(0 < float(opts["--gpu-memory-utilization"]) <= 1, where, "--gpu-memory-utilization out of (0, 1]")
    for name in ("--max-num-seqs", "--max-model-len"):
        check(int(opts[name]) >= 1, where, f"{name} < 1")


def check_model_length(where, length, plan, workload, comments):
    """vLLM refuses a --max-model-len past the model's positions (vllm/config, _get_and_verify_max_len)
    and one whose sequence the KV memory cannot hold; below them, a length of exactly the mean
    request refuses every longer one. docs/launch.md#vllm: the model's context when the KV
    memory holds it, else k × the request within both."""
    check(f"# --max-model-len {length}: " in comments, where, "no comment gives the --max-model-len rule")
    load = workload.get("serving")
    if not load:
        return
    request = load["prompt_tokens"] + load["output_tokens"]
    positions = (workload.get("model") or {}).get("max_positions")
    kv_tokens = ((plan.get("serving") or {}).get("batch_capacity") or 0) * request
    check(length >= request, where, f"--max-model-len {length} < the request's {request} tokens")
    if positions:
        check(length <= positions, where, f"--max-model-len {length} > the model's {positions} positions")
    if kv_tokens:
        check(length <= max(kv_tokens, request), where, f"--max-model-len {length} > the KV memory's {kv_tokens}")
    if positions and kv_tokens >= positions:
        check(length == positions, where, f"--max-model-len {length}, not the model's {positions} the KV memory holds")
    else:
        check(length > request or kv_tokens <= request, where,
              f"--max-model-len {length} = the mean request: every longer request is refused")


def check_vllm(where, text, plan, lists):
    check_sh(where, text)
    lines = shell_words(text)
    check(len(lines) == 1, where, f"{len(lines)} commands, expected one vllm serve")
    if lines:
        check_vllm_command(where, lines[0], plan, *lists, comments=text)


def check_skypilot(where, text, plan, schema, accelerators, torch_lists, vllm_lists):
    try:
        task = yaml.safe_load(text)
    except yaml.YAMLError as e:
        check(False, where, f"not YAML: {e}")
        return
    errors = sorted(schema.iter_errors(task), key=str)
    check(not errors, where, "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                                       for e in errors[:3]))
    res = task["resources"]
    # The script run calls is in the directory sky launch runs in, synced to every node, and
    # setup installs what run needs (docs.skypilot.co, "SkyPilot YAML": workdir, setup).
    check(task.get("workdir") == ".", where, f"workdir {task.get('workdir')!r}, not the launch directory")
    setup = task.get("setup") or ""
    needs = (["vllm"] if "vllm serve" in task["run"] else []) + \
            (["torch"] if "torchrun" in task["run"] else []) + \
            (["deepspeed"] if "--deepspeed" in task["run"] else []) + \
            (["dask"] if re.search(r"^dask ", task["run"], re.M) else []) + \
            (["dask-cuda"] if "dask cuda worker" in task["run"] else [])
    for package in needs:
        check(re.search(rf"pip install [^\n]*\b{package}\b", setup) is not None, where,
              f"run needs {package} but setup does not install it: {setup!r}")
    offering = plan["offering"]
    # A serving fleet is a SkyServe service: one node a replica, `replicas` of them behind its
    # load balancer (docs.skypilot.co "Service YAML"); training and single nodes are tasks
    # of num_nodes (a cluster whose nodes run one job together).
    serving = plan["_workload"].get("task") == "inference"
    service = task.get("service")
    if serving and offering["units"] > 1:
        if check(service is not None, where, f"{offering['units']} serving nodes as one cluster, not a service"):
            check(service.get("replicas") == offering["units"], where,
                  f"service replicas {service.get('replicas')} != {offering['units']} units")
            check("ports" in res, where, "a service without resources.ports")
    else:
        check(service is None, where, "a service section for a plan that is no serving fleet")
    nodes = task.get("num_nodes", 1)
    check(nodes == (1 if service else offering["units"]), where, f"num_nodes {nodes} for {offering['units']} units")
    if "accelerators" in res:
        name, _, count = str(res["accelerators"]).partition(":")
        check(name in accelerators, where, f"accelerator {name} is not in sky show-gpus -a")
        count = int(count or 1)
        if plan["device"]["kind"] != "tpu":
            check(nodes * count * (service or {}).get("replicas", 1) == plan["device_count"], where,
                  f"num_nodes {nodes} × {count} × replicas != {plan['device_count']} devices")
    for name in ("DATA", "LABEL"):
        if f"${name}" in task["run"]:
            check(name in (task.get("envs") or {}) and task["envs"][name] is None, where,
                  f"the run reads {name} but envs does not require it ({name}: null)")
    if "${MODEL" in task["run"]:
        check("MODEL" in (task.get("envs") or {}) and task["envs"]["MODEL"] is None, where,
              "the run reads MODEL but envs does not require it (MODEL: null)")
    check(res.get("instance_type", offering["name"]) == offering["name"], where, "instance_type != offering's name")
    # One infra, or (regions priced alike) any_of the offering's regions, #1's region among them.
    infras = [res["infra"]] if "infra" in res else [choice.get("infra", "") for choice in res.get("any_of", [])]
    check(infras and not ("infra" in res and "any_of" in res), where, "no infra, or both infra and any_of")
    for infra in infras:
        check(infra.split("/")[0] in SKYPILOT_CLOUDS, where, f"infra {infra}: cloud unknown")
    region = offering.get("region")
    if region and "any_of" in res:
        check(infras[0].split("/")[1:] == [region], where, f"any_of starts with {infras[0]}, not #1's {region}")
    check(check_sh(where, task["run"]) or True, where, "")
    lines = shell_words(task["run"])
    for line in lines:
        if line.startswith("torchrun"):
            check_torchrun_command(where, line, plan, *torch_lists)
        elif line.startswith("vllm serve"):
            check_vllm_command(where, line, plan, *vllm_lists, comments=task["run"])
    return task


def trees_workers(plan):
    """Dask workers or Spark executors of a gbdt plan: one per GPU, one per CPU machine."""
    return plan["device_count"] if plan["device"]["kind"] == "gpu" else plan["compute"]["gbdt"]["machines"]


def workers_per_machine(plan):
    return trees_workers(plan) // plan["compute"]["gbdt"]["machines"]


def check_dask(where, text, plan):
    """A Python job for xgboost.dask or lightgbm.dask: it parses, asks for the plan's workers, and
    its trees are the workload's (xgboost python-package/xgboost/dask/__init__.py: train,
    DaskQuantileDMatrix; lightgbm python-package/lightgbm/dask.py: DaskLGBMRegressor)."""
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        check(False, where, f"not Python: {e}")
        return
    trees = plan["_workload"]["gbdt"]
    calls = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            calls.setdefault(name, []).append(node)
    keywords = {}
    for nodes in calls.values():
        for call in nodes:
            for kw in call.keywords:
                if isinstance(kw.value, ast.Constant):
                    keywords[kw.arg] = kw.value.value
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant):
                    keywords[k.value] = v.value
    waits = [c.args[0].value for c in calls.get("wait_for_workers", []) if c.args and isinstance(c.args[0], ast.Constant)]
    check(waits == [trees_workers(plan)], where, f"waits for {waits} workers, the plan has {trees_workers(plan)}")
    rounds = keywords.get("num_boost_round", keywords.get("n_estimators"))
    check(rounds == trees["rounds"], where, f"{rounds} rounds, the workload has {trees['rounds']}")
    check(keywords.get("max_depth") == trees["max_depth"], where, f"max_depth {keywords.get('max_depth')}")
    check(keywords.get("max_bin") == trees["bins"], where, f"max_bin {keywords.get('max_bin')} != {trees['bins']}")
    if trees["library"] == "xgboost":
        device = "cuda" if plan["device"]["kind"] == "gpu" else "cpu"
        check(keywords.get("device") == device, where, f"device {keywords.get('device')!r}, the plan runs on {device}")
        check("DaskQuantileDMatrix" in calls and "train" in calls, where, "no xgb.dask.DaskQuantileDMatrix and train")
    else:
        check(plan["device"]["kind"] == "cpu", where, "LightGBM on a GPU plan")
        check(keywords.get("tree_learner") == "data", where, "LightGBM's data-parallel learner not set")
    check("shutdown" in calls, where, "the cluster is not shut down: the SkyPilot job would never end")
    limits = re.findall(r"--memory-limit (\d+)GB", text)
    host = plan["offering"].get("host_memory_bytes")
    if host and limits:
        check(int(limits[0]) * 1e9 * workers_per_machine(plan) <= host, where,
              f"{workers_per_machine(plan)} workers × {limits[0]} GB > the machine's {host / 1e9:.0f} GB")


# spark-submit's options used, and the Spark properties (spark.apache.org/docs/latest/
# configuration.html; "Submitting Applications"); xgboost.spark's GPU settings
# (xgboost doc/tutorials/spark_estimator.rst, "Submit the PySpark application").
SPARK_SUBMIT_OPTIONS = {"--master": True, "--deploy-mode": True, "--conf": True, "--archives": True,
                        "--py-files": True, "--name": True}
SPARK_PROPERTIES = {"spark.executor.instances", "spark.executor.cores", "spark.task.cpus", "spark.executor.memory",
                    "spark.executor.pyspark.memory", "spark.executor.resource.gpu.amount",
                    "spark.task.resource.gpu.amount"}


def check_spark(where, text, plan):
    check_sh(where, text)
    lines = [line for line in shell_words(text) if line.startswith("spark-submit")]
    if not check(len(lines) == 1, where, f"{len(lines)} spark-submit commands"):
        return
    words = shlex.split(lines[0])[1:]
    confs = {}
    i = 0
    while i < len(words) and words[i].startswith("--"):
        check(words[i] in SPARK_SUBMIT_OPTIONS, where, f"{words[i]} is not a spark-submit option used here")
        if words[i] == "--conf":
            key, _, value = words[i + 1].partition("=")
            check(key in SPARK_PROPERTIES, where, f"{key} is not a Spark property")
            confs[key] = value
        i += 2
    check(words[i:] == ["job.py"], where, f"application {words[i:]}")
    check(int(confs.get("spark.executor.instances", 0)) == trees_workers(plan), where,
          f"{confs.get('spark.executor.instances')} executors, the plan has {trees_workers(plan)} workers")
    cores = int(confs.get("spark.executor.cores", 0))
    if cores:
        task_cpus = int(confs["spark.task.cpus"])
        check(task_cpus <= cores, where, "spark.task.cpus > spark.executor.cores: no task could run")
        if plan["device"]["kind"] == "cpu":
            check(task_cpus == cores, where, "a CPU executor's XGBoost task does not take its cores (nthread)")
    gb = lambda key: float(confs.get(key, "0g").rstrip("g"))
    per_executor = gb("spark.executor.memory") * 1.1 + gb("spark.executor.pyspark.memory")
    host = plan["offering"].get("host_memory_bytes")
    if host:
        check(per_executor * 1e9 * workers_per_machine(plan) <= host, where,
              f"{workers_per_machine(plan)} executors × {per_executor:.0f} GB > the machine's {host / 1e9:.0f} GB")
    if plan["device"]["kind"] == "gpu":
        check(confs.get("spark.executor.resource.gpu.amount") == "1", where, "an executor without its GPU")
        check(confs.get("spark.task.resource.gpu.amount") == "1", where, "the training task without its GPU")
    check(f"num_workers={trees_workers(plan)}" in text, where, "the estimator's num_workers is not the executors'")


# sky/skylet/constants.py ALL_CLOUDS; the ones docs/launch.md names.
# SkyPilot's clouds; seeweb is one since catalogs/v7 (skypilot-catalog's seeweb/vms.csv, whose v9
# file tests/data/skypilot-v9/seeweb/vms.csv is).
SKYPILOT_CLOUDS = {"aws", "gcp", "azure", "lambda", "runpod", "nebius", "cudo", "paperspace", "do", "kubernetes",
                   "ibm", "oci", "scp", "vsphere", "fluidstack", "vast", "hyperbolic", "seeweb"}


# ---------------------------------------------------------------------------------------------
# Fixtures: each schema accepts its tool's real files
# ---------------------------------------------------------------------------------------------
def check_fixtures(schemas, accelerators, torch_options):
    for name in ["deepspeed/ds_config_func_bs8_zero0_gas3.json", "deepspeed/sdma_allgather_ds_config_zero3.json",
                 "deepspeed/torch_compile_ds_config_z3.json", "transformers/ds_config_zero2.json",
                 "transformers/ds_config_zero3.json"]:
        errors = list(jsonschema.Draft202012Validator(schemas["deepspeed"]).iter_errors(json.loads(fixture(name))))
        check(not errors, f"fixture {name}", f"the DeepSpeed schema rejects a real config: {errors[:1]}")
    for name in ["deepspeed", "fsdp", "multi_gpu", "multi_node", "fp8"]:
        doc = yaml.safe_load(fixture(f"accelerate/{name}.yaml"))
        errors = list(jsonschema.Draft202012Validator(schemas["accelerate"]).iter_errors(doc))
        check(not errors, f"fixture accelerate/{name}.yaml", f"the Accelerate schema rejects it: {errors[:1]}")
    for name in ["train.yaml", "train-rdzv.yaml"]:
        doc = yaml.safe_load(fixture(f"skypilot/{name}"))
        errors = list(schemas["skypilot"].iter_errors(doc))
        check(not errors, f"fixture skypilot/{name}", f"the SkyPilot schema rejects it: {errors[:1]}")
        accel = str(doc["resources"]["accelerators"]).partition(":")[0]
        check(accel in accelerators, f"fixture skypilot/{name}", f"{accel} not in show-gpus-all.txt")
        # Its torchrun line: every option one torchrun defines.
        for line in shell_words(doc["run"]):
            if line.lstrip().startswith("torchrun"):
                words = shlex.split(line)
                opts, rest = parse_options(words[1:], torch_options, f"fixture skypilot/{name}", "torchrun")
                check(rest == ["main.py"] or rest[:1] == ["main.py"], f"fixture skypilot/{name}", f"script {rest}")
    # SkyPilot's own vLLM services: the short and the long readiness probe.
    for name in ["service.yaml", "vllm.sky.yaml"]:
        doc = yaml.safe_load(fixture(f"skypilot/{name}"))
        errors = list(schemas["skypilot"].iter_errors(doc))
        check(not errors, f"fixture skypilot/{name}", f"the SkyPilot schema rejects it: {errors[:1]}")
        check("service" in doc, f"fixture skypilot/{name}", "no service section")
    for name in ("H100", "A100-80GB", "L4", "tpu-v5p-16", "H100-MEGA", "H100-SXM", "A6000"):
        check(name in accelerators, "fixture skypilot/show-gpus-all.txt", f"{name} not parsed")
    # The list fixtures hold what the emitters depend on, so an empty or mis-parsed one fails.
    megatron, _ = parse_argparse_list("megatron/arguments_flags.txt")
    check(len(megatron) > 300 and "--tensor-model-parallel-size" in megatron, "fixture megatron", "too few flags")
    check(len(torch_options) > 40 and not torch_options["--standalone"], "fixture torchrun", "mis-parsed")


# ---------------------------------------------------------------------------------------------
# The matrix
# ---------------------------------------------------------------------------------------------
FT = ["--model", "llama-2-7b", "--task", "finetune", "--tokens", "1B"]
E7 = ["estimate", "--model", "llama-2-7b", "--task", "finetune", "--tokens", "1B"]
E13 = ["estimate", "--params", "13B", "--tokens", "10B"]
E1 = ["estimate", "--params", "1B", "--tokens", "1B"]
H100x8 = ["--offering", "aws-p5.48xlarge", "--count", "8"]
H100x16 = ["--offering", "aws-p5.48xlarge", "--count", "16"]
SERVE = ["--model", "llama-2-70b", "--task", "inference", "--rate", "20", "--ttft", "500ms", "--tpot", "50ms"]
OFFLOAD_8B = ["recommend", "--model", "llama-3-8b", "--task", "finetune", "--tokens", "50M", "--gpus", "h100:1"]
OFFLOAD_70B = ["recommend", "--model", "llama-2-70b", "--task", "finetune", "--tokens", "50M", "--gpus",
               "a100-40gb:8"]
SERVE_AWQ = ["--model", "llama-3-70b", "--task", "inference", "--quant", "awq", "--rate", "5", "--tpot", "50ms"]

EMITTED = [
    # The issue's done-when commands
    ["recommend"] + FT + ["--emit", "deepspeed"],
    # A fine-tune on the HF stack (issue 48): #1 is data parallel, and accelerate launches it.
    ["recommend"] + FT + ["--emit", "accelerate"],
    ["recommend"] + FT + ["--framework", "hf", "--emit", "accelerate"],
    ["recommend", "--params", "70B", "--tokens", "1T", "--emit", "skypilot"],
    ["recommend", "--params", "70B", "--tokens", "1T", "--emit", "skypilot", "--rank", "2"],
    ["recommend", "--params", "70B", "--tokens", "1T", "--emit", "torchrun"],
    ["recommend"] + FT + ["--emit", "torchrun"],
    # #1 on spot is a TPU slice, which a CUDA task cannot run (refused below): the GPUs.
    ["recommend"] + FT + ["--emit", "skypilot", "--pricing", "spot", "--kind", "gpu"],
    ["recommend"] + SERVE + ["--emit", "vllm"],
    # An expert-parallel replica of Mixtral (issue 48): --enable-expert-parallel over its DP ranks.
    ["recommend", "--model", "mixtral-8x7b", "--task", "inference", "--rate", "5", "--emit", "vllm"],
    ["recommend", "--model", "mixtral-8x7b", "--task", "inference", "--rate", "5", "--emit", "skypilot"],
    ["recommend"] + SERVE + ["--emit", "skypilot"],
    # ZeRO 0-3 and offload, each kind
    *[E1 + H100x8 + ["--zero", "0", "--emit", k] for k in ("deepspeed", "torchrun", "accelerate")],
    *[E7 + H100x8 + ["--zero", z, "--emit", k] for z in "123" for k in ("deepspeed", "torchrun", "accelerate")],
    E7 + H100x8 + ["--zero", "2", "--offload", "optimizer", "--emit", "deepspeed"],
    E7 + H100x8 + ["--zero", "2", "--offload", "optimizer", "--emit", "accelerate"],
    E7 + H100x8 + ["--zero", "2", "--offload", "optimizer", "--emit", "torchrun"],
    E7 + H100x8 + ["--zero", "3", "--offload", "optimizer+params", "--emit", "deepspeed"],
    E7 + H100x8 + ["--zero", "3", "--offload", "optimizer+params", "--emit", "torchrun"],
    E7 + H100x8 + ["--zero", "3", "--offload", "optimizer+params", "--emit", "accelerate"],
    # Precision and recomputation
    E7 + H100x8 + ["--zero", "2", "--precision", "fp16-mixed", "--emit", "deepspeed"],
    E7 + H100x8 + ["--zero", "2", "--precision", "fp16-mixed", "--emit", "accelerate"],
    E7 + H100x8 + ["--zero", "2", "--precision", "fp16-mixed", "--emit", "torchrun"],
    E7 + H100x8 + ["--zero", "2", "--precision", "fp8-mixed", "--emit", "deepspeed"],
    E7 + H100x8 + ["--zero", "2", "--precision", "fp8-mixed", "--emit", "accelerate"],
    E7 + H100x8 + ["--zero", "3", "--precision", "fp32", "--emit", "torchrun"],
    E7 + H100x8 + ["--zero", "3", "--precision", "bf16", "--emit", "deepspeed"],
    E7 + H100x8 + ["--zero", "2", "--recompute", "full", "--emit", "deepspeed"],
    E7 + H100x8 + ["--zero", "3", "--recompute", "selective", "--emit", "accelerate"],
    # Tensor and pipeline parallel: Megatron-LM, DeepSpeed AutoTP, the pipeline engine
    E13 + H100x16 + ["--tp", "8", "--emit", "torchrun"],
    E13 + H100x16 + ["--tp", "2", "--zero", "1", "--emit", "torchrun"],
    E13 + H100x16 + ["--tp", "2", "--pp", "2", "--zero", "1", "--emit", "torchrun"],
    E13 + H100x16 + ["--pp", "2", "--zero", "1", "--emit", "torchrun"],
    E13 + H100x16 + ["--tp", "8", "--recompute", "full", "--precision", "fp8-mixed", "--emit", "torchrun"],
    E13 + H100x16 + ["--tp", "2", "--zero", "2", "--emit", "deepspeed"],
    E13 + H100x16 + ["--tp", "8", "--emit", "deepspeed"],
    E13 + H100x16 + ["--pp", "2", "--zero", "1", "--emit", "deepspeed"],
    # Several nodes
    E13 + H100x16 + ["--zero", "3", "--emit", "accelerate"],
    E13 + H100x16 + ["--zero", "3", "--emit", "deepspeed"],
    E13 + H100x16 + ["--zero", "2", "--offload", "optimizer", "--emit", "accelerate"],
    E13 + H100x16 + ["--zero", "3", "--emit", "torchrun"],
    E13 + H100x16 + ["--zero", "3", "--emit", "skypilot"],
    E13 + H100x16 + ["--tp", "8", "--emit", "skypilot", "--pricing", "spot"],
    # A plan named by its device alone
    E7 + ["--device", "h100-sxm", "--count", "16", "--zero", "2", "--emit", "deepspeed"],
    E7 + ["--device", "h100-sxm", "--count", "16", "--zero", "2", "--emit", "torchrun"],
    # One device: Accelerate's NO and fp32's "no" stay strings (YAML 1.1 reads them plain as false)
    ["estimate", "--params", "1B", "--tokens", "1B", "--gpus", "h100:1", "--emit", "accelerate"],
    ["estimate", "--params", "1B", "--tokens", "1B", "--gpus", "h100:1", "--precision", "fp32", "--emit", "accelerate"],
    # LoRA / QLoRA
    ["estimate", "--model", "llama-3-8b", "--task", "lora", "--data", "1GB", "--gpus", "h100:8", "--zero", "2",
     "--emit", "accelerate"],
    ["recommend", "--model", "llama-2-7b", "--task", "qlora", "--tokens", "100M", "--emit", "deepspeed"],
    # Offload plans the search ranks first (docs/methodology.md#offload-in-the-search): one H100
    # and an 8B full fine-tune (ZeRO-Offload), eight A100 40GB and 70B (ZeRO-Infinity).
    *[OFFLOAD_8B + ["--emit", kind] for kind in ("deepspeed", "accelerate", "torchrun")],
    *[OFFLOAD_70B + ["--emit", kind] for kind in ("deepspeed", "accelerate")],
    ["recommend", "--model", "llama-2-7b", "--task", "lora", "--tokens", "100M", "--emit", "skypilot"],
    # Serving
    ["recommend"] + SERVE + ["--quant", "awq", "--emit", "vllm"],
    ["recommend"] + SERVE + ["--kv-cache-dtype", "fp8", "--emit", "vllm"],
    ["recommend"] + SERVE + ["--quant", "fp8", "--emit", "skypilot", "--pricing", "spot"],
    ["recommend", "--model", "llama-2-7b", "--task", "inference", "--rate", "5", "--quant", "int4", "--emit", "vllm"],
    ["estimate", "--model", "llama-2-70b", "--task", "inference", "--offering", "aws-p5.48xlarge", "--tp", "8",
     "--emit", "vllm"],
    ["estimate", "--model", "llama-2-70b", "--task", "inference", "--offering", "aws-p5.48xlarge", "--tp", "4",
     "--emit", "vllm"],
    ["estimate", "--model", "llama-2-7b", "--task", "inference", "--offering", "aws-p5.48xlarge", "--quant", "fp16",
     "--emit", "skypilot"],
    # Issue 27: pre-quantised checkpoints, 4-bit kernels, unnamed models, fleets as services
    ["recommend"] + SERVE_AWQ + ["--emit", "vllm"],
    ["recommend"] + SERVE_AWQ + ["--emit", "skypilot"],
    ["recommend"] + SERVE + ["--quant", "gptq", "--emit", "skypilot"],
    ["estimate", "--model", "llama-2-7b", "--task", "inference", "--rate", "5", "--quant", "int4", "--offering",
     "aws-g5.2xlarge", "--emit", "vllm"],
    ["estimate", "--model-config", "data/models/mistral-7b.json", "--task", "inference", "--rate", "5",
     "--offering", "aws-p5.48xlarge", "--emit", "vllm"],
    ["estimate", "--model-config", "data/models/mistral-7b.json", "--task", "inference", "--rate", "5",
     "--offering", "aws-p5.48xlarge", "--emit", "skypilot"],
    # Issue 33: gradient-boosted trees as Dask and Spark jobs, across machines and on one
    ["recommend", "--task", "gbdt", "--data", "2TB", "--emit", "dask"],
    ["recommend", "--task", "gbdt", "--data", "2TB", "--emit", "spark"],
    ["recommend", "--task", "gbdt", "--data", "2TB", "--emit", "skypilot"],
    ["recommend", "--task", "gbdt", "--data", "2TB", "--provider", "aws", "--emit", "dask", "--rank", "3"],
    ["recommend", "--task", "gbdt", "--data", "500GB", "--library", "lightgbm", "--emit", "dask"],
    ["recommend", "--task", "gbdt", "--data", "500GB", "--library", "lightgbm", "--emit", "skypilot"],
    ["recommend", "--task", "gbdt", "--data", "10GB", "--library", "sklearn", "--emit", "skypilot"],
    ["estimate", "--task", "gbdt", "--data", "2TB", "--offering", "aws-x2idn.32xlarge", "--count", "2", "--emit", "spark"],
    ["estimate", "--task", "gbdt", "--data", "2TB", "--offering", "aws-x2idn.32xlarge", "--count", "2", "--emit", "dask"],
    ["estimate", "--task", "gbdt", "--data", "20GB", "--offering", "aws-g6e.12xlarge", "--emit", "dask"],
    # Issue 47: vision models train with timm's train.py under torchrun
    ["recommend", "--model", "resnet-50", "--images", "1.28M", "--epochs", "90", "--emit", "torchrun"],
    ["estimate", "--model", "vit-b-16", "--images", "1.28M", "--epochs", "300", "--offering", "aws-p4d.24xlarge",
     "--emit", "skypilot"],
    ["estimate", "--model", "vit-b-16", "--task", "finetune", "--images", "100k", "--epochs", "10", "--resolution",
     "384", "--offering", "aws-p4d.24xlarge", "--emit", "torchrun"],
]

# Each: (command, a kind the message must name as the alternative)
REFUSED = [
    (E13 + H100x16 + ["--tp", "8", "--emit", "accelerate"], "torchrun"),
    (E13 + H100x16 + ["--pp", "2", "--zero", "1", "--emit", "accelerate"], "torchrun"),
    (["recommend"] + FT + ["--emit", "vllm"], "deepspeed"),
    # With --framework megatron #1 pipelines 2 stages over a 2-GPU PCIe slice (issue 27's
    # conservative link): accelerate runs no pipeline, and names the launchers that do.
    (["recommend"] + FT + ["--framework", "megatron", "--emit", "accelerate"], "torchrun"),
    (["recommend"] + SERVE + ["--emit", "deepspeed"], "vllm"),
    (["recommend"] + FT + ["--emit", "skypilot", "--pricing", "spot"], "--kind gpu"),
    (["recommend", "--model", "llama-2-13b", "--task", "finetune", "--tokens", "100M", "--provider", "aws-sagemaker",
      "--emit", "deepspeed"], "--kind gpu"),
    (["recommend"] + SERVE + ["--emit", "torchrun"], "vllm"),
    (["recommend"] + SERVE + ["--emit", "accelerate"], "vllm"),
    (E13 + H100x16 + ["--tp", "2", "--zero", "2", "--emit", "torchrun"], "deepspeed"),
    (E13 + H100x16 + ["--tp", "2", "--offload", "optimizer", "--emit", "torchrun"], "deepspeed"),
    (E13 + H100x16 + ["--tp", "2", "--pp", "2", "--zero", "1", "--emit", "deepspeed"], "torchrun"),
    (E7 + ["--device", "h100-sxm", "--count", "8", "--zero", "2", "--emit", "skypilot"], "--offering"),
    (["recommend", "--model", "llama-2-70b", "--task", "inference", "--quant", "q4_k_m", "--emit", "vllm"], None),
    (["recommend"] + SERVE + ["--kv-cache-dtype", "int8", "--emit", "vllm"], "fp8"),
    (["recommend"] + FT + ["--emit", "deepspeed", "--rank", "1000"], None),
    (["recommend"] + FT + ["--emit", "deepspeed", "--format", "json"], "--format"),
    (["recommend"] + FT + ["--rank", "2"], "--emit"),
    (["recommend"] + FT + ["--emit", "slurm"], "deepspeed"),
    (["recommend"] + FT + ["--emit", "dask"], "deepspeed"),
    (["recommend", "--task", "gbdt", "--data", "20GB", "--emit", "deepspeed"], "dask"),
    (["recommend", "--task", "gbdt", "--data", "20GB", "--emit", "vllm"], "spark"),
    (["recommend", "--task", "gbdt", "--data", "20GB", "--library", "lightgbm", "--emit", "spark"], "dask"),
    (["recommend", "--task", "gbdt", "--data", "20GB", "--library", "sklearn", "--emit", "dask"], "skypilot"),
    (["recommend", "--model", "resnet-50", "--images", "1M", "--emit", "deepspeed"], "torchrun"),
    (["recommend", "--model", "yolov8m", "--images", "118k", "--emit", "torchrun"], None),
    (["recommend", "--model", "resnet-50", "--task", "inference", "--images", "10M", "--emit", "torchrun"], None),
]


# Names mlsize gives that the fixture's `sky show-gpus -a` (an older snapshot of SkyPilot's
# docs) does not list yet: RunPod's H200 SXM, which later `sky show-gpus -a --cloud runpod`
# output lists as H200-SXM (fixtures/README.md), and B300, which skypilot-catalog v9's
# aws/vms.csv names for p6-b300.48xlarge (tests/data/skypilot-v9/aws/vms.csv). Any other
# unknown name fails.
NEWER_THAN_FIXTURE = {"H200-SXM", "B300"}


DEVICES = {}  # the catalogue's devices by id (`mlsize catalog list --format json`)


def device_peak(device, dtype):
    peaks = device.get("peak_tflops") or device.get("peaks") or {}
    return peaks.get(dtype) if isinstance(peaks, dict) else None


def cloud_sweep():
    """One --emit skypilot serving command per (cloud provider, device) of the catalogue."""
    code, out, _ = run(["catalog", "list", "--format", "json"])
    if code != 0:
        return []
    catalog = json.loads(out)
    DEVICES.update({d["id"]: d for d in catalog["devices"]})
    # CPU offerings are left out: the serving command is vLLM's, for accelerators. (Since
    # CPUs got peaks, their smallest offering is tried and refused on memory, not on precision.)
    cpus = {d["id"] for d in catalog["devices"] if d.get("kind") == "cpu"}
    seen = {}
    for o in catalog["offerings"]:
        if o.get("kind") == "cloud" and o.get("device") and o["device"] not in cpus:
            seen.setdefault((o["provider"], o["device"]), o["id"])
    return [["estimate", "--model", "llama-2-7b", "--task", "inference", "--quant", "int4", "--offering", oid,
             "--emit", "skypilot"] for _, oid in sorted(seen.items())]


def check_kind(kind, where, text, plan, schemas, accelerators, torch_lists, vllm_lists):
    """Checks one --emit output against its tool's schema and rules."""
    if kind == "deepspeed":
        check_deepspeed(where, text, plan, schemas["deepspeed"])
    elif kind == "accelerate":
        check_accelerate(where, text, plan, schemas["accelerate"])
    elif kind == "torchrun":
        check_torchrun(where, text, plan, torch_lists)
    elif kind == "vllm":
        check_vllm(where, text, plan, vllm_lists)
    elif kind == "skypilot":
        check_skypilot(where, text, plan, schemas["skypilot"], accelerators, torch_lists, vllm_lists)
    elif kind == "dask":
        check_dask(where, text, plan)
    elif kind == "spark":
        check_spark(where, text, plan)


# Issue 48, the property over a broad corpus: every provider × task × framework; each of
# its ranked #1-#3 runs on the stack it is ranked for (the framework's devices and layouts,
# the host floor), and each --emit for it either writes a file its tool accepts or refuses
# with a usage error that names --emit, nothing on stdout. A CUDA or ROCm training plan is
# launched by at least one of the training launchers.
CORPUS_TASKS = {
    "pretrain": ["--params", "1B", "--tokens", "20B"],
    "finetune": ["--model", "llama-2-7b", "--task", "finetune", "--tokens", "50M"],
    "lora": ["--model", "llama-2-7b", "--task", "lora", "--tokens", "100M"],
    "qlora": ["--model", "llama-2-13b", "--task", "qlora", "--tokens", "100M"],
    "serve": ["--model", "llama-2-7b", "--task", "inference", "--rate", "2"],
    "trees": ["--task", "gbdt", "--data", "200GB"],
    "vision": ["--model", "resnet-50", "--images", "1.28M", "--epochs", "90"],
}
# The tasks that take no --framework, and the launchers each is written for.
LAUNCHERS = {"serve": ["vllm", "skypilot"], "trees": ["dask", "spark", "skypilot"], "vision": ["torchrun", "skypilot"]}
CORPUS_FRAMEWORKS = [None, "hf", "deepspeed", "megatron", "jax", "neuron"]
# framework.cpp: the stacks each named framework trains on.
FRAMEWORK_RUNTIMES = {
    "hf": {"cuda", "cuda_consumer", "rocm", "gaudi", "mps", "cpu"},
    "deepspeed": {"cuda", "cuda_consumer", "rocm", "gaudi", "cpu"},
    "megatron": {"cuda", "cuda_consumer", "rocm"},
    "jax": {"xla", "cuda", "cuda_consumer", "rocm", "cpu"},
    "neuron": {"neuron"},
}
TRAINING_LAUNCHERS = ["deepspeed", "torchrun", "accelerate", "skypilot"]


def check_stack(where, plan, framework, offering, task):
    """The plan runs where it is ranked: the framework's devices and layouts, the host floor."""
    device, strategy = plan["device"], plan["strategy"]
    runtime = device.get("runtime")
    tensor, pipeline = strategy["tensor_parallel"] > 1, strategy["pipeline_parallel"] > 1
    stage, offload = strategy["zero_stage"], strategy["offload"]
    if framework:
        check(runtime in FRAMEWORK_RUNTIMES[framework], where, f"{framework} ranked on {runtime}")
    if framework == "hf":
        check(not tensor and not pipeline, where, "hf ranked a tensor or pipeline layout")
    elif framework == "deepspeed":
        check(not (tensor and pipeline), where, "deepspeed ranked tensor parallelism inside a pipeline")
        check(not pipeline or (stage <= 1 and offload == "none"), where, "deepspeed pipeline past ZeRO-1")
    elif framework == "megatron":
        check(not (tensor or pipeline) or (stage <= 1 and offload == "none"), where, "megatron model parallel ZeRO")
    elif framework == "jax":
        check(stage in (0, 3) and offload == "none", where, f"jax ranked ZeRO-{stage}, offload {offload}")
    if runtime == "neuron":
        check(stage <= 1 and offload == "none", where, f"Trainium ranked ZeRO-{stage}, offload {offload}")
    # The host floor (ranker.hpp, host_cpus_needed and host_must_hold).
    # Trees and vision are timed on the host's cores instead.
    vcpus, gpus = offering.get("vcpus"), offering["devices_per_unit"]
    if vcpus and device.get("kind") != "cpu" and task not in ("trees", "vision"):
        machines = max(1, (gpus + 7) // 8)
        if task == "serve":
            check(vcpus // 2 >= (2 + gpus // machines) * machines, where, f"{vcpus} vCPUs serve {gpus} GPUs")
        else:
            check(vcpus >= 2 * gpus, where, f"{vcpus} vCPUs train on {gpus} GPUs")


def corpus_sweep(schemas, accelerators, torch_lists, vllm_lists, stride=1):
    code, out, _ = run(["catalog", "list", "--format", "json"])
    if code != 0:
        return 0, 0
    catalog = json.loads(out)
    offerings = {o["id"]: o for o in catalog["offerings"]}
    providers = sorted({o["provider"] for o in catalog["offerings"]})
    requests, emitted, index = 0, 0, 0
    for provider in providers:
        for task, args in CORPUS_TASKS.items():
            for framework in [None] if task in LAUNCHERS else CORPUS_FRAMEWORKS:
                index += 1
                if (index - 1) % stride:
                    continue
                request = ["recommend"] + args + ["--provider", provider]
                if framework:
                    request += ["--framework", framework]
                where = f"mlsize {' '.join(request)}"
                code, out, err = run(request + ["--format", "json", "--top", "3"])
                # No plan for the provider (exit 3) is an answer; anything else is not.
                if not check(code in (0, 3), where, f"exit {code}: {err.strip()[:200]}") or code == 3:
                    continue
                requests += 1
                for rank, plan in enumerate(json.loads(out)["recommendations"][:3], start=1):
                    at = f"{where} (#{rank})"
                    offering = offerings.get(plan["offering"]["id"])
                    if not check(offering is not None, at, "offering not in the catalogue"):
                        continue
                    check_stack(at, plan, framework, offering, task)
                    plan["_workload"] = json.loads(out).get("workload") or {}
                    launched = False
                    for kind in LAUNCHERS.get(task, TRAINING_LAUNCHERS):
                        argv = request + ["--emit", kind, "--rank", str(rank)]
                        emit_at = f"mlsize {' '.join(argv)}"
                        code, text, err = run(argv)
                        if code == 2:
                            check(text == "" and "--emit" in err, emit_at, f"refusal: stdout {text[:80]!r}, {err[:200]}")
                            continue
                        if not check(code == 0, emit_at, f"exit {code}: {err.strip()[:200]}"):
                            continue
                        emitted += 1
                        launched = launched or kind != "skypilot"
                        check_kind(kind, emit_at, text, plan, schemas, accelerators, torch_lists, vllm_lists)
                    cuda = plan["device"].get("runtime") in ("cuda", "cuda_consumer", "rocm")
                    if cuda and framework != "jax" and plan["device"].get("kind") != "cpu" and task != "trees":
                        check(launched, at, "no launcher writes this CUDA plan")
    check(requests * stride > 100, "corpus", f"only {requests} requests ranked a plan")
    return requests, emitted


def on_prem_refusal():
    """An on-premise offering of the catalogue, refused by --emit skypilot."""
    code, out, _ = run(["catalog", "list", "--format", "json"])
    if code != 0:
        return None
    ids = [o["id"] for o in json.loads(out)["offerings"] if o.get("kind") == "on-prem"]
    for offering in ids:
        argv = E7 + ["--offering", offering, "--zero", "2", "--emit", "skypilot"]
        if run(argv[:-2] + ["--format", "json"])[0] == 0:
            return (argv, "SkyPilot")
    return None


def main():
    global MLSIZE, SOURCE, TAMPER
    args = sys.argv[1:]
    TAMPER = "--tamper" in args
    args = [a for a in args if a != "--tamper"]
    stride = 1
    if "--corpus-stride" in args:
        at = args.index("--corpus-stride")
        stride = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    MLSIZE, SOURCE = os.path.abspath(args[0]), os.path.abspath(args[1])
    started = time.time()

    schemas = {"deepspeed": deepspeed_schema(), "accelerate": accelerate_schema(), "skypilot": skypilot_schema()}
    for name, schema in schemas.items():
        if isinstance(schema, SkyPilotValidator):
            for validator in (schema.task, schema.resources, schema.service):
                type(validator).check_schema(validator.schema)
        else:
            jsonschema.Draft202012Validator.check_schema(schema)
    accelerators = skypilot_accelerators()
    torch_options, _ = parse_argparse_list("torchrun/run_py_args.txt")
    megatron_options, megatron_choices = parse_argparse_list("megatron/arguments_flags.txt")
    vllm_options, vllm_choices = {}, {}
    for line in fixture_lines("vllm/engine_args_flags.txt"):
        words = line.split()
        # The boolean flags mlsize may write take no value (EngineArgs: bool fields are
        # argparse BooleanOptionalAction / store_true).
        vllm_options[words[0]] = words[0] not in ("--trust-remote-code", "--enforce-eager", "--disable-log-stats",
                                                  "--enable-expert-parallel")
        if len(words) > 1:
            vllm_choices[words[0]] = words[1:]
    quantizations = set(fixture_lines("vllm/quantization_methods.txt"))
    torch_lists = (torch_options, megatron_options, megatron_choices)
    vllm_lists = (vllm_options, vllm_choices, quantizations)

    check_fixtures(schemas, accelerators, torch_options)
    fixtures_checked = checks

    sweep = cloud_sweep()
    check(len(sweep) > 20, "matrix", f"only {len(sweep)} cloud offerings in the catalogue")
    accelerators_or_newer = accelerators | NEWER_THAN_FIXTURE
    swept = 0
    refused_runtimes = set()
    for argv in sweep:
        where = f"mlsize {' '.join(argv)}"
        code, out, err = run(argv)
        if code == 2 and ("has no bf16 or fp16 throughput" in err or "SkyPilot launches on" in err):
            continue  # CPU-only devices without 16-bit rates; managed services (SageMaker, Colab)
        # TPUs, Trainium/Inferentia and Gaudi: a CUDA task would not start there (issue 48), and
        # the refusal says what runs instead, on stderr alone.
        if code == 2 and not out and ("JAX or PyTorch/XLA" in err or "AWS Neuron SDK" in err or "SynapseAI" in err):
            refused_runtimes.add(err.split("cannot launch this plan: ")[-1][:12])
            continue
        if not check(code == 0, where, f"exit {code}: {err.strip()[:200]}"):
            continue
        plan = first_plan(argv)
        if check(plan is not None, where, "the same command with --format json failed"):
            swept += 1
            check_skypilot(where, out, plan, schemas["skypilot"], accelerators_or_newer, torch_lists, vllm_lists)

    check(len(refused_runtimes) >= 2, "matrix", f"TPU and Neuron offerings not refused: {refused_runtimes}")

    # --tamper is about one EMITTED config: the corpus is left out.
    corpus_requests, corpus_emitted = (0, 0) if TAMPER else corpus_sweep(schemas, accelerators_or_newer, torch_lists,
                                                                          vllm_lists, stride)

    kinds_seen = set()
    for argv in EMITTED:
        kind = argv[argv.index("--emit") + 1]
        where = f"mlsize {' '.join(argv)}"
        code, out, err = run(argv)
        if not check(code == 0, where, f"exit {code}: {err.strip()[:300]}"):
            continue
        check(out.endswith("\n") and out.strip(), where, "empty output or no final newline")
        check(all(line.startswith("mlsize: ") for line in err.splitlines()), where, f"stderr not notes: {err[:200]}")
        plan = first_plan(argv)
        if not check(plan is not None, where, "the same command with --format json failed"):
            continue
        kinds_seen.add(kind)
        check_kind(kind, where, out, plan, schemas, accelerators, torch_lists, vllm_lists)
    check(kinds_seen == {"deepspeed", "torchrun", "accelerate", "skypilot", "vllm", "dask", "spark"}, "matrix",
          f"kinds covered: {sorted(kinds_seen)}")

    refused = list(REFUSED)
    on_prem = on_prem_refusal()
    check(on_prem is not None, "matrix", "no on-premise offering in the catalogue to refuse")
    if on_prem:
        refused.append(on_prem)
    for argv, alternative in refused:
        where = f"mlsize {' '.join(argv)}"
        code, out, err = run(argv)
        check(code == 2, where, f"exit {code}, expected 2 (usage error); stderr: {err.strip()[:200]}")
        check(out == "", where, f"stdout not empty: {out[:100]}")
        names_flag = "--emit" in err or "--rank" in err or "--format" in err
        check(names_flag, where, f"stderr names no flag: {err.strip()[:200]}")
        if alternative:
            check(alternative in err, where, f"stderr does not name {alternative}: {err.strip()[:300]}")

    for failure in failures:
        print(failure)
    print(f"launch: {commands_run} mlsize commands, {len(EMITTED)} configs, {swept} cloud offerings' SkyPilot tasks, "
          f"a corpus of {corpus_requests} requests whose #1-#3 wrote {corpus_emitted} files, "
          f"and {len(refused)} refusals, "
          f"{checks} checks ({fixtures_checked} on the tools' own files), {len(failures)} failed, "
          f"{time.time() - started:.1f}s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
