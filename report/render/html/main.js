// The page's entry point: each view draws itself from the embedded report;
// a view that fails says so in its place and the others still draw.
for (const [name, render] of [["summary", renderSummary], ["oom", renderOoms], ["table", renderTable], ["flamegraph", renderFlame],
                              ["timeline", renderTimeline], ["segments", renderPyTorch], ["details", renderDetails]]) {
  try {
    render();
  } catch (e) {
    const at = document.querySelector("[data-section='" + name + "']") || document.body;
    at.append(el("div", { class: "view-error" }, "This view could not be drawn: " + e.message));
    console.error(e);
  }
}
document.body.dataset.ready = "1";
