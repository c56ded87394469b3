#!/usr/bin/env bash
# Set up everything Quire needs on a fresh machine, and nothing twice:
#   apt packages from packages.txt that are missing, a virtualenv in .venv, the pinned
#   requirements and Quire itself (editable). A second call reuses what exists.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
while read -r package; do
  [[ -z "$package" || "$package" == \#* ]] && continue
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done < packages.txt
if ((${#missing[@]})); then
  echo "setup: installing apt packages: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

wanted=$(cat requirements.txt pyproject.toml | sha256sum | cut -c1-16)
stamp=.venv/.quire-installed
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing Python packages into .venv" >&2
  [ -x .venv/bin/python ] || "${PYTHON:-python3}" -m venv .venv
  [ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q "uv==0.13.8"
  .venv/bin/uv pip install -q --python .venv/bin/python -r requirements.txt -e .
  echo "$wanted" > "$stamp"
fi
