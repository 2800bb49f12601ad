// The Documents view of the search page: the namespace's documents, their status and errors, delete and upload.
// Loaded before page.js, whose helpers ($, el, api, token, namespace, showStatus, openSource) it calls.
"use strict";

const REFRESH_MS = 2000;
let refreshTimer = null;
let pendingUploads = 0;

function formatOf(name) {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "(none)";
}

function fillFilter(select, values) {
  const current = select.value;
  select.replaceChildren(el("option", { value: "", textContent: "any" }),
    ...values.map((value) => el("option", { value, textContent: value })));
  select.value = values.includes(current) ? current : "";
}

function documentRow(doc) {
  const file = ["ok", "partial"].includes(doc.status)
    ? el("a", { href: "/documents/" + encodeURIComponent(doc.document_id) + "/source?namespace=" +
      encodeURIComponent(doc.namespace), textContent: doc.source_key })
    : doc.source_key;
  if (file.addEventListener) file.addEventListener("click", openSource);
  const error = doc.error_code ? [el("code", { textContent: doc.error_code }), " " + doc.error_message] : [];
  let remove = "";  // a deleted document offers nothing to delete
  if (doc.status !== "deleted") {
    remove = el("button", { type: "button", className: "delete", textContent: "Delete" });
    remove.setAttribute("aria-label", "Delete " + doc.source_key);
    remove.addEventListener("click", () => deleteDocument(doc, remove));
  }
  const updated = doc.updated_at ? new Date(doc.updated_at * 1000).toLocaleString() : "";
  return el("tr", { className: "document" }, el("td", {}, file),
    el("td", { className: "status-" + doc.status, textContent: doc.status }),
    el("td", { textContent: String(doc.chunk_count) }), el("td", { textContent: doc.pages ? String(doc.pages) : "" }),
    el("td", { className: "error" }, ...error),
    el("td", { textContent: updated }), el("td", { className: "actions" }, remove));
}

async function loadDocuments() {
  clearTimeout(refreshTimer);
  const { ok, status, data } = await api("GET", "/documents?namespace=" + encodeURIComponent(namespace()));
  if (!ok) { showStatus(status + ": " + (data.message || "error"), true); return; }
  const docs = data.documents;
  const counts = {};
  for (const doc of docs) counts[doc.status] = (counts[doc.status] || 0) + 1;
  $("status-counts").replaceChildren(...Object.entries(counts).sort().map(([name, count]) =>
    el("li", { className: "status-" + name }, el("strong", { textContent: String(count) }), " " + name)));
  fillFilter($("status-filter"), Object.keys(counts).sort());
  fillFilter($("format-filter"), [...new Set(docs.map((doc) => formatOf(doc.source_key)))].sort());
  const wantStatus = $("status-filter").value, wantFormat = $("format-filter").value;
  const shown = docs.filter((doc) => (!wantStatus || doc.status === wantStatus) &&
    (!wantFormat || formatOf(doc.source_key) === wantFormat));
  $("documents").tBodies[0].replaceChildren(...shown.map(documentRow));
  $("documents-summary").textContent = shown.length + " of " + docs.length + " documents in " + data.namespace;
  document.body.dataset.documents = "loaded";
  const running = pendingUploads > 0 || docs.some((doc) => doc.status === "processing");
  if (running && !$("panel-documents").hidden) refreshTimer = setTimeout(loadDocuments, REFRESH_MS);
}

async function deleteDocument(doc, button) {
  if (button.dataset.confirm !== "yes") {
    button.dataset.confirm = "yes";
    button.textContent = "Confirm delete";
    return;
  }
  const { ok, status, data } = await api("DELETE", "/documents/" + encodeURIComponent(doc.document_id) +
    "?namespace=" + encodeURIComponent(doc.namespace));
  if (!ok) { showStatus(status + ": " + (data.message || "could not delete " + doc.source_key), true); return; }
  showStatus("deleted " + doc.source_key);
  loadDocuments();
}

async function uploadFile(file) {
  const request = { namespace: namespace(), filename: file.name, content_type: file.type ||
    "application/octet-stream", size: file.size };
  const { ok, status, data } = await api("POST", "/documents", request);
  if (!ok) { showStatus(status + ": " + (data.message || "upload refused for " + file.name), true); return; }
  const upload = data.upload;
  const headers = Object.assign({}, upload.headers);
  if (new URL(upload.url, location.href).origin === location.origin && token()) {
    headers.Authorization = "Bearer " + token();
  }
  const sent = await fetch(upload.url, { method: upload.method, headers, body: file });
  showStatus(sent.ok ? "uploaded " + file.name + ", ingesting" : sent.status + ": upload of " + file.name + " failed",
    !sent.ok);
}

async function uploadFiles(files) {
  pendingUploads += files.length;
  try {
    for (const file of files) await uploadFile(file);
  } finally {
    pendingUploads -= files.length;
    loadDocuments();
  }
}

function wireDropZone() {
  const zone = $("drop-zone"), input = $("file-input");
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    uploadFiles(Array.from(event.dataTransfer.files));
  });
  zone.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); input.click(); }
  });
  zone.addEventListener("click", () => input.click());
  input.addEventListener("change", () => uploadFiles(Array.from(input.files)));
}
