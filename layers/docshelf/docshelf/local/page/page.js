// The search page of `docshelf serve`: results as evidence, the evidence text, and the documents of a namespace.
// Every value from the API is inserted as text through DOM APIs, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "docshelf-token";

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) node.append(child);
  return node;
}

function token() { return $("token").value.trim(); }
function namespace() { return $("namespace").value.trim(); }

function apiHeaders(json) {
  const headers = json ? { "Content-Type": "application/json" } : {};
  if (token()) headers.Authorization = "Bearer " + token();
  return headers;
}

async function api(method, path, body) {
  const init = { method, headers: apiHeaders(body !== undefined) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
}

function showStatus(text, isError) {
  $("status").className = isError ? "error" : "";
  $("status").textContent = text;
}

// ---- results

function pagesLabel(pages) {
  if (!pages || pages.length === 0) return "";
  const first = pages[0], last = pages[pages.length - 1];
  return first === last ? "p. " + first : "pp. " + first + "-" + last;
}

function isPdf(name) { return name.toLowerCase().endsWith(".pdf"); }

function sourceHref(result) {
  const path = "/documents/" + encodeURIComponent(result.document_id) + "/source?namespace=" +
    encodeURIComponent(result.namespace);
  return path + (isPdf(result.source_file_name) && result.pages.length ? "#page=" + result.pages[0] : "");
}

// With a token the link cannot be followed as is (a navigation sends no Authorization header): fetch it, then
// open what came back, at the same #page.
async function openSource(event) {
  if (!token()) return;
  event.preventDefault();
  const link = event.currentTarget, [path, hash] = link.getAttribute("href").split("#");
  const response = await fetch(path, { headers: apiHeaders(false) });
  if (!response.ok) { showStatus(response.status + ": the source could not be opened", true); return; }
  const type = response.headers.get("Content-Type") || "";
  const target = type.startsWith("application/json")
    ? (await response.json()).url : URL.createObjectURL(await response.blob());
  window.open(target + (hash ? "#" + hash : ""), "_blank", "noopener");
}

function citation(result) {
  const line = el("div", { className: "citation" });
  const link = el("a", { className: "source", href: sourceHref(result), textContent: citedName(result) });
  link.addEventListener("click", openSource);
  line.append(link);
  if (result.section_path.length) {
    const crumbs = el("nav", { className: "breadcrumb" });
    crumbs.setAttribute("aria-label", "Section of " + citedName(result));
    for (const title of result.section_path) crumbs.append(el("span", { className: "section", textContent: title }));
    line.append(crumbs);
  }
  if (result.pages.length) line.append(el("span", { className: "page", textContent: pagesLabel(result.pages) }));
  return line;
}

// Appends chars[start:end) to parent, the parts inside a highlight span as <mark>. Offsets are code points.
function appendMarked(parent, chars, start, end, spans) {
  let at = start;
  for (const [from, to] of spans) {
    if (to <= at || from >= end) continue;
    const markStart = Math.max(from, at), markEnd = Math.min(to, end);
    if (markStart > at) parent.append(chars.slice(at, markStart).join(""));
    parent.append(el("mark", { textContent: chars.slice(markStart, markEnd).join("") }));
    at = markEnd;
  }
  if (at < end) parent.append(chars.slice(at, end).join(""));
}

function paragraphRanges(chars) {
  const ranges = [];
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === "\n" && chars[i + 1] === "\n") {
      if (i > start) ranges.push([start, i]);
      while (chars[i + 1] === "\n") i++;
      start = i + 1;
    }
  }
  if (start < chars.length) ranges.push([start, chars.length]);
  return ranges;
}

function renderText(result) {
  const chars = Array.from(result.text);
  const body = el("div", { className: "chunk" });
  for (const [start, end] of paragraphRanges(chars)) {
    const paragraph = el("p");
    appendMarked(paragraph, chars, start, end, result.highlights || []);
    body.append(paragraph);
  }
  return body;
}

// Where each row line of a table chunk's Markdown starts, in code points: the highlights index that text.
function rowLineStarts(chars) {
  const starts = [];
  let lineStart = 0;
  for (let i = 0; i <= chars.length; i++) {
    if (i < chars.length && chars[i] !== "\n") continue;
    if (chars[lineStart] === "|" && chars[lineStart + 1] === " ") starts.push(lineStart);
    lineStart = i + 1;
  }
  return starts;
}

function renderTable(result) {
  const cells = result.table, chars = Array.from(result.text), lineStarts = rowLineStarts(chars);
  const table = el("table", { className: "chunk-table" });
  if (cells.caption) table.append(el("caption", { textContent: cells.caption }));
  const head = el("thead"), body = el("tbody");
  cells.rows.forEach((row, index) => {
    const header = index < cells.header_rows;
    const tr = el("tr");
    let at = lineStarts.length === cells.rows.length ? lineStarts[index] + 2 : -1;
    for (const text of row) {
      const cell = el(header ? "th" : "td");
      const length = Array.from(text).length;
      // A cell holding "|" is written "\|" in the Markdown: its offsets no longer line up, so it gets no marks.
      if (at >= 0 && !text.includes("|")) appendMarked(cell, chars, at, at + length, result.highlights || []);
      else cell.textContent = text;
      at = at >= 0 && !text.includes("|") ? at + length + 3 : -1;
      if (header) cell.scope = "col";
      tr.append(cell);
    }
    (header ? head : body).append(tr);
  });
  if (head.children.length) table.append(head);
  table.append(body);
  const copy = el("button", { type: "button", className: "copy", textContent: "Copy as Markdown" });
  copy.addEventListener("click", () => copyText(result.text, copy));
  return el("div", { className: "chunk" }, table, copy);
}

function renderImage(result) {
  const body = renderText(result);
  const asset = result.asset || "";
  if (/^https?:\/\//.test(asset) || asset.startsWith("/documents/")) {
    const image = el("img", { className: "thumbnail", alt: result.text.slice(0, 200) });
    body.prepend(image);
    showImage(image, asset);
  }
  return body;
}

// The server's asset route wants the bearer token, which an <img src> does not send: fetch it, show the blob.
async function showImage(image, asset) {
  if (!asset.startsWith("/") || !token()) { image.src = asset; return; }
  const response = await fetch(asset, { headers: apiHeaders(false) });
  if (response.ok) image.src = URL.createObjectURL(await response.blob());
}

function renderResult(result, index) {
  const item = el("li", { className: "result " + result.chunk_type, id: "result-" + (index + 1) });
  const ranks = Object.entries(result.channel_ranks).map(([c, r]) => c + " #" + (r + 1)).join(", ");
  const meta = el("div", { className: "meta" }, result.chunk_type + " chunk, score " + result.score.toFixed(4) +
    (ranks ? ", ranked " + ranks : ""));
  const body = result.chunk_type === "table" && result.table ? renderTable(result)
    : result.chunk_type === "image" ? renderImage(result) : renderText(result);
  item.append(citation(result), meta, body);
  return item;
}

function renderPlan(data) {
  const box = $("plan");
  box.replaceChildren();
  box.hidden = !data.plan;
  if (!data.plan) return;
  const steps = new Map((data.steps || []).map((step) => [step.id, step]));
  const places = new Map(data.results.map((r, i) => [r.chunk_id, i]));
  box.append(el("h2", { textContent: "Plan" }), el("p", { className: "meta", textContent:
    "planner " + data.plan.planner + (data.plan.fallback_reason ? " (fallback: " + data.plan.fallback_reason + ")" : "") +
    ", " + data.tokens_used + " of " + data.budget_tokens + " tokens" + (data.truncated ? ", truncated" : "") }));
  const list = el("ol", { className: "steps" });
  for (const planned of data.plan.steps) {
    const step = steps.get(planned.id) || {};
    const item = el("li", { className: "step" }, el("strong", { textContent: planned.action + " " }),
      planned.query, el("span", { className: "step-status", textContent: " [" + (step.status || "not run") +
        (step.tokens !== undefined ? ", " + step.tokens + " tokens" : "") +
        (planned.depends_on.length ? ", after " + planned.depends_on.join(", ") : "") + "]" }));
    const evidence = el("ul");
    for (const chunkId of step.result_ids || []) {
      const place = places.get(chunkId);
      if (place === undefined) continue;
      const r = data.results[place];
      evidence.append(el("li", {}, el("a", { href: "#result-" + (place + 1),
        textContent: "[" + (place + 1) + "] " + citedName(r) + (r.section_path.length ? " > " +
          r.section_path.join(" > ") : "") }), el("span", { className: "meta", textContent: " " + pagesLabel(r.pages) })));
    }
    if (evidence.children.length) item.append(evidence);
    list.append(item);
  }
  box.append(list);
}

function renderEvidence(data, maxTokens) {
  $("evidence-text").textContent = data.evidence_text;
  const tokens = data.evidence_tokens === undefined ? "?" : data.evidence_tokens;
  $("evidence-meta").textContent = tokens + " of " + maxTokens + " tokens, " + data.evidence_chunks + " of " +
    data.results.length + " results";
}

function selectedMode() { return document.querySelector("input[name=mode]:checked").value; }

// The document's key in its namespace (what status shows and filters take); chunks made before it: the file name.
function citedName(result) {
  return result.source_key || result.source_file_name;
}

// The address bar says what is shown, so a reload or a shared link opens the same view: the search's own fields
// (pushed, so Back returns to the previous search), the namespace and the tab (replaced).
function followInAddressBar(fields, push) {
  const params = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === "") params.delete(name); else params.set(name, value);
  }
  const target = location.pathname + "?" + params.toString();
  if (target === location.pathname + location.search) return;
  if (push) history.pushState(null, "", target); else history.replaceState(null, "", target);
}

async function runSearch(push = true) {
  followInAddressBar({ namespace: namespace(), q: $("query").value, top_k: $("top-k").value,
    max_tokens: $("max-tokens").value, mode: selectedMode() === "agentic" ? "agentic" : undefined }, push);
  const list = $("results");
  if (token()) sessionStorage.setItem(TOKEN_KEY, token());
  delete document.body.dataset.state;
  showStatus("searching...");
  list.replaceChildren();
  const maxTokens = parseInt($("max-tokens").value, 10) || 2000;
  const body = { namespace: namespace(), query: $("query").value, top_k: parseInt($("top-k").value, 10) || 8,
    max_tokens: maxTokens };
  if (selectedMode() === "agentic") body.mode = "agentic";
  try {
    const { ok, status, data } = await api("POST", "/search", body);
    if (!ok) { showStatus(status + ": " + (data.message || "error"), true); return; }
    data.results.forEach((result, index) => list.append(renderResult(result, index)));
    renderPlan(data);
    renderEvidence(data, maxTokens);
    const fixed = Object.entries(data.corrections || {}).map(([a, b]) => a + " \u2192 " + b).join(", ");
    showStatus(data.results.length + " of " + data.total_chunks + " chunks, cache " + data.cache + ", " +
      data.took_ms.toFixed(1) + " ms" + (fixed ? ", searched as " + fixed : ""));
    document.body.dataset.state = "done";
  } catch (error) {
    showStatus("request failed: " + error, true);
  }
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch (error) {
    button.textContent = "Copy failed";
  }
}

// ---- tabs

function selectTab(tab) {
  for (const other of document.querySelectorAll("[role=tab]")) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  const views = { "tab-documents": "documents", "tab-evidence": "evidence" };
  followInAddressBar({ view: views[tab.id], namespace: namespace() }, false);
  if (tab.id === "tab-documents") loadDocuments();
}

function tabKeys(event) {
  const tabs = Array.from(document.querySelectorAll("[role=tab]"));
  const at = tabs.indexOf(document.activeElement);
  const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -at, End: tabs.length - 1 - at };
  if (at < 0 || !(event.key in moves)) return;
  event.preventDefault();
  const next = tabs[(at + moves[event.key] + tabs.length) % tabs.length];
  next.focus();
  selectTab(next);
}

// ---- start

function start() {
  $("search-form").addEventListener("submit", (event) => { event.preventDefault(); selectTab($("tab-results")); runSearch(); });
  for (const tab of document.querySelectorAll("[role=tab]")) tab.addEventListener("click", () => selectTab(tab));
  $("tabs").addEventListener("keydown", tabKeys);
  $("copy-evidence").addEventListener("click", () => copyText($("evidence-text").textContent, $("copy-evidence")));
  $("refresh-documents").addEventListener("click", loadDocuments);
  $("status-filter").addEventListener("change", loadDocuments);
  $("format-filter").addEventListener("change", loadDocuments);
  wireDropZone();
  const fragment = new URLSearchParams(location.hash.slice(1));
  $("token").value = fragment.get("token") || sessionStorage.getItem(TOKEN_KEY) || "";
  if (fragment.get("token")) {
    sessionStorage.setItem(TOKEN_KEY, fragment.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  window.addEventListener("popstate", () => fromAddressBar(true));
  fromAddressBar(false);
}

// The fields and the view the address bar names; a query there is searched (again, after Back or Forward).
function fromAddressBar(again) {
  const params = new URLSearchParams(location.search);
  if (params.get("namespace")) $("namespace").value = params.get("namespace");
  if (params.get("top_k")) $("top-k").value = params.get("top_k");
  if (params.get("max_tokens")) $("max-tokens").value = params.get("max_tokens");
  document.querySelector(params.get("mode") === "agentic" ? "input[value=agentic]" : "input[value=classic]").checked =
    true;
  if (params.get("view") === "documents") selectTab($("tab-documents"));
  else if (params.get("view") === "evidence") selectTab($("tab-evidence"));
  else if (again) selectTab($("tab-results"));
  if (params.get("q")) { $("query").value = params.get("q"); runSearch(false); }
}

start();
