#!/usr/bin/env bash
# Set up and run the pipeline on defaults. With no model endpoint configured everything runs offline:
# Stage I with the built-in demo model (in a scratch project under runs/), calibration with scripted policies.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_SILENT_STARTUP=1
v3ast() { .venv/bin/v3ast "$@"; }
stage1_provider="${V3AST_STAGE1_PROVIDER:-demo}"

echo "== Stage I: propose and review blueprints (provider: $stage1_provider) in a scratch project runs/stage1-demo"
demo=runs/stage1-demo
rm -rf "$demo" && mkdir -p "$demo/blueprints"
cp -r blueprints/sources blueprints/rubric.yaml "$demo/blueprints/" && cp -r templates "$demo/"
git init -q "$demo"
V3AST_ROOT="$demo" v3ast propose --cell R2-S2 --provider "$stage1_provider"
V3AST_ROOT="$demo" v3ast review --pending --provider "$stage1_provider"
V3AST_ROOT="$demo" v3ast stage1 report

echo "== Human review (the TUI is interactive: \`v3ast tui\`); here the top-scored kept blueprint is accepted"
top=$(V3AST_ROOT="$demo" v3ast blueprints list --status kept | tail -n +2 | sort -t$'\t' -k4 -r | head -1 | cut -f1)
V3AST_ROOT="$demo" v3ast blueprints decide "$top" --status accepted --actor "main job" \
  --reason "accepted by the main job's demo: the highest rubric total"

stage2_provider="${V3AST_STAGE2_PROVIDER:-demo}"
echo "== Stage II: implement the accepted blueprint (agent: $stage2_provider), then lint and validate it"
V3AST_ROOT="$demo" v3ast implement --accepted --provider "$stage2_provider"
V3AST_ROOT="$demo" v3ast blueprints list --status implemented

echo "== Task pairs: lint (Stage II principles)"
v3ast lint --all
echo "== Task pairs: oracle validation of the reference paths without a matching receipt (the full proof of every"
echo "   pair is \`v3ast pairs validate --all\`: docs/validation.md)"
v3ast pairs validate --all --changed --workers 3

echo "== Calibration: Mini-SWE-agent on every pair (scripted policies unless V3AST_MODEL_BASE_URL is set)"
v3ast calibrate --all --workers 2
echo "== Metrics over the calibration records"
v3ast metrics runs/calibration-*/records
