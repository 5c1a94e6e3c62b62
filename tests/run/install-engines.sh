#!/usr/bin/env bash
# Installs the CWL engines `easyflow run` hands flows to, pinned, from PyPI
# into a virtualenv (never the system Python): cwltool and Toil with its CWL
# runner. Once per machine, into ${XDG_CACHE_HOME:-$HOME/.cache}/easyflow-ls/engines
# (about 45 s); prints that directory. The tests find it there (or at
# $EASYFLOW_ENGINES).
set -euo pipefail
# toil[cwl] 9.6.0 requires this cwltool exactly.
pins=("toil[cwl]==9.6.0" "cwltool==3.3.20260925135507")
venv="${EASYFLOW_ENGINES:-${XDG_CACHE_HOME:-$HOME/.cache}/easyflow-ls/engines}"
stamp="$venv/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${pins[*]}" ]; then
  echo "install-engines.sh: installing ${pins[*]} into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}" >&2
  echo "${pins[*]}" >"$stamp"
fi
"$venv/bin/cwltool" --version >/dev/null
"$venv/bin/toil-cwl-runner" --version >/dev/null
echo "$venv"
