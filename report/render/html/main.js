// The page's entry point: each view draws itself from the embedded report;
// a view that fails says so in its place and the others still draw.
for (const [name, render] of [["summary", renderSummary], ["oom", renderOoms], ["table", renderTable], ["flamegraph", renderFlame],
                              ["timeline", renderTimeline], ["growth", renderGrowth], ["allocations", renderAllocations], ["segments", renderPyTorch], ["jax", renderJax], ["details", renderDetails]]) {
  try {
    render();
  } catch (e) {
    const at = document.querySelector("[data-section='" + name + "']") || document.body;
    at.append(el("div", { class: "view-error" }, "This view could not be drawn: " + e.message));
    console.error(e);
  }
}
// The header's links lead only to sections the page shows.
for (const a of document.querySelectorAll("header nav a")) {
  const target = document.querySelector(a.getAttribute("href"));
  const shown = target && !target.hidden && (target.id !== "details-section" ||
                                             [...target.querySelectorAll("section")].some((s) => !s.hidden));
  a.hidden = !shown;
}
document.body.dataset.ready = "1";
