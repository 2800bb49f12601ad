"""The search page of `docshelf serve`: one self-contained HTML document (no external script, style or font).

`/?namespace=NS&q=QUERY` runs that search on load; a token given as `#token=JWT` (a fragment, so it is never
sent to the server or written to its log) is kept in the tab's sessionStorage. Results are inserted as text,
never as HTML.
"""

from __future__ import annotations

SEARCH_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docshelf search</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
  form { display: grid; grid-template-columns: 10rem 1fr 5rem auto; gap: .5rem; }
  input, button { font: inherit; padding: .35rem .5rem; }
  #token-row { grid-column: 1 / -1; }
  #token { width: 100%; box-sizing: border-box; }
  #status { color: #555; margin: 1rem 0; }
  #status.error { color: #a00; }
  ol { padding-left: 1.5rem; }
  li.result { margin-bottom: 1.2rem; }
  .citation { font-weight: 600; }
  .citation span + span::before { content: " \\u00b7 "; color: #999; }
  .meta { color: #666; font-size: 85%; }
  pre { white-space: pre-wrap; background: #f6f6f6; padding: .6rem; margin: .3rem 0 0; max-height: 16rem;
        overflow: auto; }
</style>
</head>
<body>
<h1>docshelf search</h1>
<form id="search-form">
  <input id="namespace" name="namespace" placeholder="namespace" value="default" required>
  <input id="query" name="q" placeholder="query" required>
  <input id="top-k" name="top_k" type="number" min="1" max="50" value="8" title="top_k">
  <button type="submit">Search</button>
  <div id="token-row"><input id="token" placeholder="bearer token (leave empty with --no-auth)"></div>
</form>
<p id="status"></p>
<ol id="results"></ol>
<script>
"use strict";
const $ = (id) => document.getElementById(id);

function pagesLabel(pages) {
  if (!pages || pages.length === 0) return "";
  const first = pages[0], last = pages[pages.length - 1];
  return first === last ? "p. " + first : "pp. " + first + "-" + last;
}

function span(cls, text) {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = text;
  return el;
}

function renderResult(result) {
  const item = document.createElement("li");
  item.className = "result";
  const citation = document.createElement("div");
  citation.className = "citation";
  citation.append(span("file", result.source_file_name));
  if (result.section_path.length) citation.append(span("section", result.section_path.join(" > ")));
  if (result.pages.length) citation.append(span("page", pagesLabel(result.pages)));
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.textContent = result.chunk_type + " \\u00b7 score " + result.score.toFixed(4) + " \\u00b7 " +
    result.document_id + "#" + result.chunk_id;
  const text = document.createElement("pre");
  text.textContent = result.text;
  item.append(citation, meta, text);
  return item;
}

async function runSearch() {
  const status = $("status"), list = $("results");
  const token = $("token").value.trim();
  if (token) sessionStorage.setItem("docshelf-token", token);
  status.className = "";
  status.textContent = "searching...";
  list.replaceChildren();
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const body = { namespace: $("namespace").value.trim(), query: $("query").value,
                 top_k: parseInt($("top-k").value, 10) || 8 };
  try {
    const response = await fetch("/search", { method: "POST", headers, body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) {
      status.className = "error";
      status.textContent = response.status + ": " + (data.message || "error");
      return;
    }
    data.results.forEach((result) => list.append(renderResult(result)));
    status.textContent = data.results.length + " of " + data.total_chunks + " chunks \\u00b7 cache " + data.cache +
      " \\u00b7 " + data.took_ms.toFixed(1) + " ms";
    document.body.dataset.state = "done";
  } catch (error) {
    status.className = "error";
    status.textContent = "request failed: " + error;
  }
}

$("search-form").addEventListener("submit", (event) => { event.preventDefault(); runSearch(); });

(function start() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token") || sessionStorage.getItem("docshelf-token") || "";
  $("token").value = token;
  if (fragment.get("token")) history.replaceState(null, "", location.pathname + location.search);
  const params = new URLSearchParams(location.search);
  if (params.get("namespace")) $("namespace").value = params.get("namespace");
  if (params.get("top_k")) $("top-k").value = params.get("top_k");
  if (params.get("q")) { $("query").value = params.get("q"); runSearch(); }
})();
</script>
</body>
</html>
"""
