#!/usr/bin/env bash
# The client's extras as a user installs them: fresh venvs, `pip install` from the package registry, then an import
# of each retriever and a check that no parser, numpy or index code came along. Needs the registry (not run by
# `make test`, whose tests build and install the bare client offline: tests/unit/client/test_client_import.py).
#   infra/check-client-install.sh            docshelf-client[langchain] and [llamaindex] (clients/python)
#   infra/check-client-install.sh --full     also the full package: docshelf[langchain] and docshelf[llamaindex]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

check() {  # check NAME REQUIREMENT MODULE CLASS [ALLOWED] (ALLOWED: a package the framework itself imports)
    local venv="$work/$1"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    local started=$SECONDS
    "$venv/bin/pip" install --quiet "$2"
    "$venv/bin/python" - "$3" "$4" "${5:-}" <<'PY'
import importlib, sys
module, name, allowed = sys.argv[1], sys.argv[2], sys.argv[3]
retriever = getattr(importlib.import_module(module), name)
heavy = {"numpy", "tiktoken", "pypdfium2", "docx", "lxml"} - {allowed}
loaded = sorted(m for m in sys.modules if m.split(".")[0] in heavy
                or m.startswith(("docshelf.parsers", "docshelf.index", "docshelf.search")))
assert not loaded, loaded
print(f"  {module}.{name} imports; no parser, index or search code" + (f" ({allowed} is the framework's)" if allowed else ""))
PY
    echo "$1: installed in $((SECONDS - started)) s"
}

check client-langchain "$repo/clients/python[langchain]" docshelf.client.langchain DocshelfRetriever
# llama-index-core imports numpy itself; the client and the LangChain retriever load none.
check client-llamaindex "$repo/clients/python[llamaindex]" docshelf.client.llamaindex DocshelfLlamaRetriever numpy
if [[ "${1:-}" == "--full" ]]; then
    check full-langchain "$repo[langchain]" docshelf.client.langchain DocshelfRetriever
    check full-llamaindex "$repo[llamaindex]" docshelf.client.llamaindex DocshelfLlamaRetriever numpy
fi
