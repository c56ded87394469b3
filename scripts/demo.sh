#!/usr/bin/env bash
# Set up (idempotently) and run Quire's main job on the bundled samples with the embedded defaults:
# ingest samples/, process everything through the real Airflow DAG until idle, print the outcome.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
quire ingest samples/
quire run --until-idle
quire status
