// PyTorch's caching allocator, per device: a segment map (each segment a bar
// of its blocks, laid out by address) where live tensors, free space stuck in
// segments that also hold live tensors (fragmentation) and wholly free
// segments (cache) have their own colours; and the live tensors by Python line.
function renderPyTorch() {
  const section = $("#segments");
  if (!pytorchViews.length) { section.hidden = true; return; }
  const colors = { live: "#4e79a7", other: "#f28e2b", stuck: "#d62728", cached: "#c3ccd9" };
  const select = $("#segments-view");
  pytorchViews.forEach((v, i) => select.append(el("option", { value: i }, v.label)));
  const holder = $("#segment-maps");

  const segmentFacts = (s) => {
    const [address, size, blocks] = s;
    let live = 0, free = 0, largest = 0;
    for (const [bytes, state] of blocks) {
      if (state === 0) { free += bytes; largest = Math.max(largest, bytes); } else live += bytes;
    }
    return { address, size, blocks, live, free, largest, wholeFree: live === 0 };
  };

  function drawDevice(d) {
    const segments = (d.segment_list || []).map(segmentFacts).sort((a, b) => a.address - b.address);
    const cachedBytes = segments.filter((s) => s.wholeFree).reduce((a, s) => a + s.size, 0);
    const cachedCount = segments.filter((s) => s.wholeFree).length;
    const box = el("div", { class: "segment-device", "data-device": d.device });
    box.append(el("h3", { class: "lane-title" }, "device " + d.device + (d.rank >= 0 ? " \u00b7 rank " + d.rank : "") + (d.pid ? " \u00b7 pid " + d.pid : "") +
                  " \u2014 " + fmtBytes(d.reserved) + " reserved in " +
                  plural(d.segments, "segment") + (d.expandable ? " (expandable segments)" : "")));
    // The reading in words: live, stuck (fragmentation), cached.
    const parts = [fmtBytes(d.allocated) + " (" + fmtPercent(d.allocated, d.reserved) + ") is live tensors"];
    if (d.free_in_pinned_segments) {
      // Named fragmentation only where it is a real share of the cache.
      const share = d.free_in_pinned_segments * 20 >= d.reserved;
      parts.push(fmtBytes(d.free_in_pinned_segments) + " is free but stuck in " + plural(d.pinned_segments, "segment") + " that also " +
                 (d.pinned_segments === 1 ? "holds" : "hold") + " live tensors, so it serves only requests that fit a free block (the largest is " +
                 fmtBytes(d.largest_free_block) + ")" + (share ? ": fragmentation" : ""));
    }
    if (cachedBytes)
      parts.push(fmtBytes(cachedBytes) + " is " + plural(cachedCount, "wholly free segment") + " kept as cache (torch.cuda.empty_cache() returns them)");
    box.append(el("p", { class: "segment-reading" }, "Of " + fmtBytes(d.reserved) + " reserved: " + parts.join("; ") + "."));
    if (!segments.length) {
      box.append(el("div", { class: "meta" }, "No segment list in this report."));
      return box;
    }
    // Lay segments out by address. A few: one bar each, scaled to the
    // largest. Many: side by side on rows of fixed width, up to 100 rows
    // (about 25 pixels for each of 4096 segments, enough to see the free
    // block at the end of one); a segment starts a new row rather than split.
    const width = 1100, rowHeight = 12, gap = 3, maxRows = 100;
    const total = segments.reduce((a, s) => a + s.size, 0);
    const largest = Math.max(...segments.map((s) => s.size));
    const barEach = segments.length <= 64;
    const perPixel = Math.max(1, largest / width, barEach ? 0 : total / (width * maxRows * 0.85));
    const pieces = [];
    let row = 0, x = 0;
    for (const s of segments) {
      const w = Math.min(width, Math.max(2, s.size / perPixel));
      if (x > 0 && (barEach || x + w > width)) { row++; x = 0; }
      s.start = row * width + x;
      s.span = w;
      pieces.push({ row, x, w, s });
      x += w + 1;
    }
    const rows = row + 1;
    const canvas = el("canvas", { class: "segment-map", "data-segments": segments.length, "data-device": d.device });
    const ratio = window.devicePixelRatio || 1;
    canvas.width = width * ratio;
    canvas.height = rows * (rowHeight + gap) * ratio;
    canvas.style.width = width + "px";
    canvas.style.height = rows * (rowHeight + gap) + "px";
    const g = canvas.getContext("2d");
    g.scale(ratio, ratio);
    for (const p of pieces) {
      // Its blocks, left to right.
      let at = 0;
      const top = p.row * (rowHeight + gap);
      for (const [bytes, code] of p.s.blocks) {
        const state = code & 3;  // & 4: PyTorch recorded the block's stack
        const bx = at / perPixel, bw = bytes / perPixel;
        at += bytes;
        g.fillStyle = state === 1 ? colors.live : state === 2 ? colors.other : p.s.wholeFree ? colors.cached : colors.stuck;
        g.fillRect(p.x + bx, top, Math.max(bw, state === 0 ? 1.5 : 0.5), rowHeight);
        if (state !== 0 && bw >= 3) {  // a light edge between neighbouring blocks shows the pieces
          g.fillStyle = "rgba(255, 255, 255, 0.6)";
          g.fillRect(p.x + bx + bw - 0.5, top, 0.5, rowHeight);
        }
      }
    }
    canvas.addEventListener("mousemove", (ev) => {
      const rect = canvas.getBoundingClientRect();
      const cx = ev.clientX - rect.left, cy = ev.clientY - rect.top;
      const pos = Math.floor(cy / (rowHeight + gap)) * width + cx;
      const s = segments.find((s) => pos >= s.start && pos < s.start + s.span);
      if (!s) { hideTip(); return; }
      showTip(ev, ["segment 0x" + s.address.toString(16) + ": " + fmtBytes(s.size),
                   plural(s.blocks.filter((b) => b[1] !== 0).length, "live block") + ", " + fmtBytes(s.live),
                   "free " + fmtBytes(s.free) + (s.free ? " (largest block " + fmtBytes(s.largest) + ")" : ""),
                   s.wholeFree ? "wholly free: cache" : s.free ? "free space stuck next to live tensors" : "full"]);
    });
    canvas.addEventListener("mouseleave", hideTip);
    box.append(canvas);
    const legend = legendEl([["live", "live tensor"], ["stuck", "free, in a segment with live tensors (fragmentation)"],
                             ["cached", "free segment (cache)"], ["other", "active, not allocated (e.g. pending stream use)"]]
                            .map(([key, text]) => ({ color: colors[key], text })));
    box.append(legend);
    if (segments.length < d.segments)
      box.append(el("div", { class: "meta" }, "showing " + segments.length + " of " + d.segments + " segments"));
    // Live tensors by the line that made them, or (without PyTorch's
    // per-tensor stacks) by the line that reserved their segments.
    if ((d.live_tensors || []).length) {
      const table = dataTable(["bytes", "tensors", "segments kept", "made at"], d.live_tensors.slice(0, 50).map((t) => {
        const stack = t.stack || [];
        const own = programFrames(stack);
        const line = own.length ? frameWhere(own[0]) + (own.length > 1 ? " \u2190 " + frameWhere(own[1]) : "") : "";
        return [{ text: fmtBytes(t.bytes), num: true }, t.count,
                { text: t.pinning_segments || 0, num: true, title: "segments with free space these tensors keep from being released" },
                { text: !line ? "(no stack: run with --pytorch-stacks)" : t.by_segment ? "in segments reserved by " + line : line,
                  title: stack.map(frameWhere).join("\n") }];
      }), { class: "tensors" });
      box.append(el("h4", {}, "Live tensors by line"), table);
    }
    return box;
  }
  function draw() {
    const view = pytorchViews[Number(select.value) || 0];
    holder.replaceChildren(...view.devices.map(drawDevice));
    if (view.settings) holder.append(el("div", { class: "meta" }, "PYTORCH_CUDA_ALLOC_CONF=" + view.settings));
  }
  select.addEventListener("change", draw);
  links.showSegments.push((n) => {
    const i = pytorchViews.findIndex((v) => v.oom === n);
    if (i >= 0) { select.value = i; draw(); }
    section.scrollIntoView();
  });
  draw();
}
