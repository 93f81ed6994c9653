#!/usr/bin/env python3
"""Measure peak GPU memory and step time of real training steps and compare with mlsize.

Trains small, randomly initialised Hugging Face models (GPT-2 small and a small Llama,
built from config dicts in this file: nothing is downloaded) for a few AdamW steps on
random tokens, for each combination of

    precision      fp32 | bf16-mixed (fp32 weights + torch.autocast(bfloat16))
    checkpointing  off | on (model.gradient_checkpointing_enable())
    attention      sdpa (~ mlsize --attention flash) | eager (~ mlsize --attention standard)

and records torch.cuda.max_memory_allocated() and the mean step time. For each run it
calls `mlsize estimate --model-config <the same config.json> ... --format json` and
compares memory.per_device.total_bytes - overhead_bytes with the measured peak.

Needs: one NVIDIA GPU, PyTorch, transformers; a built mlsize binary (--mlsize).
Run from the repository root:

    python3 bench/gpu_memory_check.py                 # all 16 runs, ~1-3 min on an H200
    python3 bench/gpu_memory_check.py --quick         # 4 runs
    python3 bench/gpu_memory_check.py --out results.md --device a100-80gb-sxm

What is and is not comparable (read before judging the error column):

* max_memory_allocated counts only tensors allocated by PyTorch's caching allocator: no
  CUDA context, no cached-but-free blocks, no fragmentation. mlsize's fixed framework
  overhead (--overhead, default 2 GiB) models exactly the missing part, so it is
  subtracted from mlsize's total. (mlsize rejects --overhead 0, hence the subtraction.)
* Model states. fp32: PyTorch keeps fp32 weights (4 B/param), fp32 grads (4) and AdamW
  exp_avg + exp_avg_sq (8) = 16 B/param; mlsize fp32 is 4 + 4 + 0 + 8 = 16.
  bf16-mixed: PyTorch AMP (autocast) keeps the weights and grads in fp32, so it is
  4 + 4 + 8 = 16 B/param; mlsize's bf16-mixed is the ZeRO-paper split, 2 (bf16 weights)
  + 2 (bf16 grads) + 12 (fp32 master + moments) = 16. The totals are comparable, the
  per-term split is not.
* Transients mlsize does not model and that max_memory_allocated does see: autocast's
  cache of bf16 weight copies during the forward pass (~2 B/param under bf16-mixed),
  the foreach AdamW step's temporary tensor lists, cuBLAS workspaces, and the loss
  path (transformers upcasts logits to fp32 and shifts them before cross-entropy).
* Activations: mlsize counts 16-bit activations (Korthikanti et al. 2022). Under fp32
  PyTorch stores fp32 activations, so expect mlsize to under-estimate fp32 runs.
* sdpa is PyTorch's scaled_dot_product_attention (flash or memory-efficient kernel;
  fp32 inputs use the memory-efficient one): no s^2 scores are stored, as with mlsize's
  --attention flash. eager stores the softmax output (and, for GPT-2, its dropout mask),
  like --attention standard.
* The measured peak is taken over steps 1-3 after reset_peak_memory_stats() before step
  1; steps 2-3 run with the optimizer states allocated, so it is the steady-state peak.
  Memory still allocated before the model is built (leftovers of the previous run) is
  subtracted.
* Step time: mean of steps 2 and 3 (torch.cuda.synchronize() around each). mlsize's
  step time is `estimate --tokens b*s` at its default MFU (0.40) on --device.
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


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mlsize", default="build/mlsize",
                   help="path to the mlsize binary (default build/mlsize; relative paths are "
                        "tried from the current directory, then from the repository root)")
    p.add_argument("--device", default="h200-sxm",
                   help="mlsize catalogue device id passed to `estimate --device` (default h200-sxm)")
    p.add_argument("--out", default="gpu_memory_results.md",
                   help="markdown file to write the results to (default gpu_memory_results.md)")
    p.add_argument("--batch", type=int, default=4, help="micro-batch b (default 4)")
    p.add_argument("--gpt2-seq", type=int, default=1024, help="sequence length for GPT-2 (default 1024)")
    p.add_argument("--llama-seq", type=int, default=2048, help="sequence length for Llama (default 2048)")
    p.add_argument("--steps", type=int, default=3,
                   help="training steps per run, >= 2; time is the mean of steps 2.. (default 3)")
    p.add_argument("--models", default="gpt2,llama", help="comma list of gpt2, llama (default both)")
    p.add_argument("--quick", action="store_true",
                   help="fewer runs: bf16-mixed only, sdpa only, checkpointing off and on (4 runs)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    if args.steps < 2:
        p.error("--steps must be at least 2")
    return args


# --------------------------------------------------------------------------- models

def model_specs(args):
    """(name, seq_len, builder) for each model; builder(attn) -> (config, model class)."""
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

    def gpt2(attn):
        # The real "gpt2" (GPT-2 small, 124M) config.json values.
        cfg = GPT2Config(
            vocab_size=50257, n_positions=max(1024, args.gpt2_seq), n_embd=768, n_layer=12,
            n_head=12, n_inner=None, activation_function="gelu_new", resid_pdrop=0.1,
            embd_pdrop=0.1, attn_pdrop=0.1, layer_norm_epsilon=1e-5, initializer_range=0.02,
            bos_token_id=50256, eos_token_id=50256, use_cache=False,
            architectures=["GPT2LMHeadModel"], attn_implementation=attn,
        )
        return cfg, GPT2LMHeadModel

    def llama(attn):
        # A small Llama-style model (~156M params): GQA, gated SiLU MLP, untied head.
        cfg = LlamaConfig(
            vocab_size=32000, hidden_size=1024, intermediate_size=2816, num_hidden_layers=8,
            num_attention_heads=16, num_key_value_heads=4, hidden_act="silu",
            max_position_embeddings=max(4096, args.llama_seq), rms_norm_eps=1e-6,
            tie_word_embeddings=False, attention_dropout=0.0, use_cache=False,
            architectures=["LlamaForCausalLM"], attn_implementation=attn,
        )
        return cfg, LlamaForCausalLM

    table = {"gpt2": ("gpt2-small", args.gpt2_seq, gpt2),
             "llama": ("llama-156m", args.llama_seq, llama)}
    out = []
    for key in [m.strip() for m in args.models.split(",") if m.strip()]:
        if key not in table:
            sys.exit(f"unknown model {key!r}; choose from {', '.join(table)}")
        out.append(table[key])
    return out


def build_model(builder, attn, device):
    import torch

    cfg, cls = builder(attn)
    # Make sure the requested attention is used on every transformers version: the
    # config kwarg works on >= 4.36; setting the private attribute covers the rest.
    try:
        cfg._attn_implementation = attn
    except Exception:  # noqa: BLE001 - read-only on some versions; the kwarg already did it
        pass
    try:
        with torch.device(device):  # build directly on the GPU (torch >= 2.0)
            model = cls(cfg)
    except (AttributeError, TypeError):
        model = cls(cfg).to(device)
    model.to(device=device, dtype=torch.float32)
    used = getattr(model.config, "_attn_implementation", attn)
    return cfg, model, used


def enable_checkpointing(model):
    try:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    except TypeError:  # transformers < 4.35 has no kwargs
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


def train_run(builder, attn, precision, checkpointing, seq, batch, steps, device):
    """Returns dict with params, peak_bytes, resident_bytes, step_ms, attn_used (or raises)."""
    import torch

    free_cuda()
    baseline = torch.cuda.memory_allocated(device)
    cfg, model, attn_used = build_model(builder, attn, device)
    if checkpointing:
        enable_checkpointing(model)
    model.train()  # dropout on, as in mlsize's activation count (GPT-2 has p = 0.1)
    params = sum(p.numel() for p in model.parameters())  # tied weights counted once
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)  # foreach: PyTorch's default
    vocab = cfg.vocab_size
    gen = torch.Generator(device=device)
    gen.manual_seed(1234)

    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats(device)
    times = []
    for _ in range(steps):
        ids = torch.randint(0, vocab, (batch, seq), device=device, generator=gen)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        if precision == "bf16-mixed":
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
        "peak_bytes": peak,
        "resident_bytes": resident,
        "step_ms": 1000.0 * sum(times[1:]) / len(times[1:]),
        "attn_used": attn_used,
    }
    del model, opt
    return cfg, result


# --------------------------------------------------------------------------- mlsize

def find_mlsize(path: str) -> Path | None:
    for cand in (Path(path), REPO_ROOT / path):
        if cand.is_file() and os.access(cand, os.X_OK):
            return cand.resolve()
    return None


def mlsize_estimate(binary, config_path, precision, checkpointing, attn, seq, batch, device):
    cmd = [
        str(binary), "estimate",
        "--model-config", str(config_path),
        "--task", "finetune",
        "--precision", precision,
        "--recompute", "full" if checkpointing else "none",
        "--attention", "flash" if attn == "sdpa" else "standard",
        "--seq-len", str(seq),
        "--micro-batch", str(batch),
        "--tokens", str(seq * batch),  # one step, so time.seconds is mlsize's step time
        "--device", device,
        "--format", "json",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"mlsize exited {proc.returncode}: {proc.stderr.strip()}")
    data = json.loads(proc.stdout)
    mem = data["memory"]["per_device"]
    seconds = (data.get("time") or {}).get("seconds")
    return {
        "params": data["workload"]["params"],
        "bytes": mem["total_bytes"] - mem["overhead_bytes"],
        "terms": {k: mem[k] for k in ("weights_bytes", "gradients_bytes", "optimizer_bytes",
                                      "activations_bytes")},
        "step_ms": None if seconds is None else 1000.0 * seconds,
        "cmd": " ".join(cmd),
    }


# --------------------------------------------------------------------------- report

def fmt_gib(x):
    return "n/a" if x is None else f"{x / GIB:.2f}"


def fmt_ms(x):
    return "n/a" if x is None else f"{x:.1f}"


def render(rows, env, args) -> str:
    lines = [
        "# mlsize vs measured GPU memory",
        "",
        f"- GPU: {env['gpu']} ({env['gpu_mem_gib']:.1f} GiB), mlsize device `{args.device}`",
        f"- torch {env['torch']} (CUDA {env['cuda']}), transformers {env['transformers']}, "
        f"Python {env['python']}",
        f"- date: {env['date']}",
        f"- AdamW (foreach), micro-batch {args.batch}, sequence GPT-2 {args.gpt2_seq} / "
        f"Llama {args.llama_seq}, {args.steps} steps; peak = max_memory_allocated over all "
        f"steps; time = mean of steps 2..{args.steps}",
        "- mlsize GiB = `estimate ... --task finetune --format json` "
        "memory.per_device.total_bytes - overhead_bytes; error = (mlsize - measured) / measured",
        "",
        "| model | precision | checkpointing | attention | params | measured peak GiB "
        "| mlsize GiB | error % | step time ms | mlsize step ms |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    notes = []
    for r in rows:
        m = r.get("measured")
        e = r.get("mlsize")
        if r.get("oom"):
            peak, step = "OOM", "OOM"
        elif m is None:
            peak, step = "error", "error"
        else:
            peak, step = fmt_gib(m["peak_bytes"]), fmt_ms(m["step_ms"])
        est = fmt_gib(e["bytes"]) if e else "n/a"
        err = "n/a"
        if m and e and m["peak_bytes"] > 0:
            err = f"{100.0 * (e['bytes'] - m['peak_bytes']) / m['peak_bytes']:+.1f}"
        params = m["params"] if m else (e["params"] if e else None)
        params_s = "n/a" if params is None else f"{params:,}"
        attn = r["attention"]
        if m and m["attn_used"] != attn:
            attn = f"{attn} (ran {m['attn_used']})"
            notes.append(f"{r['model']}: transformers used {m['attn_used']} instead of {r['attention']}")
        if m and e and m["params"] != e["params"]:
            notes.append(f"{r['model']}: PyTorch counts {m['params']:,} params, mlsize {e['params']:,}")
        if r.get("error"):
            notes.append(f"{r['model']} {r['precision']} ckpt={r['checkpointing']} {r['attention']}: "
                         f"{r['error']}")
        lines.append(
            f"| {r['model']} | {r['precision']} | {r['checkpointing']} | {attn} | {params_s} "
            f"| {peak} | {est} | {err} | {step} | {fmt_ms(e['step_ms']) if e else 'n/a'} |")

    lines += ["", "Breakdown (GiB): resident = allocated after the last step with grads freed "
              "(weights + optimizer states); mlsize states = weights + gradients + optimizer.", "",
              "| model | precision | checkpointing | attention | measured resident | measured peak - resident "
              "| mlsize weights | mlsize grads | mlsize optimizer | mlsize activations |",
              "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        m, e = r.get("measured"), r.get("mlsize")
        t = e["terms"] if e else {}
        lines.append(
            f"| {r['model']} | {r['precision']} | {r['checkpointing']} | {r['attention']} "
            f"| {fmt_gib(m['resident_bytes']) if m else 'n/a'} "
            f"| {fmt_gib(m['peak_bytes'] - m['resident_bytes']) if m else 'n/a'} "
            f"| {fmt_gib(t.get('weights_bytes'))} | {fmt_gib(t.get('gradients_bytes'))} "
            f"| {fmt_gib(t.get('optimizer_bytes'))} | {fmt_gib(t.get('activations_bytes'))} |")
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in dict.fromkeys(notes)]
    return "\n".join(lines) + "\n"


def main() -> int:
    args = parse_args()
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

    binary = find_mlsize(args.mlsize)
    if binary is None:
        print(f"warning: mlsize binary not found at {args.mlsize!r}; measuring only", file=sys.stderr)

    precisions = ["bf16-mixed"] if args.quick else ["fp32", "bf16-mixed"]
    attentions = ["sdpa"] if args.quick else ["sdpa", "eager"]
    checkpointing = [False, True]

    env = {
        "gpu": props.name, "gpu_mem_gib": props.total_memory / GIB,
        "torch": torch.__version__, "cuda": torch.version.cuda,
        "transformers": transformers.__version__, "python": platform.python_version(),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    print(f"GPU {env['gpu']}, torch {env['torch']}, transformers {env['transformers']}", flush=True)

    rows = []
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mlsize-gpu-check-") as tmp:
        for name, seq, builder in model_specs(args):
            for attn in attentions:
                # The config.json mlsize reads: written in full (use_diff=False), since the
                # default diff form omits every value equal to the class defaults.
                cfg_path = Path(tmp) / f"{name}-{attn}.json"
                builder(attn)[0].to_json_file(str(cfg_path), use_diff=False)
                for precision in precisions:
                    for ckpt in checkpointing:
                        row = {"model": name, "precision": precision,
                               "checkpointing": "on" if ckpt else "off", "attention": attn}
                        label = f"{name} {precision} ckpt={row['checkpointing']} {attn} s={seq} b={args.batch}"
                        print(f"running {label} ...", flush=True)
                        try:
                            _, row["measured"] = train_run(builder, attn, precision, ckpt, seq,
                                                           args.batch, args.steps, device)
                        except Exception as exc:  # noqa: BLE001 - record and go on
                            if is_oom(exc):
                                row["oom"] = True
                            else:
                                row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
                            exc = None  # drop the traceback's references to GPU tensors
                        free_cuda()
                        if binary is not None:
                            try:
                                row["mlsize"] = mlsize_estimate(binary, cfg_path, precision, ckpt,
                                                                attn, seq, args.batch, args.device)
                            except Exception as exc:  # noqa: BLE001
                                row.setdefault("error", f"mlsize: {exc}")
                        m, e = row.get("measured"), row.get("mlsize")
                        print(f"  measured {'OOM' if row.get('oom') else fmt_gib(m['peak_bytes']) if m else 'error'}"
                              f" GiB, mlsize {fmt_gib(e['bytes']) if e else 'n/a'} GiB,"
                              f" step {fmt_ms(m['step_ms']) if m else 'n/a'} ms"
                              + (f"  [{row['error']}]" if row.get("error") else ""), flush=True)
                        rows.append(row)

    report = render(rows, env, args)
    report += f"\nTotal wall time: {time.perf_counter() - t_start:.0f} s.\n"
    print()
    print(report)
    Path(args.out).write_text(report)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
