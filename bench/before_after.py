#!/usr/bin/env python3
"""#1 of realistic requests from two builds of mlsize, as a Markdown table (issue 27's
before/after). Usage: bench/before_after.py OLD_BINARY NEW_BINARY"""
import json, subprocess, sys, os
env=dict(os.environ, MLSIZE_TODAY="2026-12-01")
OLD, NEW = sys.argv[1], sys.argv[2]
reqs=[
 "recommend --model llama-3-70b --task inference --quant int4 --batch 1 --tokens 10M",
 "recommend --model llama-3-70b --task inference --tokens 10M",
 "recommend --model llama-2-7b --task inference --tokens 1B",
 "recommend --model llama-3-8b --task inference --quant int8 --batch 8 --tokens 50M --provider gcp",
 "recommend --model llama-3-8b --task inference --tokens 100M --provider aws",
 "recommend --model llama-3-70b --task inference --rate 5 --tpot 50ms",
 "recommend --model llama-2-70b --task lora --tokens 50M",
 "recommend --model llama-3-70b --task qlora --tokens 20M",
 "recommend --model llama-2-7b --task finetune --tokens 50M --gpus a100-80gb:4",
 "recommend --model llama-2-13b --task finetune --tokens 100M --gpus h100:8",
 "recommend --params 7B --data 200GB --budget 20k --deadline 7d",
 "recommend --params 70B --tokens 1T",
 "recommend --params 13B --tokens 100B --provider aws",
 "recommend --task gbdt --data 20GB",
 "recommend --task gbdt --data 200GB",
 "recommend --task gbdt --data 5GB --provider cudo",
 "recommend --model mixtral-8x7b --task finetune --tokens 100M",
]
def first(binary, req):
    r=subprocess.run([binary]+req.split()+["--format","json","--top","1"],capture_output=True,text=True,env=env)
    if r.returncode!=0: return "exit %d: %s"%(r.returncode, r.stderr.strip().splitlines()[0][:80] if r.stderr else "")
    d=json.loads(r.stdout); 
    if not d["recommendations"]: return "none"
    p=d["recommendations"][0]; st=p["strategy"]
    s="%s ×%d"%(p["offering"]["id"], p["device_count"])
    bits=[]
    if st["tensor_parallel"]>1: bits.append("TP%d"%st["tensor_parallel"])
    if st["pipeline_parallel"]>1: bits.append("PP%d"%st["pipeline_parallel"])
    w=d["workload"]
    if w["task"] not in ("inference","gbdt"): bits.append("ZeRO-%d"%st["zero_stage"])
    if w["task"]=="inference" and "serving" not in p and p["time"]["seconds"]:
        busy=p["time"]["seconds"]-p["time"]["setup_seconds"]; bits.append("%.0f tok/s"%(w["tokens"]/busy))
    if w["task"]=="gbdt": bits.append("host %s GB"%(round(p["offering"]["host_memory_bytes"]/1e9) if p["offering"].get("host_memory_bytes") else "?"))
    t=p["time"]["seconds"]; c=p["cost"]["usd"]
    if t: bits.append("%.1f h"%(t/3600))
    if c is not None: bits.append("$%.0f"%c)
    elif p.get("serving"): bits.append("$%.2f/h"%p["serving"]["usd_per_hour"])
    return s+" ("+", ".join(bits)+")"
print("| # | request | before #1 | after #1 |"); print("|---|---|---|---|")
for i,q in enumerate(reqs,1):
    print("| %d | `mlsize %s` | %s | %s |"%(i,q,first(OLD,q),first(NEW,q)))
