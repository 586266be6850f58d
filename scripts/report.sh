#!/usr/bin/env bash
# The lecture report: result folders -> build/report/index.md (or --out DIR) with Markdown tables,
# CSV and PNG plots; several machines (an H100 and a laptop, say) are drawn side by side.
#
#   bash scripts/report.sh [--out DIR] [--no-plots] [RESULTS_DIR ...]
#
# A RESULTS_DIR is one machine's folder of runs, or a folder of machine folders such as the one
# `bash scripts/lecture.sh --out DIR` fills (DIR/<machine>/); default: build/lecture. The report
# prints which machine folders it used.
set -euo pipefail
cd "$(dirname "$0")/.."
# matplotlib comes from the distribution (python3-matplotlib, installed by scripts/setup.sh) and
# belongs to its python3, which may not be the first on PATH (pyenv, conda).
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null && "$py" -c "import matplotlib" 2>/dev/null; then
    exec "$py" scripts/report/report.py "$@"
  fi
done
echo "report: no python3 with matplotlib (apt install python3-matplotlib, or scripts/setup.sh); tables only" >&2
exec python3 scripts/report/report.py --no-plots "$@"
