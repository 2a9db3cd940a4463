// Leak groups: sortable, filterable by text, kind and a flame graph frame; a
// click on a row shows its stack and allocations and marks it on the timeline.
function renderTable() {
  const pageRows = 500;  // rows drawn at once: a report may hold many thousands of groups
  if (!leaks.length) { $("#table-section").hidden = true; return; }  // the verdict says so
  const columns = [
    { key: "kind", label: "kind", get: (g) => g.kind },
    { key: "bytes", label: "bytes", get: (g) => g.bytes, num: true, show: (g) => g.bytes ? fmtBytes(g.bytes) : "" },
    { key: "count", label: "count", get: (g) => g.count, show: (g) => (g.attributed_by_stack ? "?" : g.count), num: true },
    { key: "device", label: "device", get: (g) => g.device, num: true, show: (g) => groupDevice(g) },
    { key: "api", label: "api", get: (g) => g.api },
    { key: "where", label: "where", get: (g) => where(g) },
    { key: "first", label: "allocated", num: true, get: (g) => (groupTimes(g) || [Infinity])[0],
      show: (g) => { const t = groupTimes(g); return t ? fmtSince(t[0], g.pid) + (t[1] > t[0] ? " \u2013 " + fmtSince(t[1], g.pid) : "") : ""; },
      has: (g) => groupTimes(g) !== null },
  ].filter((c) => !c.has || leaks.some(c.has));
  // A site of several ranks is one row: "ranks 0-3,5-7 (7 of 8)"; sorted by its first rank.
  if (merged) columns.push({ key: "pid", label: job.ranks.length ? "process / ranks" : "process", num: true,
                             get: (g) => g.ranks && g.ranks.length ? g.ranks[0].rank : g.rank >= 0 ? g.rank : g.pid,
                             show: groupProcess });
  const head = $("#leak-table thead tr");
  let sortKey = "bytes", ascending = false, shown = pageRows, only = null;
  for (const c of columns) {
    const th = el("th", { "data-key": c.key }, c.label);
    th.addEventListener("click", () => { ascending = sortKey === c.key ? !ascending : !c.num; sortKey = c.key; render(); });
    head.append(th);
  }
  // The notes: what the table says beside a group's numbers; its column only when some group has one.
  const notesOf = (g) => {
    const out = [];
    if (g.suppressed_by) out.push(el("span", { class: "tag supp", title: g.suppressed_by }, "suppressed"));
    if (g.cached_by) out.push(el("span", { class: "tag cache", title: "held by a caching allocator, not a leak" }, "cached by " + g.cached_by));
    // Lost or still reachable (docs/ci.md#lost-or-still-reachable), where the report's scan ran.
    if (g.reachability === "definitely_lost") out.push(el("span", { class: "tag lost", title: "no global, stack or heap block of the program referred to it" }, "definitely lost"));
    if (g.reachability === "still_reachable") out.push(el("span", { class: "tag reach", title: g.referenced_from ? "referenced from " + g.referenced_from : "referenced from the program's memory" }, "still reachable"));
    if (g.reachability === "not_determined") out.push(el("span", { class: "tag" }, "reachability not determined"));
    if (g.growing) out.push(el("span", { class: "tag grow" }, "growing " + (g.count_history || []).join("\u2192") + "\u2192" + g.count));
    if (g.baseline) out.push(el("span", { class: "tag" }, g.baseline));
    if (g.released_by) out.push(el("span", { class: "tag" }, "freed by " + g.released_by));
    if (g.owner) out.push(el("span", { class: "tag", title: "made by this library handle" }, "owned by " + g.owner));
    if (g.attributed_by_stack) out.push(el("span", { class: "tag", title: g.api + " is linked into the program statically: how many handles is not known" }, "found by stack"));
    return out;
  };
  const withNotes = leaks.some((g) => notesOf(g).length);
  if (withNotes) head.append(el("th", {}, "notes"));
  const kindSelect = $("#kind-filter");
  for (const k of [...new Set(leaks.map((g) => g.kind))]) kindSelect.append(el("option", { value: k }, k));
  const body = $("#leak-table tbody");
  const searchText = new Map(leaks.map((g) => [g, (where(g) + " " + g.api + " " + (g.stack || []).map((f) => f.function + " " + f.file).join(" ")).toLowerCase()]));
  const chip = $("#flame-filter");
  const rowOf = new Map(leaks.map((g, i) => [g, i]));
  function render() {
    const text = $("#text-filter").value.toLowerCase();
    const kind = kindSelect.value;
    const col = columns.find((c) => c.key === sortKey);
    const rows = leaks.filter((g) => (!kind || g.kind === kind) && (!only || only.has(g)) && (!text || searchText.get(g).includes(text)));
    rows.sort((a, b) => { const x = col.get(a), y = col.get(b); const r = x < y ? -1 : x > y ? 1 : 0; return ascending ? r : -r; });
    for (const th of head.querySelectorAll("th")) th.className = th.dataset.key === sortKey ? "sorted" + (ascending ? " asc" : "") : "";
    body.replaceChildren();
    for (const g of rows.slice(0, shown)) {
      const tr = el("tr", { "data-group": rowOf.get(g) });
      for (const c of columns) tr.append(el("td", c.num ? { class: "num" } : {}, String(c.show ? c.show(g) : c.get(g))));
      if (withNotes) {
        const notes = el("td");
        notes.append(...notesOf(g));
        tr.append(notes);
      }
      tr.addEventListener("click", () => {
        for (const r of body.children) r.classList.remove("selected");
        tr.classList.add("selected");
        showStack(g);
        emit("selectGroup", g);
      });
      body.append(tr);
    }
    $("#row-count").textContent = (rows.length > shown ? shown + " shown of " : "") + rows.length + " of " + plural(leaks.length, "group");
    $("#more-rows").hidden = rows.length <= shown;
  }
  function showStack(g) {
    const panel = $("#stack-panel");
    panel.replaceChildren(el("div", {}, (g.bytes ? fmtBytes(g.bytes) + " of " : "") + g.kind + " in " + plural(g.count, "resource") + ", created by " + g.api + (g.device >= 0 ? " on device " + g.device : "") +
        (g.site ? " \u00b7 site " + g.site : "")));
    (g.stack || []).forEach((f, i) => {
      const line = el("div", { class: isRuntimeFrame(f) ? "runtime" : "" });
      line.append("#" + i + " ", el("span", { class: "fn" }, f.function || "??"));
      line.append((f.file ? "  " + f.file + ":" + f.line : "") + (isPython(f) ? "  (Python)" : "  (" + moduleName(f) + ")") + (f.inlined ? " [inlined]" : ""));
      panel.append(line);
    });
    const allocations = g.allocations || [];
    if (allocations.length) {
      panel.append(el("div", { class: "alloc-head" }, "allocations" + (allocations.length < g.count ? " (first " + allocations.length + " of " + g.count + ")" : "") + ":"));
      for (const a of allocations.slice(0, 20))
        panel.append(el("div", {}, "  " + a.address + "  " + fmtBytes(a.bytes) + "  at " + fmtSince(a.time_ns || 0, g.pid) + "  thread " + a.thread));
    }
    panel.hidden = false;
  }
  links.filterGroups.push((set, label) => {
    only = set;
    chip.hidden = !set;
    chip.querySelector("span").textContent = set ? "only groups under " + label : "";
    shown = pageRows;
    render();
  });
  chip.querySelector("button").addEventListener("click", () => emit("filterGroups", null));
  $("#more-rows").addEventListener("click", () => { shown += pageRows; render(); });
  $("#text-filter").addEventListener("input", () => { shown = pageRows; render(); });
  kindSelect.addEventListener("change", render);
  render();
}
