#!/usr/bin/env bash
# The peer the speed benches compare with (bench/qwen_agent_peer.py): Qwen-Agent 0.0.34 in a venv of its own, so
# its pins never meet docshelf's. Not run by `make test`; the benches print a skip line when it is absent.
#   infra/qwen-agent-venv.sh [FOLDER]     (default /opt/qwen-agent-0.0.34, the benches' QWEN_AGENT_PYTHON default)
# `qwen-agent[rag]` alone cannot import qwen_agent (soundfile, tqdm) nor read .xlsx/.xls (openpyxl, xlrd).
set -euo pipefail
target="${1:-/opt/qwen-agent-0.0.34}"
python="${PYTHON:-python3}"
"$python" -m venv "$target"
"$target/bin/pip" install --quiet --upgrade pip
"$target/bin/pip" install --quiet "qwen-agent[rag]==0.0.34" soundfile tqdm openpyxl xlrd
"$target/bin/python" -c "import qwen_agent.tools.doc_parser" && echo "Qwen-Agent 0.0.34 ready: QWEN_AGENT_PYTHON=$target/bin/python"
