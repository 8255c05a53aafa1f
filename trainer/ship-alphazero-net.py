#!/usr/bin/env python3
"""Copies a net promoted by the AlphaZero loop into models/ with provenance in its manifests.

  python3 trainer/ship-alphazero-net.py --state runs/issue10-loop --game chess \\
      --command "kishi train alphazero ..." [--generation G] [--out-dir models]

Takes `<state>/nets/gen-G.onnx` and `gen-G-int8.onnx` (G: the state's best generation), writes
`<out-dir>/<game>.onnx` and `<game>-int8.onnx` with manifests whose `training.loop` records the
run: the loop command, every generation up to G (self-play games and throughput, training steps
and samples/s, gate results with their match commands), the data phases, and `provenance.commit`
= `git rev-parse HEAD` at shipping time. Then run tools/nn/check-int8.ts to record the INT8
net's own reference outputs (its manifest keeps the fp32 ones until then).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True)
    ap.add_argument("--game", required=True, choices=["chess", "shogi"])
    ap.add_argument("--generation", type=int, default=None)
    ap.add_argument("--command", default="", help="the kishi train alphazero command line of the run")
    ap.add_argument("--out-dir", default=os.path.join(REPO, "models"))
    args = ap.parse_args()

    state = json.load(open(os.path.join(args.state, "state.json")))
    g = args.generation if args.generation is not None else state["best"]["generation"]
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip() or "unknown"
    gens = [r for r in state["generations"] if r["generation"] <= g]
    loop = {
        "tool": "kishi train alphazero (src/learning/alphazero/loop.ts)",
        "command": args.command or next((e["what"] for e in state.get("events", []) if e["what"].startswith("started: ")), ""),
        "stateDir": os.path.abspath(args.state),
        "generation": g,
        "settings": state["settings"],
        "selfplayGames": sum(s["games"] for r in gens for s in r.get("selfplay", [])),
        "generations": gens,
        "curve": [c for c in state.get("curve", []) if c["generation"] <= g],
    }
    for suffix in ["", "-int8"]:
        src = os.path.join(args.state, "nets", f"gen-{g}{suffix}.onnx")
        if not os.path.exists(src):
            print(f"skipping {src}: not there")
            continue
        dst = os.path.join(args.out_dir, f"{args.game}{suffix}.onnx")
        m = json.load(open(src[:-5] + ".manifest.json"))
        m["training"]["loop"] = loop
        m["provenance"]["commit"] = commit
        m["provenance"]["notes"] = (
            f"AlphaZero loop generation {g} (promoted by its gate), continued from the shipped bootstrap net; "
            f"{loop['selfplayGames']} self-play games; shipped by trainer/ship-alphazero-net.py"
        )
        tmp = dst + ".tmp"
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
        with open(dst[:-5] + ".manifest.json.tmp", "w") as f:
            json.dump(m, f, indent=1)
            f.write("\n")
        os.replace(dst[:-5] + ".manifest.json.tmp", dst[:-5] + ".manifest.json")
        print(f"wrote {dst} and its manifest (generation {g}, commit {commit})")


if __name__ == "__main__":
    main()
