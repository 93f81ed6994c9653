#!/usr/bin/env python3
"""Measure peak GPU memory and step time of real training and inference; compare with mlsize.

Two phases, so that the GPU machine needs no mlsize binary:

    # on a machine with an NVIDIA GPU, PyTorch, transformers (and peft for the LoRA runs):
    python3 bench/gpu_memory_check.py measure --json results.json
    # anywhere with a built mlsize:
    python3 bench/gpu_memory_check.py compare results.json --mlsize build/mlsize \
        --device h200-sxm --out results.md

Models are randomly initialised from config dicts in this file (nothing is downloaded):
GPT-2 small (the real `gpt2` config), a small Llama (~156M, GQA, untied head) and
TinyLlama-1.1B (the real TinyLlama/TinyLlama-1.1B config). Runs:

* train: AdamW steps on random tokens, precision fp32 | bf16-mixed (fp32 weights +
  torch.autocast(bfloat16)), gradient checkpointing off | on, attention sdpa (~ mlsize
  --attention flash) | eager (~ --attention standard).
* lora: PEFT LoRA r=16 on q,k,v,o,gate,up,down of a bf16 base, under autocast.
* infer: bf16 weights, one prefill of batch x context tokens with use_cache=True; the
  KV cache is what stays allocated afterwards (logits_to_keep=1).

What is and is not comparable (read before judging the error column):

* max_memory_allocated counts only tensors allocated by PyTorch's caching allocator: no
  CUDA context, no cached-but-free blocks, no fragmentation. mlsize's fixed framework
  overhead (--overhead, default 2 GiB) models exactly the missing part, so the compare
  step subtracts it from mlsize's total.
* Model states. fp32: 4 (weights) + 4 (grads) + 8 (AdamW moments) = 16 B/param, as in
  mlsize. bf16-mixed: PyTorch AMP keeps fp32 weights and grads, 16 B/param; mlsize's
  bf16-mixed is the ZeRO-paper split 2 + 2 + 12 = 16. Totals compare, the split does not.
* Transients mlsize does not model: autocast's cache of bf16 weight copies (~2 B/param
  under bf16-mixed), the foreach AdamW step's temporaries, cuBLAS workspaces, and the
  loss path (transformers upcasts logits to fp32 before cross-entropy).
* Activations: mlsize counts 16-bit activations (Korthikanti et al. 2022) and doubles
  them for fp32.
* The peak is taken over all steps after reset_peak_memory_stats(); steps 2.. run with
  the optimizer states allocated, so it is the steady-state peak. Memory allocated
  before the model was built is subtracted.
* Step time: mean of steps 2.. (torch.cuda.synchronize() around each). mlsize's step
  time is `estimate --tokens b*s` at its default MFU (0.40) on --device.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIB = 2**30
REPO_ROOT = Path(__file__).resolve().parent.parent
LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="phase", required=True)
    m = sub.add_parser("measure", help="run the models on the GPU and write the raw results")
    m.add_argument("--json", default="gpu_memory_results.json", help="raw results file")
    m.add_argument("--batch", type=int, default=4, help="training micro-batch b (default 4)")
    m.add_argument("--steps", type=int, default=4,
                   help="training steps per run, >= 2; time is the mean of steps 2.. (default 4)")
    m.add_argument("--quick", action="store_true", help="bf16-mixed and sdpa only")
    m.add_argument("--suite", choices=["small", "scale", "fused"], default="small",
                   help="small: 22 runs up to 1.1B (default); scale: Llama-2-7B shape and a larger batch; "
                        "fused: Phi-3-mini (fused qkv and gate/up projections)")
    m.add_argument("--seed", type=int, default=0)
    c = sub.add_parser("compare", help="run mlsize on the measured cases and write a report")
    c.add_argument("json", help="raw results written by `measure`")
    c.add_argument("--mlsize", default="build/mlsize", help="mlsize binary (default build/mlsize)")
    c.add_argument("--device", default="h200-sxm", help="mlsize device id (default h200-sxm)")
    c.add_argument("--out", default="gpu_memory_results.md", help="markdown report")
    c.add_argument("--out-json", help="also write the rows with mlsize's figures as JSON")
    args = p.parse_args()
    if args.phase == "measure" and args.steps < 2:
        p.error("--steps must be at least 2")
    return args


# --------------------------------------------------------------------------- models

def model_configs():
    """name -> (config class name, kwargs): real configs written out in full."""
    return {
        # The real "gpt2" (GPT-2 small, 124M) config.json values.
        "gpt2-small": ("GPT2Config", dict(
            vocab_size=50257, n_positions=1024, n_embd=768, n_layer=12, n_head=12,
            n_inner=None, activation_function="gelu_new", resid_pdrop=0.1, embd_pdrop=0.1,
            attn_pdrop=0.1, layer_norm_epsilon=1e-5, initializer_range=0.02,
            bos_token_id=50256, eos_token_id=50256, use_cache=False,
            architectures=["GPT2LMHeadModel"])),
        # A small Llama-style model (~156M params): GQA, gated SiLU MLP, untied head.
        "llama-156m": ("LlamaConfig", dict(
            vocab_size=32000, hidden_size=1024, intermediate_size=2816, num_hidden_layers=8,
            num_attention_heads=16, num_key_value_heads=4, hidden_act="silu",
            max_position_embeddings=4096, rms_norm_eps=1e-6, tie_word_embeddings=False,
            attention_dropout=0.0, use_cache=False, architectures=["LlamaForCausalLM"])),
        # microsoft/Phi-3-mini-4k-instruct config.json: fused qkv_proj and gate_up_proj.
        "phi-3-mini": ("Phi3Config", dict(
            vocab_size=32064, hidden_size=3072, intermediate_size=8192, num_hidden_layers=32,
            num_attention_heads=32, num_key_value_heads=32, hidden_act="silu",
            max_position_embeddings=4096, original_max_position_embeddings=4096,
            rms_norm_eps=1e-5, rope_theta=10000.0, sliding_window=2047, attention_dropout=0.0,
            resid_pdrop=0.0, embd_pdrop=0.0, tie_word_embeddings=False, pad_token_id=32000,
            bos_token_id=1, eos_token_id=32000, use_cache=False, architectures=["Phi3ForCausalLM"])),
        # meta-llama/Llama-2-7b-hf config.json (6,738,415,616 params).
        "llama-2-7b": ("LlamaConfig", dict(
            vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
            num_attention_heads=32, num_key_value_heads=32, hidden_act="silu",
            max_position_embeddings=4096, rms_norm_eps=1e-5, tie_word_embeddings=False,
            attention_dropout=0.0, use_cache=False, architectures=["LlamaForCausalLM"])),
        # TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json (1,100,048,384 params).
        "tinyllama-1.1b": ("LlamaConfig", dict(
            vocab_size=32000, hidden_size=2048, intermediate_size=5632, num_hidden_layers=22,
            num_attention_heads=32, num_key_value_heads=4, hidden_act="silu",
            max_position_embeddings=2048, rms_norm_eps=1e-5, tie_word_embeddings=False,
            attention_dropout=0.0, use_cache=False, architectures=["LlamaForCausalLM"])),
    }


def cases(args):
    """Every run: dict(kind, model, precision, checkpointing, attention, seq, batch)."""
    if args.suite == "fused":
        # Fused projections (one qkv_proj, one gate_up_proj): Phi-3-mini, full fine-tuning.
        return [dict(kind="train", model="phi-3-mini", precision="bf16-mixed", checkpointing=ckpt,
                     attention="sdpa", seq=2048, batch=batch) for ckpt, batch in (("on", 2), ("off", 1))]
    if args.suite == "scale":
        # A real 7B shape and a larger batch: states at scale, MFU, an MHA KV cache.
        def run(kind, model, precision, ckpt, seq, batch):
            return dict(kind=kind, model=model, precision=precision, checkpointing=ckpt,
                        attention="sdpa", seq=seq, batch=batch)
        return [run("train", "llama-2-7b", "bf16-mixed", "on", 2048, 1),
                run("lora", "llama-2-7b", "bf16-mixed", "on", 2048, 4),
                run("lora", "llama-2-7b", "bf16-mixed", "off", 2048, 1),
                run("train", "tinyllama-1.1b", "bf16-mixed", "on", 2048, 16),
                run("infer", "llama-2-7b", "bf16", "off", 4096, 4)]
    out = []
    precisions = ["bf16-mixed"] if args.quick else ["fp32", "bf16-mixed"]
    attentions = ["sdpa"] if args.quick else ["sdpa", "eager"]
    for model, seq in (("gpt2-small", 1024), ("llama-156m", 2048)):
        for attn in attentions:
            for precision in precisions:
                for ckpt in ("off", "on"):
                    out.append(dict(kind="train", model=model, precision=precision,
                                    checkpointing=ckpt, attention=attn, seq=seq, batch=args.batch))
    for ckpt in ("off", "on"):
        out.append(dict(kind="train", model="tinyllama-1.1b", precision="bf16-mixed",
                        checkpointing=ckpt, attention="sdpa", seq=2048, batch=args.batch))
    for ckpt in ("off", "on"):
        out.append(dict(kind="lora", model="tinyllama-1.1b", precision="bf16-mixed",
                        checkpointing=ckpt, attention="sdpa", seq=2048, batch=args.batch))
    for batch, seq in ((8, 2048), (32, 2048)):
        out.append(dict(kind="infer", model="tinyllama-1.1b", precision="bf16",
                        checkpointing="off", attention="sdpa", seq=seq, batch=batch))
    return out


def make_config(name, attn):
    import transformers

    cls_name, kwargs = model_configs()[name]
    cfg = getattr(transformers, cls_name)(**kwargs)
    # Both spellings, so the requested attention is used on every transformers version.
    try:
        cfg._attn_implementation = attn
    except Exception:  # noqa: BLE001
        pass
    return cfg


def build_model(name, attn, device, dtype):
    import torch
    from transformers import AutoModelForCausalLM

    cfg = make_config(name, attn)
    try:
        with torch.device(device):
            model = AutoModelForCausalLM.from_config(cfg, attn_implementation=attn)
    except TypeError:
        with torch.device(device):
            model = AutoModelForCausalLM.from_config(cfg)
    model.to(device=device, dtype=dtype)
    return model, getattr(model.config, "_attn_implementation", attn)


def enable_checkpointing(model):
    try:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    except TypeError:
        model.gradient_checkpointing_enable()
    model.config.use_cache = False


# --------------------------------------------------------------------------- measurement

def is_oom(exc: BaseException) -> bool:
    import torch

    oom_type = getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(exc, oom_type):
        return True
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


def free_cuda():
    import torch

    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()


def train_run(case, steps, device):
    import torch

    free_cuda()
    baseline = torch.cuda.memory_allocated(device)
    lora = case["kind"] == "lora"
    model, attn_used = build_model(case["model"], case["attention"], device,
                                   torch.bfloat16 if lora else torch.float32)
    params = sum(p.numel() for p in model.parameters())  # before adapters; tied counted once
    if lora:
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0,
                                                 target_modules=LORA_TARGETS, task_type="CAUSAL_LM"))
    if case["checkpointing"] == "on":
        enable_checkpointing(model)
    model.train()  # dropout on, as in mlsize's activation count (GPT-2 has p = 0.1)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=1e-4)  # foreach: PyTorch's default
    vocab = model.config.vocab_size
    gen = torch.Generator(device=device)
    gen.manual_seed(1234)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats(device)
    times = []
    for _ in range(steps):
        ids = torch.randint(0, vocab, (case["batch"], case["seq"]), device=device, generator=gen)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        if case["precision"] == "bf16-mixed":
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                loss = model(input_ids=ids, labels=ids).loss
        else:
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
        del loss, ids
    peak = torch.cuda.max_memory_allocated(device) - baseline
    opt.zero_grad(set_to_none=True)
    resident = torch.cuda.memory_allocated(device) - baseline  # weights + optimizer states
    result = {
        "params": params,
        "trainable_params": sum(p.numel() for p in trainable),
        "peak_bytes": peak,
        "resident_bytes": resident,
        "step_ms": 1000.0 * sum(times[1:]) / len(times[1:]),
        "step_ms_all": [1000.0 * t for t in times],
        "attn_used": attn_used,
    }
    del model, opt, trainable
    return result


def infer_run(case, device):
    import torch

    free_cuda()
    baseline = torch.cuda.memory_allocated(device)
    model, attn_used = build_model(case["model"], case["attention"], device, torch.bfloat16)
    model.eval()
    params = sum(p.numel() for p in model.parameters())
    weights = torch.cuda.memory_allocated(device) - baseline
    ids = torch.randint(0, model.config.vocab_size, (case["batch"], case["seq"]), device=device)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats(device)
    after_ids = torch.cuda.memory_allocated(device)
    t0 = time.perf_counter()
    with torch.no_grad():
        try:
            out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
        except TypeError:  # transformers < 4.45 has no logits_to_keep
            out = model(input_ids=ids, use_cache=True)
    torch.cuda.synchronize()
    prefill_ms = 1000.0 * (time.perf_counter() - t0)
    peak = torch.cuda.max_memory_allocated(device) - after_ids
    cache = out.past_key_values
    del out
    free_cuda()
    kv = torch.cuda.memory_allocated(device) - after_ids
    result = {"params": params, "weights_bytes": weights, "kv_bytes": kv,
              "prefill_peak_above_weights_bytes": peak, "peak_bytes": weights + peak,
              "prefill_ms": prefill_ms, "attn_used": attn_used}
    del cache, model, ids
    return result


def measure(args) -> int:
    try:
        import torch
        import transformers
    except ImportError as exc:
        print(f"needs PyTorch and transformers: {exc}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("no CUDA device visible", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    device = torch.device("cuda", torch.cuda.current_device())
    props = torch.cuda.get_device_properties(device)
    try:
        import peft
        peft_version = peft.__version__
    except ImportError:
        peft_version = None
    env = {
        "gpu": props.name, "gpu_mem_bytes": props.total_memory,
        "torch": torch.__version__, "cuda": torch.version.cuda,
        "transformers": transformers.__version__, "peft": peft_version,
        "python": platform.python_version(),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "steps": args.steps,
    }
    print(json.dumps(env), flush=True)
    configs = {}
    for name in model_configs():
        configs[name] = make_config(name, "sdpa").to_dict()
    rows = []
    t_start = time.perf_counter()
    for case in cases(args):
        row = dict(case)
        print(f"running {json.dumps(case)} ...", flush=True)
        t0 = time.perf_counter()
        try:
            if case["kind"] == "lora" and peft_version is None:
                raise RuntimeError("peft is not installed")
            if case["kind"] == "infer":
                row["measured"] = infer_run(case, device)
            else:
                row["measured"] = train_run(case, args.steps, device)
        except Exception as exc:  # noqa: BLE001 - record and go on
            if is_oom(exc):
                row["oom"] = True
            else:
                row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
            exc = None  # drop the traceback's references to GPU tensors
        free_cuda()
        row["wall_s"] = time.perf_counter() - t0
        print(f"  -> {json.dumps({k: v for k, v in row.items() if k in ('measured', 'oom', 'error')})}",
              flush=True)
        rows.append(row)
        # Written after every run, so a run cut short still leaves its results.
        Path(args.json).write_text(json.dumps({"env": env, "configs": configs, "rows": rows,
                                               "total_s": time.perf_counter() - t_start}, indent=1))
    print(f"wrote {args.json} in {time.perf_counter() - t_start:.0f} s")
    return 0


# --------------------------------------------------------------------------- mlsize

def mlsize_estimate(binary, config_path, case, device, framework):
    task = {"train": "finetune", "lora": "lora", "infer": "inference"}[case["kind"]]
    cmd = [str(binary), "estimate", "--model-config", str(config_path), "--task", task,
           "--attention", "flash" if case["attention"] == "sdpa" else "standard",
           "--framework", framework, "--device", device, "--format", "json"]
    if case["kind"] == "infer":
        cmd += ["--quant", "bf16", "--context", str(case["seq"]), "--batch", str(case["batch"])]
    else:
        cmd += ["--precision", case["precision"],
                "--recompute", "full" if case["checkpointing"] == "on" else "none",
                "--seq-len", str(case["seq"]), "--micro-batch", str(case["batch"]),
                "--tokens", str(case["seq"] * case["batch"])]  # one step
        if case["kind"] == "lora":
            cmd += ["--lora-rank", "16", "--lora-targets", "all-linear"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"mlsize exited {proc.returncode}: {proc.stderr.strip()}")
    data = json.loads(proc.stdout)
    mem = data["memory"]["per_device"]
    seconds = (data.get("time") or {}).get("seconds")
    return {
        "params": data["workload"]["params"],
        "bytes": mem["total_bytes"] - mem["overhead_bytes"],
        "terms": {k: mem.get(k) for k in ("weights_bytes", "gradients_bytes", "optimizer_bytes",
                                          "activations_bytes", "kv_cache_bytes")},
        "step_ms": None if seconds is None or case["kind"] == "infer" else 1000.0 * seconds,
        "cmd": " ".join(cmd[1:]),
    }


def count(x):
    return "n/a" if x is None else f"{x:,}"


def gib(x):
    return "n/a" if x is None else f"{x / GIB:.2f}"


def ms(x):
    return "n/a" if x is None else f"{x:.1f}"


def pct(est, meas):
    if est is None or not meas:
        return "n/a"
    return f"{100.0 * (est - meas) / meas:+.1f}"


def compare(args) -> int:
    data = json.loads(Path(args.json).read_text())
    binary = None
    for cand in (Path(args.mlsize), REPO_ROOT / args.mlsize):
        if cand.is_file() and os.access(cand, os.X_OK):
            binary = cand.resolve()
            break
    if binary is None:
        print(f"mlsize binary not found at {args.mlsize!r}", file=sys.stderr)
        return 2
    env, rows = data["env"], data["rows"]
    with tempfile.TemporaryDirectory(prefix="mlsize-gpu-check-") as tmp:
        for row in rows:
            cfg = dict(data["configs"][row["model"]])
            cfg_path = Path(tmp) / f"{row['model']}.json"
            cfg_path.write_text(json.dumps(cfg))
            try:
                row["mlsize"] = mlsize_estimate(binary, cfg_path, row, args.device, "hf")
                row["mlsize_megatron"] = mlsize_estimate(binary, cfg_path, row, args.device, "megatron")
            except Exception as exc:  # noqa: BLE001
                row["mlsize_error"] = str(exc)
    if args.out_json:
        Path(args.out_json).write_text(json.dumps({"env": env, "rows": rows}, indent=1))

    lines = [
        "# mlsize vs measured GPU memory and time",
        "",
        f"- GPU: {env['gpu']} ({env['gpu_mem_bytes'] / GIB:.1f} GiB), mlsize device `{args.device}`",
        f"- torch {env['torch']} (CUDA {env['cuda']}), transformers {env['transformers']}, "
        f"peft {env.get('peft')}, Python {env['python']}; measured {env['date']}",
        f"- training: AdamW (foreach), {env['steps']} steps; peak = max_memory_allocated over all "
        "steps; time = mean of steps 2..",
        "- mlsize = `estimate ... --format json`: memory.per_device.total_bytes - overhead_bytes "
        "(the 2 GiB framework overhead covers what max_memory_allocated does not see); "
        "error = (mlsize - measured) / measured; `--framework hf` (transformers under autocast, "
        "what was run) and `--framework megatron` (the default, Korthikanti et al.)",
        "",
        "## Training",
        "",
        "| model | run | precision | ckpt | attention | b × s | params | measured peak GiB "
        "| mlsize hf GiB | error % | mlsize megatron GiB | error % | step ms | mlsize step ms "
        "| measured MFU-equivalent |",
        "| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        if r["kind"] == "infer":
            continue
        m, e, g = r.get("measured"), r.get("mlsize"), r.get("mlsize_megatron")
        peak = "OOM" if r.get("oom") else gib(m["peak_bytes"]) if m else "error"
        # mlsize time is FLOPs / (peak * 0.40): the MFU that would reproduce the measurement.
        mfu = "n/a"
        if m and e and e["step_ms"]:
            mfu = f"{0.40 * e['step_ms'] / m['step_ms']:.2f}"
        lines.append(
            f"| {r['model']} | {r['kind']} | {r['precision']} | {r['checkpointing']} "
            f"| {r['attention']} | {r['batch']} × {r['seq']} | {count(m['params'] if m else None)} "
            f"| {peak} | {gib(e['bytes']) if e else 'n/a'} "
            f"| {pct(e['bytes'] if e else None, m['peak_bytes'] if m else None)} "
            f"| {gib(g['bytes']) if g else 'n/a'} "
            f"| {pct(g['bytes'] if g else None, m['peak_bytes'] if m else None)} "
            f"| {ms(m['step_ms']) if m else 'n/a'} | {ms(e['step_ms']) if e else 'n/a'} | {mfu} |")
    lines += ["", "Resident = allocated after the last step with grads freed (weights + optimizer "
              "states); the rest of the peak is activations, gradients and transients.", "",
              "| model | run | precision | ckpt | attention | measured resident | measured peak − resident "
              "| mlsize weights + optimizer | mlsize grads + activations |",
              "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if r["kind"] == "infer":
            continue
        m, e = r.get("measured"), r.get("mlsize")
        t = e["terms"] if e else {}
        states = (t.get("weights_bytes") or 0) + (t.get("optimizer_bytes") or 0) if e else None
        rest = (t.get("gradients_bytes") or 0) + (t.get("activations_bytes") or 0) if e else None
        lines.append(
            f"| {r['model']} | {r['kind']} | {r['precision']} | {r['checkpointing']} | {r['attention']} "
            f"| {gib(m['resident_bytes']) if m else 'n/a'} "
            f"| {gib(m['peak_bytes'] - m['resident_bytes']) if m else 'n/a'} "
            f"| {gib(states)} | {gib(rest)} |")
    lines += ["", "## Inference (one prefill, bf16 weights, KV cache kept)", "",
              "| model | batch × context | measured weights GiB | mlsize weights GiB | measured KV GiB "
              "| mlsize KV GiB | KV error % | measured peak GiB | mlsize GiB | error % | prefill ms |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if r["kind"] != "infer":
            continue
        m, e = r.get("measured"), r.get("mlsize")
        t = e["terms"] if e else {}
        lines.append(
            f"| {r['model']} | {r['batch']} × {r['seq']} | {gib(m['weights_bytes']) if m else 'n/a'} "
            f"| {gib(t.get('weights_bytes'))} | {gib(m['kv_bytes']) if m else 'n/a'} "
            f"| {gib(t.get('kv_cache_bytes'))} "
            f"| {pct(t.get('kv_cache_bytes'), m['kv_bytes'] if m else None)} "
            f"| {gib(m['peak_bytes']) if m else 'n/a'} | {gib(e['bytes']) if e else 'n/a'} "
            f"| {pct(e['bytes'] if e else None, m['peak_bytes'] if m else None)} "
            f"| {ms(m['prefill_ms']) if m else 'n/a'} |")
    notes = []
    for r in rows:
        m, e = r.get("measured"), r.get("mlsize")
        if r.get("error") or r.get("mlsize_error"):
            notes.append(f"{r['model']} {r['kind']} {r['precision']} ckpt={r['checkpointing']} "
                         f"{r['attention']}: {r.get('error') or r.get('mlsize_error')}")
        if m and m.get("attn_used") != r["attention"]:
            notes.append(f"{r['model']}: transformers used {m.get('attn_used')} instead of {r['attention']}")
        if m and e and r["kind"] != "lora" and m["params"] != e["params"]:
            notes.append(f"{r['model']}: PyTorch counts {m['params']:,} params, mlsize {e['params']:,}")
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in dict.fromkeys(notes)]
    report = "\n".join(lines) + "\n"
    Path(args.out).write_text(report)
    print(report)
    return 0


def main() -> int:
    args = parse_args()
    return measure(args) if args.phase == "measure" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
