// Test-only: runs in the search page (served by tests/functional/api/page_probe.py) once it has rendered, drives
// what `?probe=` asks (upload, delete), and writes its findings into the DOM for chromium --dump-dom to carry out.
"use strict";
(async function probe() {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const waitFor = async (test) => { for (let i = 0; i < 400 && !test(); i++) await sleep(25); };
  const report = (name, value) => {
    document.body.append(Object.assign(document.createElement("pre"), { id: "probe-" + name,
      textContent: JSON.stringify(value) }));
  };
  const actions = new URLSearchParams(location.search).get("probe") || "";
  await waitFor(() => document.body.dataset.state === "done" || document.body.dataset.documents === "loaded");
  if (actions.includes("upload")) {
    const files = new DataTransfer();
    files.items.add(new File(["probe upload bytes"], "dropped.txt", { type: "text/plain" }));
    document.getElementById("drop-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: files, bubbles: true,
      cancelable: true }));
    await waitFor(() => /uploaded dropped\.txt/.test(document.getElementById("status").textContent));
  }
  if (actions.includes("delete")) {
    const button = document.querySelector("button.delete");
    button.click();
    button.click();
    await waitFor(() => /^deleted /.test(document.getElementById("status").textContent));
  }
  if (actions.includes("keys")) {
    const key = (name) => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true }));
    document.getElementById("tab-results").focus();
    const seen = [];
    for (const name of ["ArrowRight", "ArrowRight", "ArrowRight", "End", "Home", "ArrowLeft"]) {
      key(name);
      seen.push(document.activeElement.id + (document.querySelector("[aria-selected=true]") === document.activeElement
        ? "" : " (not selected)"));
    }
    report("keys", seen);
  }
  if (actions.includes("layout")) {
    const table = document.getElementById("documents");
    report("layout", { page: document.documentElement.scrollWidth, window: innerWidth,
      table: Math.ceil(table.getBoundingClientRect().right),
      deletable: Array.from(table.tBodies[0].rows).filter((row) => row.querySelector("button.delete"))
        .map((row) => row.cells[1].textContent) });
  }
  report("location", location.search);
  report("status", document.getElementById("status").textContent);
  const texts = [document.body.innerText];
  for (const node of document.querySelectorAll("body *")) {
    for (const pseudo of ["::before", "::after"]) {
      const content = getComputedStyle(node, pseudo).content;
      if (content && content !== "none" && content !== "normal") texts.push(content);
    }
  }
  report("visible", texts);
  const audit = await axe.run(document, { resultTypes: ["violations"] });
  report("axe", audit.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })));
  document.body.dataset.probe = "done";
})();
