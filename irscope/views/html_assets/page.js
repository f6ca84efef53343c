// irscope's shared pages: draws the JSON in #irscope-data, each part only when it is first opened.
// Every string from the capture is escaped here (esc) or set as text; only the report sections arrive as HTML,
// escaped by irscope.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("irscope-data").textContent);
  var main = document.getElementById("main");
  var nav = document.getElementById("tabs");
  var panels = {};
  var state = { line: null, stage: null, rendered: {}, pass: null };

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); }); }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function table(head, rows, cls) {
    var t = el("table", cls ? { "class": cls } : null);
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", null, h)); });
    t.appendChild(tr);
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c) { row.appendChild(el("td", null, c)); });
      t.appendChild(row);
    });
    return t;
  }

  // Tabs: a panel is built by its draw function the first time it is shown.
  var order = [];
  function addTab(id, label, draw) {
    var b = el("button", { "data-tab": id, "id": "tab-" + id }, label);
    b.addEventListener("click", function () { showTab(id); });
    nav.appendChild(b);
    order.push(id);
    panels[id] = { draw: draw, node: null, button: b };
  }
  function showTab(id) {
    Object.keys(panels).forEach(function (k) {
      var p = panels[k];
      if (p.node) { p.node.classList.toggle("on", k === id); }
      p.button.classList.toggle("on", k === id);
    });
    var p = panels[id];
    if (!p.node) {
      p.node = el("section", { "class": "panel on", "id": "panel-" + id });
      main.appendChild(p.node);
      p.draw(p.node);
    }
  }

  // ---- one capture -------------------------------------------------------------------------------------
  // A stage line carries its highlighting as class switches: U+E000 + N opens class N of stage.classes (0: plain).
  var SWITCH = /([\uE000-\uE0FF])/;
  function lineHtml(text, classes) {
    if (!SWITCH.test(text)) { return esc(text); }
    var parts = text.split(SWITCH), out = "", open = false;
    for (var i = 0; i < parts.length; i++) {
      var part = parts[i];
      if (i % 2 === 0) { out += esc(part); continue; }
      if (open) { out += "</span>"; open = false; }
      var name = classes[part.charCodeAt(0) - 0xE000];
      if (name) { out += '<span class="' + name + '">'; open = true; }
    }
    return out + (open ? "</span>" : "");
  }
  function stageLines(stage, from, to) {
    var parts = [];
    from = from || 0;
    to = to === undefined ? stage.lines.length : Math.min(to, stage.lines.length);
    for (var i = from; i < to; i++) {
      parts.push('<div class="ln" data-n="' + (i + 1) + '"><span class="no">' + (i + 1) +
                 '</span><span class="tx">' + lineHtml(stage.lines[i], stage.classes) + "</span></div>");
    }
    return parts.join("");
  }
  // The stage pane draws blocks of BLOCK lines when they scroll near the view (a 2,000-line LLVM IR with
  // 30,000-character lines would take seconds to draw at once); a block with a marked line is drawn at once.
  var BLOCK = 64, lineHeight = 0, observer = null;
  function drawBlock(view, block) {
    if (block.getAttribute("data-drawn")) { return; }
    var st = view._stage, b = parseInt(block.getAttribute("data-b"), 10);
    block.innerHTML = stageLines(st, b * BLOCK, (b + 1) * BLOCK);
    block.style.height = "";
    block.setAttribute("data-drawn", "1");
    hitsFor(state.stage, state.line).forEach(function (n) {
      var node = block.querySelector('.ln[data-n="' + n + '"]');
      if (node) { node.classList.add("hit"); }
    });
  }
  function blockOf(view, n) { return view.querySelector('.blk[data-b="' + Math.floor((n - 1) / BLOCK) + '"]'); }
  function hitsFor(stage, line) {
    var m = DATA.map[stage];
    return (m && line !== null && m[String(line)]) || [];
  }
  function markHits() {
    var view = document.getElementById("stage-view");
    if (!view || !state.stage) { return; }
    Array.prototype.forEach.call(view.querySelectorAll(".ln.hit"), function (n) { n.classList.remove("hit"); });
    var hits = hitsFor(state.stage, state.line);
    hits.forEach(function (n) {
      var block = blockOf(view, n);
      if (!block) { return; }
      drawBlock(view, block);
      var node = block.querySelector('.ln[data-n="' + n + '"]');
      if (node) { node.classList.add("hit"); }
    });
    view.setAttribute("data-hits", hits.join(","));
    if (hits.length) { view.scrollTop = (hits[0] - 1) * lineHeight - view.clientHeight / 3; }
    var note = document.getElementById("stage-note");
    var st = DATA.stages.filter(function (s) { return s.name === state.stage; })[0];
    if (state.line === null) {
      note.textContent = "Click a source line to see the " + (st ? st.display : "") + " lines it became.";
    } else {
      note.textContent = "source line " + state.line + ": " + hits.length + " " + (st ? st.display : "") +
        " line(s)" + (DATA.map_origin[state.stage] ? " (from " + DATA.map_origin[state.stage] + ")" : "");
    }
  }
  function updateBadges() {
    Array.prototype.forEach.call(document.querySelectorAll(".stage-tabs button"), function (b) {
      var badge = b.querySelector(".badge");
      var stage = b.getAttribute("data-stage");
      badge.textContent = state.line === null || !DATA.map[stage] ? "" : "(" + hitsFor(stage, state.line).length + ")";
    });
  }
  function showStage(name) {
    state.stage = name;
    var view = document.getElementById("stage-view");
    var st = DATA.stages.filter(function (s) { return s.name === name; })[0];
    view._stage = st;
    if (!lineHeight) {  // one line's height on screen: the undrawn blocks take their lines' room
      view.innerHTML = stageLines(st, 0, 1);
      lineHeight = view.firstChild ? view.firstChild.getBoundingClientRect().height || 16 : 16;
    }
    var blocks = [];
    for (var b = 0; b * BLOCK < st.lines.length; b++) {
      var count = Math.min(BLOCK, st.lines.length - b * BLOCK);
      blocks.push('<div class="blk" data-b="' + b + '" style="height:' + (count * lineHeight) + 'px"></div>');
    }
    view.innerHTML = blocks.join("");
    view.scrollTop = 0;
    if (observer) { observer.disconnect(); }
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { drawBlock(view, e.target); } });
    }, { root: view, rootMargin: "600px 0px" });
    Array.prototype.forEach.call(view.childNodes, function (block) { observer.observe(block); });
    drawBlock(view, view.firstChild);
    view.setAttribute("data-stage", name);
    Array.prototype.forEach.call(document.querySelectorAll(".stage-tabs button"), function (b) {
      b.classList.toggle("on", b.getAttribute("data-stage") === name);
    });
    markHits();
  }
  function selectLine(n) {
    state.line = n;
    Array.prototype.forEach.call(document.querySelectorAll("#source .ln.sel"), function (e) { e.classList.remove("sel"); });
    var node = document.querySelector('#source .ln[data-n="' + n + '"]');
    if (node) { node.classList.add("sel"); }
    updateBadges();
    markHits();
  }
  function drawCode(node) {
    var source = DATA.stages.filter(function (s) { return s.name === "source"; })[0];
    var others = DATA.stages.filter(function (s) { return s.name !== "source"; });
    var split = el("div", { "class": "split" });
    var left = el("div");
    left.appendChild(el("h2", null, "Python source"));
    var src = el("div", { "class": "code", "id": "source" });
    if (source) { src.innerHTML = stageLines(source); }
    src.addEventListener("click", function (ev) {
      var ln = ev.target.closest(".ln");
      if (ln) { selectLine(parseInt(ln.getAttribute("data-n"), 10)); }
    });
    left.appendChild(src);
    var right = el("div");
    var tabs = el("div", { "class": "stage-tabs" });
    others.forEach(function (s) {
      var b = el("button", { "data-stage": s.name }, s.display + " ");
      b.appendChild(el("span", { "class": "badge" }));
      b.addEventListener("click", function () { showStage(s.name); });
      tabs.appendChild(b);
    });
    right.appendChild(tabs);
    right.appendChild(el("div", { "class": "note", "id": "stage-note" }));
    right.appendChild(el("div", { "class": "code", "id": "stage-view" }));
    split.appendChild(left);
    split.appendChild(right);
    node.appendChild(split);
    Object.keys(DATA.map_problems || {}).forEach(function (s) {
      node.appendChild(el("div", { "class": "note warn" }, s + ": " + DATA.map_problems[s].join("; ")));
    });
    var start = others.filter(function (s) { return s.name === "ttgir"; })[0] || others[0];
    if (start) { showStage(start.name); }
  }

  function diffRows(d, sideBySide) {
    var parts = [];
    d.hunks.forEach(function (h) {
      parts.push('<tr class="h"><td colspan="' + (sideBySide ? 4 : 3) + '">' + esc(h.header) + "</td></tr>");
      h.rows.forEach(function (r) {
        if (sideBySide) {
          var a = r[0], b = r[1];
          var ca = a ? (a[2] === "-" ? "d" : "") : "", cb = b ? (b[2] === "+" ? "a" : "") : "";
          parts.push('<tr><td class="no">' + (a ? a[0] : "") + '</td><td class="' + ca + '">' + (a ? esc(a[1]) : "") +
                     '</td><td class="no">' + (b ? b[0] : "") + '</td><td class="' + cb + '">' + (b ? esc(b[1]) : "") +
                     "</td></tr>");
        } else {
          var cls = r[0] === "+" ? "a" : r[0] === "-" ? "d" : "";
          parts.push('<tr class="' + cls + '"><td class="no">' + (r[1] === null ? "" : r[1]) + '</td><td class="no">' +
                     (r[2] === null ? "" : r[2]) + "</td><td>" + esc(r[0] + r[3]) + "</td></tr>");
        }
      });
    });
    return parts;
  }
  // A diff draws its first rows at once and the rest in slices after it, so a 3,000-line diff shows at once;
  // the box says data-drawn="all" when every row is in.
  var DIFF_SLICE = 300;
  function diffBlock(d, sideBySide) {
    var box = el("div", { "class": "diffbox" });
    var head = el("div", { "class": "note" }, "--- " + d.left + "   +++ " + d.right + "   (+" + d.added + " -" + d.removed +
                  " lines" + (d.changed ? "" : ", identical") + ")");
    box.appendChild(head);
    if (d.cut) { box.appendChild(el("div", { "class": "note warn" }, d.cut)); }
    var rows = diffRows(d, sideBySide);
    var table = el("table", { "class": "diff" });
    var body = el("tbody");
    table.appendChild(body);
    box.appendChild(table);
    var done = 0;
    function slice() {
      if (!box.isConnected && done > 0) { return; }  // replaced by another diff meanwhile
      body.insertAdjacentHTML("beforeend", rows.slice(done, done + DIFF_SLICE).join(""));
      done += DIFF_SLICE;
      if (done < rows.length) { setTimeout(slice, 0); } else { box.setAttribute("data-drawn", "all"); }
    }
    slice();
    return box;
  }
  function showPass(index) {
    state.pass = index;
    Array.prototype.forEach.call(document.querySelectorAll("tr.pass"), function (r) {
      r.classList.toggle("on", r.getAttribute("data-pass") === String(index));
    });
    var holder = document.getElementById("pass-diff");
    holder.innerHTML = "";
    var d = DATA.passes.diffs[String(index)];
    holder.appendChild(el("h2", null, "pass " + index + ": what it changed"));
    holder.appendChild(diffBlock(d, false));
    holder.scrollIntoView({ block: "start" });
  }
  function drawPasses(node) {
    var p = DATA.passes;
    if (!p) { node.appendChild(el("p", { "class": "note" }, "No pass table: " + (DATA.missing.passes || "none"))); return; }
    var changed = p.rows.filter(function (r) { return !r.step && r.status !== "unchanged"; }).length;
    var total = p.rows.filter(function (r) { return !r.step; }).length;
    node.appendChild(el("p", null, total + " passes: " + changed + " changed the IR, " + p.unchanged +
                        " changed nothing. Click a changed pass to see its diff."));
    var toggle = el("button", { "class": "toggle", "id": "show-unchanged" }, "show unchanged passes");
    node.appendChild(toggle);
    p.problems.forEach(function (x) { node.appendChild(el("div", { "class": "note warn" }, x)); });
    var t = el("table", { "class": "passes folded", "id": "pass-table" });
    t.appendChild(table(["#", "stage", "pass", "+", "-", "what changed"], []).firstChild);
    p.rows.forEach(function (r) {
      var attrs = { "class": "pass " + r.status + (r.diff ? " diffable" : "") };
      attrs[r.step ? "data-step-of" : "data-pass"] = String(r.index);
      var tr = el("tr", attrs);
      [r.step ? "" : r.index, r.stage, (r.step ? "  \u21b3 " : "") + r.name + (r.options ? " {" + r.options + "}" : ""),
       r.added || "", r.removed || "", r.summary].forEach(function (c, i) {
        tr.appendChild(el("td", i === 0 || i === 3 || i === 4 ? { "class": "num" } : null, c));
      });
      if (r.diff) { tr.addEventListener("click", function () { showPass(r.index); }); }
      t.appendChild(tr);
    });
    toggle.addEventListener("click", function () {
      t.classList.toggle("folded");
      toggle.textContent = t.classList.contains("folded") ? "show unchanged passes" : "hide unchanged passes";
    });
    node.appendChild(t);
    node.appendChild(el("div", { "id": "pass-diff" }));
  }

  function warpColour(w) { return "hsl(" + ((w * 67) % 360) + ", 70%, 78%)"; }
  function mapTable(m) {
    var box = el("div", { "class": "map-box" });
    box.appendChild(el("div", null, m.title));
    var t = el("table", { "class": "map" });
    var head = el("tr");
    head.appendChild(el("th"));
    m.cols.forEach(function (c) { head.appendChild(el("th", null, c === null ? "\u2026" : c)); });
    t.appendChild(head);
    m.cells.forEach(function (row, i) {
      var tr = el("tr");
      tr.appendChild(el("th", null, m.rows[i] === null ? "\u22ee" : m.rows[i]));
      row.forEach(function (c) {
        var td = el("td", c === null ? { "class": "gap" } : { "data-warp": String(c[1]) }, c === null ? "\u2026" : c[0]);
        if (c !== null) { td.style.background = warpColour(c[1]); }
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    box.appendChild(t);
    m.notes.forEach(function (n) { box.appendChild(el("div", { "class": "note" }, n)); });
    return box;
  }
  function drawLayouts(node) {
    if (!DATA.layouts) { node.appendChild(el("p", { "class": "note" }, "No layouts: " + (DATA.missing.layouts || "no TTGIR"))); return; }
    node.appendChild(el("p", { "class": "note" }, "Each cell names who holds the element: w<warp>:T<lane>:<register> " +
                        "(tensor view), or which element a lane's register holds (hardware view, warp 0)."));
    DATA.layouts.forEach(function (l, i) {
      var box = el("div", { "class": "layout", "id": "layout-" + i });
      box.appendChild(el("h2", null, l.label));
      box.appendChild(el("div", null, l.explanation));
      box.appendChild(el("div", { "class": "note" }, l.uses + " use(s)" + (l.shapes.length ? ", shapes " + l.shapes.join(", ") : "")));
      if (l.maps.length) {
        var b = el("button", { "class": "toggle map-button" }, "show the tile-to-warp map (" + l.shapes[0] + ")");
        var holder = el("div", { "class": "maps" });
        b.addEventListener("click", function () {
          if (!holder.childNodes.length) {
            l.maps.forEach(function (m) { holder.appendChild(mapTable(m)); });
            holder.style.display = "";
          } else {
            holder.style.display = holder.style.display === "none" ? "" : "none";
          }
          if (holder.style.display === "") { holder.scrollIntoView({ block: "nearest" }); }
        });
        box.appendChild(b);
        box.appendChild(holder);
      } else if (l.why) {
        box.appendChild(el("div", { "class": "note" }, l.why));
      }
      node.appendChild(box);
    });
  }
  function drawReport(node) {
    DATA.sections.forEach(function (s) {
      var box = el("div", { "class": "report", "id": "report-" + s.id });
      box.appendChild(el("h2", null, s.title));
      var body = el("div");
      body.innerHTML = s.html;  // escaped by irscope (the terminal's own text, HTML-escaped)
      box.appendChild(body);
      node.appendChild(box);
    });
    Object.keys(DATA.missing).forEach(function (k) { node.appendChild(el("div", { "class": "note warn" }, k + ": " + DATA.missing[k])); });
  }
  function drawVerify(node) {
    var v = DATA.verify;
    if (!v) { node.appendChild(el("p", { "class": "note" }, "Not verified: " + (DATA.missing.verify || ""))); return; }
    node.appendChild(el("p", { "id": "verify-summary" }, v.agree + " agree, " + v.disagree + " disagree, " + v.unchecked + " unchecked"));
    var t = table(["status", "topic", "claim", "evidence"], v.findings, "verify");
    Array.prototype.forEach.call(t.querySelectorAll("tr"), function (tr, i) {
      if (i > 0) { tr.firstChild.className = v.findings[i - 1][0]; }
    });
    node.appendChild(t);
  }
  function drawFacts(node) { node.appendChild(table(["fact", "value"], DATA.facts, "facts")); }

  // ---- a comparison and a check ------------------------------------------------------------------------
  function drawCompareFacts(node) {
    node.appendChild(el("p", null, "A: " + DATA.sides[0][0] + " (" + DATA.sides[0][1] + ")"));
    node.appendChild(el("p", null, "B: " + DATA.sides[1][0] + " (" + DATA.sides[1][1] + ")"));
    var fd = DATA.first_divergence;
    node.appendChild(el("p", { "id": "first-divergence" }, fd ? "First divergence: " + fd.stage + ", line " + fd.line + " of A"
                                                               : "The stages' texts are the same on both sides."));
    if (DATA.divergence_text && DATA.divergence_text.length) {
      node.appendChild(el("pre", { "id": "pass-divergence" }, DATA.divergence_text.join("\n")));
    }
    node.appendChild(el("p", null, DATA.changed + " fact(s) differ"));
    var t = table(["fact", "A", "B"], DATA.compare_facts.map(function (f) { return f.slice(0, 3); }), "compare");
    Array.prototype.forEach.call(t.querySelectorAll("tr"), function (tr, i) {
      if (i > 0 && DATA.compare_facts[i - 1][3]) { tr.classList.add("differs"); }
    });
    node.appendChild(t);
    DATA.unread.forEach(function (u) { node.appendChild(el("div", { "class": "note" }, u)); });
  }
  function drawStageDiffs(node) {
    var tabs = el("div", { "class": "stage-tabs" });
    var holder = el("div", { "id": "stage-diff" });
    function show(i) {
      holder.innerHTML = "";
      holder.appendChild(diffBlock(DATA.stage_diffs[i], true));
      Array.prototype.forEach.call(tabs.childNodes, function (b, j) { b.classList.toggle("on", i === j); });
    }
    DATA.stage_diffs.forEach(function (d, i) {
      var b = el("button", { "data-stage": d.stage }, d.stage + (d.changed ? " (+" + d.added + " -" + d.removed + ")" : " (same)"));
      b.addEventListener("click", function () { show(i); });
      tabs.appendChild(b);
    });
    node.appendChild(tabs);
    node.appendChild(holder);
    var fd = DATA.first_divergence;
    var start = fd ? DATA.stage_diffs.map(function (d) { return d.stage; }).indexOf(fd.stage) : 0;
    if (DATA.stage_diffs.length) { show(Math.max(0, start)); }
  }
  function drawCheck(node) {
    node.appendChild(el("p", { "id": "check-summary" }, DATA.total + " entries: " + (DATA.total - DATA.failed) +
                        " as recorded, " + DATA.failed + " changed (Triton " + DATA.triton + ")"));
    DATA.entries.forEach(function (e) {
      var box = el("div", { "class": "layout" + (e.failed ? " failed" : "") });
      box.appendChild(el("h2", null, (e.failed ? "CHANGED " : "ok ") + e.label + (e.note ? " (" + e.note + ")" : "")));
      if (e.error) { box.appendChild(el("div", { "class": "warn" }, "error: " + e.error)); }
      if (e.deltas.length) {
        box.appendChild(table(["fact", "was", "now", "within tolerance"],
                              e.deltas.map(function (d) { return [d[0], d[1], d[2], d[3] ? "yes" : "no"]; })));
      }
      node.appendChild(box);
    });
  }

  // ---- a program's report ------------------------------------------------------------------------------
  function drawKernels(node) {
    DATA.heading.forEach(function (h) { node.appendChild(el("p", null, h)); });
    var t = table(DATA.heads, DATA.rows, "report-kernels");
    var detail = el("pre", { "id": "kernel-detail" }, DATA.details.length ? DATA.details[0] : "");
    Array.prototype.forEach.call(t.querySelectorAll("tr"), function (tr, i) {
      if (i > 0) { tr.addEventListener("click", function () { detail.textContent = DATA.details[i - 1]; }); }
    });
    node.appendChild(t);
    node.appendChild(detail);
    DATA.notes.forEach(function (n) { node.appendChild(el("div", { "class": "note" }, n)); });
  }
  function drawExterns(node) {
    if (!DATA.externs.length) { node.appendChild(el("p", { "class": "note" }, "No calls outside Triton were recorded.")); return; }
    node.appendChild(el("pre", { "id": "externs" }, DATA.externs.join("\n")));
  }

  function drawMeasured(node) {
    node.appendChild(el("pre", { "id": "measured" }, DATA.measured.join("\n")));
  }

  if (DATA.kind === "report") {
    addTab("kernels", "Kernels", drawKernels);
    addTab("externs", "Outside Triton", drawExterns);
    if (DATA.measured && DATA.measured.length) { addTab("measured", "Measured", drawMeasured); }
  } else if (DATA.kind === "capture") {
    addTab("code", "Source \u2192 stages", drawCode);
    addTab("passes", "Passes", drawPasses);
    addTab("layouts", "Layouts", drawLayouts);
    addTab("report", "Loops, resources, perf", drawReport);
    addTab("verify", "Verify", drawVerify);
    addTab("facts", "Capture", drawFacts);
  } else if (DATA.kind === "compare") {
    addTab("facts", "Facts", drawCompareFacts);
    addTab("diffs", "Stage diffs", drawStageDiffs);
  } else {
    addTab("check", "Check", drawCheck);
  }
  showTab(order[0]);
  window.irscope = { data: DATA, state: state, showTab: showTab, showStage: showStage, selectLine: selectLine,
                     showPass: showPass, readyAt: performance.now() };
  document.body.setAttribute("data-ready", "1");
})();
