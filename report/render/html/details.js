// The rest of the report: processes of a merged report, notes (releases of
// unknown handles, failed releases), suppressions used, loaded modules.
function renderDetails() {
  const section = (id, show) => { const s = $("#" + id); if (!show) s.closest("section").hidden = true; return s; };
  if (merged) {
    // Columns with something to say: a rank only where a process had one (RANK, OMPI_COMM_WORLD_RANK...).
    const columns = [["pid", (p) => p.pid], ["rank", (p) => p.rank >= 0 ? p.rank : "", R.processes.some((p) => p.rank >= 0)],
                     ["local rank", (p) => p.local_rank >= 0 ? p.local_rank : "", R.processes.some((p) => p.local_rank >= 0)],
                     ["world size", (p) => p.world_size || "", R.processes.some((p) => p.world_size)],
                     ["host", (p) => p.host || "", R.processes.some((p) => p.rank >= 0 && p.host)],
                     ["program", (p) => (p.argv || [p.exe]).join(" ")], ["reason", (p) => p.reason],
                     ["started", (p) => p.start_unix_ns ? new Date(p.start_unix_ns / 1e6).toISOString() : "", R.processes.some((p) => p.start_unix_ns)],
                     ["leaked", (p) => fmtBytes(p.leaked_bytes)], ["resources", (p) => p.leaked_count]].filter((c) => c[2] !== false);
    section("processes", true).append(dataTable(columns.map((c) => c[0]), R.processes.map((p) => columns.map((c) => c[1](p))),
                                                { id: "process-table" }));
  } else {
    section("processes", false);
  }
  // Earlier reports of the same processes: superseded by their latest, counted in no total.
  const history = R.history || [];
  if (history.length) {
    const box = $("#processes");
    box.closest("section").hidden = false;
    box.append(el("p", { class: "meta" }, plural(history.length, "earlier report") +
                  " of these processes (snapshots, checkpoints, out-of-memory), counted once by each process's latest report:"));
    box.append(dataTable(["pid", "reason", "leaked", "resources"],
        history.map((p) => [p.pid, p.reason, fmtBytes(p.leaked_bytes), p.leaked_count])));
  }
  const notes = R.notes || [];
  const notesBox = section("notes", notes.length > 0);
  if (notes.length) {
    notesBox.append(el("p", { class: "meta" }, "Calls that released something cudaleak never saw created, or whose release failed" +
                    (R.notes_total > notes.length ? " (" + notes.length + " kinds listed of " + R.notes_total + " calls)" : "") + "."));
    notesBox.append(dataTable(["note", "api", "handle", "result", "calls", "where"],
        notes.map((n) => [n.type.replace(/_/g, " "), n.api, n.handle, n.result, n.count, where(n)])));
  }
  const used = R.suppressions || [];
  const suppBox = section("suppressions", used.length > 0);
  if (used.length)
    suppBox.append(dataTable(["rule", "from", "resources hidden", "bytes hidden"], used.map((u) => [u.rule, u.source, u.count, fmtBytes(u.bytes)])));
  const modules = R.modules || [];
  const modBox = section("modules", modules.length > 0);
  if (modules.length) {
    const details = el("details");
    details.append(el("summary", {}, plural(modules.length, "module") + " loaded when the report was written" +
                      (R.python && R.python.version ? " \u00b7 Python " + R.python.version + (R.python.frames ? " (frames in stacks)" : R.python.note ? " (" + R.python.note + ")" : "") : "")));
    details.append(dataTable(["path", "base", "build id"], modules.map((m) => [m.path, m.base, m.build_id || ""])));
    modBox.append(details);
  }
}
