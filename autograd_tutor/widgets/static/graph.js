// autograd_tutor GraphWidget view: draws the graph snapshot that Python computed (nodes with their pixel
// positions, edges with their paths) as SVG, and replays the backward steps recorded in Python, in the
// browser, so the player works while the kernel is busy. Plain ES module: no bundler, no CDN.
//
// Traits read: graph_json {nodes, edges, hidden, width, height, groups}, replay_json {steps, start} (JSON
// text), step, title.
// Traits written: step (the replay position), render_ms (time of the last full render, measured here),
// expanded (the module groups drawn open: a click, or Enter / Space, on a group's box; Python lays it out).
//
// Large graphs stay responsive: only the nodes and edges inside the visible part of the drawing are in the
// DOM (they are created and dropped as you pan and zoom), and when zoomed far out nodes are drawn as bare
// shapes without text.

const SVGNS = "http://www.w3.org/2000/svg";
const SPEEDS = [0.5, 1, 2, 4];
const KIND_NAMES = { leaf: "leaf", op: "result", constant: "constant", collapsed: "collapsed", cut: "graph cut" };
const DETAIL_SCALE = 0.3;    // below this zoom, nodes are shapes without text
const START_SCALE = 1;       // a graph opens at full size (text 10 px and up): a larger one scrolls from its left
const OVERVIEW = 30;         // more boxes than this open on an overview: fitted, down to OVERVIEW_SCALE
const OVERVIEW_SCALE = 0.6;
const MAX_STAGE = 560;       // the tallest the drawing gets before it pans
const ICONS = {
  start: '<path d="M2 2h2.5v12H2zM14 2L5.5 8l8.5 6z"/>', back: '<path d="M12 2L4 8l8 6z"/>',
  play: '<path d="M4 2l9 6-9 6z"/>', pause: '<path d="M4 2h3v12H4zM9 2h3v12H9z"/>',
  fwd: '<path d="M4 2l8 6-8 6z"/>', end: '<path d="M11.5 2H14v12h-2.5zM2 2l8.5 6L2 14z"/>',
};
let uid = 0;

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// As viz/boxes.py shape_of / label_text: a value written with a cut list of numbers shows its shape alone
// (a heatmap beside or under it shows the numbers); a whole one as it is.
function shapeOf(v) {
  return v.includes("…") ? v.split(" [")[0] : v;
}

// Python sized every box for its text (viz/boxes.py); a replay step's gradient can still be longer than the
// one the box was sized for: it is narrowed to the room of its row, whole, never cut.
function squeeze(text, room) {
  text.removeAttribute("textLength");
  if (text.getComputedTextLength && text.getComputedTextLength() > room) {
    text.setAttribute("textLength", String(room));
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

let widgetCount = 0;  // makes element ids unique on a page with several drawings

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function icon(name) {
  return `<svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">${ICONS[name]}</svg>`;
}

// ---------------------------------------------------------------- heatmaps (as viz/heat.py heat_svg)
const HEAT = ["#542788", "#8073AC", "#B2ABD2", "#D8DAEB", "#F7F7F7", "#FEE0B6", "#FDB863", "#E08214", "#B35806"];

function heatRects(heat) {  // as viz/heat.py heat_rects: [level, col, row, cols, rows] of equal cells
  const { rows, cols, cells } = heat, done = [];
  let growing = new Map();
  for (let r = 0; r < rows; r++) {
    const runs = new Map();
    for (let k = 0; k < cols;) {
      let end = k;
      while (end < cols && cells[r * cols + end] === cells[r * cols + k]) end++;
      const key = `${cells[r * cols + k]},${k},${end - k}`;
      runs.set(key, growing.has(key) ? growing.get(key) : r);
      growing.delete(key);
      k = end;
    }
    for (const [key, top] of growing) { const [c, k, n] = key.split(","); done.push([c, +k, top, +n, r - top]); }
    growing = runs;
  }
  for (const [key, top] of growing) { const [c, k, n] = key.split(","); done.push([c, +k, top, +n, rows - top]); }
  return done.sort((a, b) => a[2] - b[2] || a[1] - b[1]);
}

function heatMarkup(heat) {
  const cell = Math.floor(heat.w / heat.cols), paths = new Map();
  for (const [c, k, r, n, m] of heatRects(heat))
    paths.set(c, (paths.get(c) || "") + `M${k * cell},${r * cell}h${n * cell}v${m * cell}h-${n * cell}z`);
  return [...paths.entries()].sort().map(([c, d]) => `<path fill="${HEAT[Number(c)]}" d="${d}"/>`).join("") +
    `<rect width="${heat.w}" height="${heat.h}" fill="none" stroke="#8A8A8A" stroke-width="0.6"/>`;
}

// ---------------------------------------------------------------- module groups
// A closed group is one box (a band along its top); an open one frames its nodes, with its name on the frame.
// Both are buttons: a click, or Enter / Space when focused (Tab reaches them), opens or closes the group.
function groupMarkup(g) {
  const inside = g.members.length;
  if (!g.expanded) {
    const w = g.w, h = g.h, t = g.top || 0;
    return `<g class="agt-group${g.root ? " agt-root-node" : ""}" data-g="${g.id}" tabindex="0" role="button" ` +
      `aria-expanded="false" aria-label="${esc(g.label)}: a module call, ${inside} nodes. Enter opens it." ` +
      `style="transform:translate(${g.x - w / 2}px,${g.y - h / 2}px)">` +
      `<rect class="agt-focus" x="-5" y="-5" width="${w + 10}" height="${h + 10}" rx="10"/>` +
      `<rect class="agt-gshape" width="${w}" height="${h}" rx="8"/>` +
      `<path class="agt-gband" d="M1.2,6.5A5.3,5.3 0 0 1 6.5,1.2H${w - 6.5}A5.3,5.3 0 0 1 ${w - 1.2},6.5V8H1.2Z"/>` +
      `<text class="agt-label" x="${w / 2}" y="${t + 17}">${esc(g.label)}</text>` +
      `<text class="agt-sub" x="${w / 2}" y="${t + 30}">${esc(g.sub)}</text>` +
      `<title>${esc(g.label)}: ${inside} nodes inside (click, or Enter, to open)</title></g>`;
  }
  const [x0, y0, x1, y1] = g.frame;
  return `<g class="agt-frame" data-g="${g.id}"><rect class="agt-fshape" x="${x0}" y="${y0}" width="${x1 - x0}" ` +
    `height="${y1 - y0}" rx="10"/><g class="agt-gtab" data-g="${g.id}" tabindex="0" role="button" ` +
    `aria-expanded="true" aria-label="${esc(g.label)}: a module call, open (${inside} nodes). Enter closes it.">` +
    `<text x="${g.tab[0]}" y="${g.tab[1]}">${esc(g.tab_text)} ▾</text>` +
    `<title>${esc(g.label)}: click, or Enter, to close</title></g></g>`;
}

// ---------------------------------------------------------------- markup of one node / edge
function nodeMarkup(n, detail) {
  const w = n.w, h = n.h, t = n.top || 0;
  const cls = `agt-node agt-${n.kind}${n.root ? " agt-root-node" : ""}`;
  let shape;
  if (n.kind === "leaf") {
    shape = `<rect class="agt-shape" width="${w}" height="${h}" rx="${h / 2}"/>` +
      (detail ? `<rect class="agt-inner" x="3.5" y="3.5" width="${w - 7}" height="${h - 7}" rx="${h / 2 - 3.5}"/>` : "");
  } else if (n.kind === "cut") {  // as viz/svg.py: a dotted box with a cross under its text (viz/cuts.py)
    shape = `<rect class="agt-shape" width="${w}" height="${h}" rx="4"/>` +
      `<path class="agt-cross" d="M${w / 2 - 4},${h - 20}l8,8m0,-8l-8,8"/>`;
  } else {
    const stack = n.kind === "collapsed" || n.hidden
      ? `<rect class="agt-stack" x="6" y="6" width="${w}" height="${h}" rx="4"/>` +
        `<rect class="agt-stack" x="3" y="3" width="${w}" height="${h}" rx="4"/>` : "";
    shape = stack + `<rect class="agt-shape" width="${w}" height="${h}" rx="4"/>`;
  }
  const head = `<g class="${cls}" data-i="${n.key}" style="transform:translate(${n.x - w / 2}px,${n.y - h / 2}px)">` +
    `<rect class="agt-focus" x="-5" y="-5" width="${w + 10}" height="${h + 10}" rx="8"/>` + shape;
  if (!detail) return head + "<title></title></g>";
  const label = n.label + (n.hidden && n.kind !== "collapsed" ? ` ×${n.hidden + 1}` : "");
  const saved = n.saved.length
    ? `<text class="agt-saved" x="${w / 2}" y="${h - 6}"><tspan class="agt-sword">saved:</tspan> ` +
      n.saved.map((s) => `<tspan>${esc(s)}</tspan>`).join(" ") + "</text>" : "";
  const heat = n.heat ? `<g transform="translate(${(w - n.heat.w) / 2},${t + 48})">${heatMarkup(n.heat)}</g>` : "";
  const shift = n.heat ? n.heat.h + 4 : 0;  // as viz/boxes.py heat_shift
  const value = n.heat ? n.value.split(" [")[0] : n.value;  // a heatmap: its shape above it
  return head +
    `<text class="agt-label" x="${w / 2}" y="${t + 17}">${esc(label)}</text>` +
    (n.sub ? `<text class="agt-sub" x="${w / 2}" y="${t + 30}">${esc(n.sub)}</text>` : "") +
    (value ? `<text class="agt-value" x="${w / 2}" y="${t + 44}">${esc(value)}</text>` : "") + heat +
    `<text class="agt-grad" x="${w / 2}" y="${t + 57 + shift}"></text>` + saved +
    (n.gheat ? `<g class="agt-gheat" transform="translate(${(w - n.gheat.w) / 2},${t + 61 + shift})">` +
      `${heatMarkup(n.gheat)}</g>` : "") + `<title></title></g>`;
}

function edgeMarkup(e, i) {
  const cls = e.cut ? "agt-edge agt-cutedge" : e.tracked ? "agt-edge" : "agt-edge agt-data";
  return `<path class="${cls}" data-i="${i}" d="${e.path}"><title></title></path>`;
}

// ---------------------------------------------------------------- replay state (same fold as viz/replay.py)
// A gradient of many numbers comes with its heatmap: [i, text, h], h indexing replay.heats (eheats, gheats).
function stateAt(replay, pos) {
  const grads = new Map(replay.start.grads), saved = new Map(replay.start.saved), gheats = new Map();
  let edges = new Map(), locals = new Map(), eheats = new Map(), step = null;
  const take = (values, heats, [i, v, h]) => {
    values.set(i, v);
    if (h === undefined) heats.delete(i); else heats.set(i, replay.heats[h]);
  };
  for (let k = 0; k < pos && k < replay.steps.length; k++) {
    step = replay.steps[k];
    if (step.reset) { edges = new Map(); locals = new Map(); eheats = new Map(); }
    for (const e of step.edges) take(edges, eheats, e);
    for (const [i, v] of step.locals) locals.set(i, v);
    for (const g of step.grads) take(grads, gheats, g);
    for (const [i, v] of step.saved) saved.set(i, v);
  }
  const active = pos > 0 && step ? step.active : -1;
  const current = new Set(pos > 0 && step ? step.edges.map(([i]) => i) : []);
  return { grads, saved, edges, locals, eheats, gheats, step: pos > 0 ? step : null, active, current };
}

function describe(n, grad, state) {
  const what = { leaf: "leaf tensor", op: `result of ${n.op}`, constant: "constant, no grad",
    collapsed: `${n.hidden} collapsed nodes`, cut: `graph cut, ${n.sub}` }[n.kind];
  const bits = [`${n.label}: ${what}`];
  if (n.numbers) bits.push(`value ${n.value.split(" [")[0]} [${n.numbers}]`);
  else if (n.value) bits.push(`value ${n.value}`);
  if (grad !== "None" || n.kind === "leaf") bits.push(`grad ${grad}`);
  if (n.saved.length) bits.push(`saved ${n.saved.join(", ")} (${state})`);
  return bits.join(", ");
}

function legendMarkup() {
  const item = (svg, text, cls = "") =>
    `<span${cls ? ` class="${cls}"` : ""}><svg width="28" height="16" aria-hidden="true">${svg}</svg>${text}</span>`;
  return [
    item(`<rect x="1" y="1" width="26" height="14" rx="7" fill="#E1EFF8" stroke="#0072B2" stroke-width="1.6"/>` +
      `<rect x="3.5" y="3.5" width="21" height="9" rx="4.5" fill="none" stroke="#0072B2"/>`, "leaf tensor (AccumulateGrad)"),
    item(`<rect x="1" y="1" width="26" height="14" rx="3" fill="#FDF1D6" stroke="#E69F00" stroke-width="1.6"/>`,
      "result: grad_fn"),
    item(`<rect x="1" y="1" width="26" height="14" rx="3" fill="#F2F2F2" stroke="#6E6E6E" stroke-width="1.6" ` +
      `stroke-dasharray="4 2"/>`, "no grad"),
    item(`<rect x="4" y="4" width="23" height="11" rx="2" fill="#F8E6EF" stroke="#CC79A7"/>` +
      `<rect x="1" y="1" width="23" height="11" rx="2" fill="#F8E6EF" stroke="#CC79A7"/>`, "repeated, collapsed"),
    item(`<rect x="1" y="1" width="26" height="14" rx="4" fill="#E4F4EE" stroke="#009E73" stroke-width="1.8"/>` +
      `<rect x="2" y="2" width="24" height="3" fill="#009E73"/>`, "module call (click to open or close)",
      "agt-legend-group"),
    item(`<rect x="1" y="1" width="26" height="14" rx="3" fill="#FFFFFF" stroke="#000000" stroke-width="1.6" ` +
      `stroke-dasharray="2 2"/><path d="M10,4l8,8m0,-8l-8,8" stroke="#000000" stroke-width="2"/>`,
      "graph cut: no gradient back", "agt-cutkey"),
    item(`<line x1="1" y1="8" x2="27" y2="8" stroke="#555" stroke-width="1.5"/>`, "gradient path"),
    item(`<line x1="1" y1="8" x2="27" y2="8" stroke="#9A9A9A" stroke-width="1.5" stroke-dasharray="4 3"/>`,
      "no gradient"),
    item(`<line x1="1" y1="8" x2="27" y2="8" stroke="#D55E00" stroke-width="2.5"/>`,
      `<b style="color:#A33D00">gradient</b>&nbsp;flowing back`),
    `<span>saved: self · <s style="color:#666666">freed</s> · <b style="color:#00785A">kept</b>&nbsp;` +
      `(retain_graph=True)</span>`,
  ].join("");
}

// ---------------------------------------------------------------- the view
function render({ model, el: host }) {
  const id = ++uid;
  const ids = { arrow: `agt-arrow-${id}`, back: `agt-back-${id}`, cross: `agt-cross-${id}`, title: `agt-title-${id}` };
  const root = el("div", { class: "agt-root", tabindex: "0", role: "group",
    "aria-roledescription": "computation graph",
    "aria-label": "Computation graph. Left and right arrow keys step through the backward pass, " +
      "Home and End jump, Space plays or pauses, plus and minus zoom, 0 fits, Escape gives the keys back." });

  // top bar: title, counts, zoom
  const top = el("div", { class: "agt-bar" });
  const title = el("span", { class: "agt-title" });
  const info = el("span", { class: "agt-info" });
  const zoomOut = el("button", { type: "button", "aria-label": "Zoom out", title: "Zoom out (-)" }, "−");
  const zoomIn = el("button", { type: "button", "aria-label": "Zoom in", title: "Zoom in (+)" }, "+");
  const zoomFit = el("button", { type: "button", "aria-label": "Fit the whole graph", title: "Fit (0)" }, "Fit");
  top.append(title, info, zoomOut, zoomIn, zoomFit);

  // the drawing
  const stage = el("div", { class: "agt-stage" });
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("class", "agt-svg");
  svg.setAttribute("role", "group");  // not "img": a module group inside is a button (focusable)
  svg.setAttribute("aria-labelledby", ids.title);
  svg.innerHTML = `<title id="${ids.title}"></title><defs>` +
    `<marker id="${ids.arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">` +
    `<path d="M0,1L9,5L0,9z" fill="#555555"/></marker>` +
    `<marker id="${ids.back}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" ` +
    `orient="auto-start-reverse"><path d="M0,1L9,5L0,9z" fill="#D55E00"/></marker>` +
    `<marker id="${ids.cross}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="9" markerHeight="9" orient="auto">` +
    `<path d="M1,1L9,9M9,1L1,9" stroke="#000000" stroke-width="2"/></marker></defs>` +
    `<g class="agt-viewport"><g class="agt-frames"></g><g class="agt-edges"></g><g class="agt-nodes"></g>` +
    `<g class="agt-groups"></g><g class="agt-elabels"></g>` +
    `<g class="agt-overlay"><text class="agt-total" visibility="hidden"></text></g></g>`;
  const svgTitle = svg.querySelector("title");
  const gEdges = svg.querySelector(".agt-edges"), gNodes = svg.querySelector(".agt-nodes");
  const gLabels = svg.querySelector(".agt-elabels"), total = svg.querySelector(".agt-total");
  const gFrames = svg.querySelector(".agt-frames"), gGroups = svg.querySelector(".agt-groups");
  const empty = el("div", { class: "agt-empty" }, "Run tensor code in the next cells: the graph appears here.");
  stage.append(svg, empty);

  // the player
  const player = el("div", { class: "agt-bar agt-player", role: "toolbar", "aria-label": "Backward replay" });
  const button = (name, label, keys) => {
    const b = el("button", { type: "button", "aria-label": label, title: `${label} (${keys})` });
    b.innerHTML = icon(name);
    return b;
  };
  const bStart = button("start", "Go to the start", "Home");
  const bBack = button("back", "Step back", "←");
  const bPlay = el("button", { type: "button", "aria-label": "Play", title: "Play / pause (Space)", class: "agt-play" });
  const bFwd = button("fwd", "Step forward", "→");
  const bEnd = button("end", "Go to the end", "End");
  const slider = el("input", { type: "range", min: "0", max: "0", value: "0", step: "1",
    "aria-label": "Replay position" });
  const speed = el("select", { "aria-label": "Replay speed" });
  for (const s of SPEEDS) speed.append(el("option", { value: String(s) }, `${s}×`));
  speed.value = "1";
  const pos = el("span", { class: "agt-pos", "aria-hidden": "true" });
  player.append(bStart, bBack, bPlay, bFwd, bEnd, slider, speed, pos);

  const narration = el("p", { class: "agt-narration", "aria-live": "polite", "aria-atomic": "true" });
  // a tensor of more than 6 numbers is named by its shape in the sentence; this button shows it with its numbers
  const fullText = el("p", { class: "agt-full", id: `agt-full-${++widgetCount}`, hidden: "" });
  const bFull = el("button", { type: "button", class: "agt-fullbtn", "aria-expanded": "false",
    "aria-controls": fullText.id, hidden: "" }, "Show every number");
  let showFull = false;
  const offView = el("span", { class: "agt-offview" });
  bFull.addEventListener("click", () => {
    showFull = !showFull;
    bFull.setAttribute("aria-expanded", String(showFull));
    bFull.textContent = showFull ? "Hide the numbers" : "Show every number";
    fullText.hidden = !showFull;
  });
  // the end of a pass, when its leaves do not all show readable in the view: each leaf's .grad, a button that
  // brings the leaf into view (a click, or Tab to it and Enter / Space)
  const endList = el("div", { class: "agt-endlist", role: "group", "aria-labelledby": `agt-endhead-${widgetCount}`,
    hidden: "" });
  const endHead = el("span", { class: "agt-endhead", id: `agt-endhead-${widgetCount}` },
    "Each leaf's .grad (click one to show it):");
  const endItems = el("div", { class: "agt-enditems" });
  endList.append(endHead, endItems);
  let picked = -1;  // the leaf an entry showed: its box is marked until the replay moves
  const detail = el("p", { class: "agt-detail" });
  const note = el("p", { class: "agt-note", role: "note" });
  const legend = el("div", { class: "agt-legend", "aria-hidden": "true" });
  legend.innerHTML = legendMarkup();
  legend.querySelector(".agt-legend-group").hidden = true;  // shown when the graph has module groups
  const tableBox = el("details", { class: "agt-tablebox" });
  const tableWrap = el("div", { class: "agt-tablewrap" });
  tableBox.append(el("summary", {}, "Nodes as a table (text alternative)"), tableWrap);
  const narrationRow = el("div", { class: "agt-narration-row" });
  narrationRow.append(narration, bFull);
  root.append(top, stage, player, narrationRow, fullText, endList, detail, note, legend, tableBox);
  host.append(root);

  // ------------------------------------------------------------ state of the view
  let graph = { nodes: [], edges: [], hidden: 0, width: 0, height: 0, groups: [] };
  let groupEls = new Map(), refocus = -1;  // group id -> its element; the group to focus once redrawn
  let nodeJson = [];                 // JSON text of each node, to see which ones changed
  let nodeEls = new Map();           // index -> {g, grad, word, title, painted} for nodes in the DOM
  let edgeEls = new Map();           // index -> {path, label, painted}
  let rows = [];
  let replay = { steps: [], start: { grads: [], saved: [] }, heats: [] };
  let position = 0, timer = null, st = stateAt(replay, 0);
  let view = null, userView = false, detailed = true, cullQueued = false;
  let lastPosition = 0, shownRowActive = -1, rowPainted = [], glide = null;

  // ------------------------------------------------------------ painting state onto elements
  function gradOf(i) {
    return st.grads.has(i) ? st.grads.get(i) : (graph.nodes[i].grad || "None");
  }

  function savedOf(i) {
    return st.saved.has(i) ? st.saved.get(i) : graph.nodes[i].state;
  }

  function paintNode(i, rec) {
    const n = graph.nodes[i], grad = gradOf(i), state = savedOf(i), active = st.active === i;
    const heat = gradHeat(n, grad, st.gheats.get(i));
    const key = `${grad}|${state}|${active}|${picked === i}|${heat ? heat.cells : ""}`;
    if (rec.painted === key) return;
    rec.painted = key;
    rec.g.classList.toggle("agt-picked", picked === i);
    if (rec.grad) {
      rec.grad.textContent = grad !== "None" ? `grad ${shapeOf(grad)}` : n.kind === "leaf" ? "grad None" : "";
      rec.grad.classList.toggle("agt-none", grad === "None");
      if (grad !== "None" && grad !== n.grad) squeeze(rec.grad, n.room);
    }
    if (rec.gheat) {
      if (heat && rec.gheatShown !== heat) rec.gheat.innerHTML = heatMarkup(heat);
      if (heat) rec.gheatShown = heat;
      rec.gheat.setAttribute("visibility", heat ? "visible" : "hidden");
    }
    if (rec.word) rec.word.textContent = state === "freed" ? "freed:" : state === "kept" ? "kept:" : "saved:";
    rec.g.classList.toggle("agt-freed", state === "freed");
    rec.g.classList.toggle("agt-kept", state === "kept");
    rec.g.classList.toggle("agt-active", active);
    rec.title.textContent = describe(n, grad, state);
  }

  // The heatmap drawn for a gradient: the replay step's (the box or label kept room for one of the value's
  // shape: the node's own heatmap, the edge's source's), else the drawing's own while its text is shown.
  function gradHeat(n, grad, heat) {
    if (!n.gheat) return null;
    return heat && heat.w === n.gheat.w && heat.h === n.gheat.h ? heat : grad === n.grad ? n.gheat : null;
  }

  function labelHeat(e, v, heat) {
    if (heat && (e.heat || graph.nodes[e.src].heat)) return heat;
    return e.heat && v === e.grad ? e.heat : null;
  }

  function paintEdge(i, rec) {
    const e = graph.edges[i], v = st.edges.get(i) || "", current = st.current.has(i);
    const local = st.locals.get(i) || "", heat = labelHeat(e, v, st.eheats.get(i));
    const key = `${v}|${current}|${local}|${heat ? heat.cells : ""}`;
    if (rec.painted === key) return;
    rec.painted = key;
    rec.path.classList.toggle("agt-flow", v !== "");
    rec.path.classList.toggle("agt-current", current);
    if (v) rec.path.setAttribute("marker-start", `url(#${ids.back})`);
    else rec.path.removeAttribute("marker-start");
    if (e.cut) rec.path.setAttribute("marker-end", `url(#${graph.nodes[e.dst].kind === "cut" ? ids.cross : ids.arrow})`);
    else if (e.tracked && !v) rec.path.setAttribute("marker-end", `url(#${ids.arrow})`);
    else if (e.tracked) rec.path.removeAttribute("marker-end");
    else rec.path.setAttribute("marker-end", `url(#${ids.arrow})`);
    rec.path.firstChild.textContent = (v ? `gradient ${v}` : e.cut ? "graph cut: no gradient goes back" :
      e.tracked ? "gradient path" : "no gradient") +
      (local ? `; local derivative ${local}` : "");
    if (rec.label) {
      rec.label.textContent = shapeOf(v);
      rec.label.classList.toggle("agt-current", current);
      if (heat || rec.heat) requestAnimationFrame(() => placeLabelHeat(i, rec, heat, v));
    }
  }

  function placeLabelHeat(i, rec, heat, v) {
    // A gradient of many numbers: its shape, and beside it a small heatmap of the edge's gradient (as
    // viz/svg.py), the pair centred where the layout kept room; its numbers in the heatmap's tooltip.
    const e = graph.edges[i];
    if (heat && rec.heatShown !== heat) {
      if (!rec.heat) {
        rec.heat = document.createElementNS(SVGNS, "g");
        rec.heat.setAttribute("class", "agt-lheat");
        gLabels.append(rec.heat);
      }
      rec.heat.innerHTML = heatMarkup(heat) +
        `<title>gradient ${esc(shapeOf(v))}: ${esc(v === e.grad ? e.numbers : v.slice(v.indexOf(" [") + 1))}</title>`;
      rec.heatShown = heat;
    }
    rec.heat.setAttribute("visibility", heat ? "visible" : "hidden");
    const tw = rec.label.isConnected ? rec.label.getComputedTextLength() : 0;
    const half = heat ? (heat.w + 4) / 2 : 0;
    rec.label.setAttribute("x", e.lx - half);
    if (heat) rec.heat.setAttribute("transform", `translate(${e.lx - half + tw / 2 + 4},${e.ly + 2 - heat.h})`);
  }

  function paintRow(i) {
    const n = graph.nodes[i], grad = gradOf(i), state = savedOf(i);
    const key = `${grad}|${state}`;
    if (rowPainted[i] === key) return;
    rowPainted[i] = key;
    const cells = rows[i].children;
    cells[4].textContent = grad !== "None" ? grad : n.kind === "leaf" ? "None" : "";
    cells[5].textContent = n.saved.length ? n.saved.join(", ") +
      (state === "freed" ? " (freed)" : state === "kept" ? " (kept)" : "") : "";
  }

  // ------------------------------------------------------------ which nodes and edges are in the DOM
  function inView(x0, y0, x1, y1, v) {
    return x1 >= v.x && x0 <= v.x + v.w && y1 >= v.y && y0 <= v.y + v.h;
  }

  function edgeBox(e) {
    const s = graph.nodes[e.src], d = graph.nodes[e.dst];
    const x0 = Math.min(s.x, d.x) - 80, x1 = Math.max(s.x, d.x) + 80;
    return [x0, Math.min(s.y, d.y) - 90, x1, Math.max(s.y, d.y) + 90];
  }

  function cull() {
    cullQueued = false;
    if (!view) return;
    const margin = { x: view.x - view.w * 0.25, y: view.y - view.h * 0.25, w: view.w * 1.5, h: view.h * 1.5 };
    const wantDetail = stage.clientWidth / view.w >= DETAIL_SCALE;
    if (wantDetail !== detailed) {  // level of detail changed: rebuild what is shown
      detailed = wantDetail;
      svg.classList.toggle("agt-overview", !detailed);
      for (const rec of nodeEls.values()) rec.g.remove();
      for (const rec of edgeEls.values()) { rec.path.remove(); rec.label?.remove(); rec.heat?.remove(); }
      nodeEls = new Map(); edgeEls = new Map();
    }
    const newNodes = [], newEdges = [];
    graph.nodes.forEach((n, i) => {
      const visible = n.inside === undefined &&  // a node inside a closed group is drawn as the group's box
        inView(n.x - n.w / 2, n.y - n.h / 2, n.x + n.w / 2, n.y + n.h / 2, margin);
      const rec = nodeEls.get(i);
      if (visible && !rec) newNodes.push(i);
      else if (!visible && rec) { rec.g.remove(); nodeEls.delete(i); }
    });
    graph.edges.forEach((e, i) => {
      const visible = e.path !== "" && inView(...edgeBox(e), margin);
      const rec = edgeEls.get(i);
      if (visible && !rec) newEdges.push(i);
      else if (!visible && rec) { rec.path.remove(); rec.label?.remove(); rec.heat?.remove(); edgeEls.delete(i); }
    });
    if (newNodes.length) {
      const tmp = document.createElementNS(SVGNS, "g");
      tmp.innerHTML = newNodes.map((i) => nodeMarkup(graph.nodes[i], detailed)).join("");
      const made = Array.from(tmp.children);
      made.forEach((g, k) => {
        const rec = { g, grad: g.querySelector(".agt-grad"), gheat: g.querySelector(".agt-gheat"),
          word: g.querySelector(".agt-sword"),
          title: g.lastElementChild, painted: null };
        nodeEls.set(newNodes[k], rec);
        paintNode(newNodes[k], rec);
      });
      gNodes.append(...made);
    }
    if (newEdges.length) {
      const tmp = document.createElementNS(SVGNS, "g");
      tmp.innerHTML = newEdges.map((i) => edgeMarkup(graph.edges[i], i)).join("");
      const paths = Array.from(tmp.children);
      const labels = [];
      paths.forEach((path, k) => {
        const i = newEdges[k], e = graph.edges[i];
        let label = null;
        if (detailed && e.lx !== null) {  // an edge label is a box of its own in the layout, above its edge
          label = document.createElementNS(SVGNS, "text");
          label.setAttribute("class", "agt-elabel");
          label.setAttribute("x", e.lx); label.setAttribute("y", e.ly);
          labels.push(label);
        }
        const rec = { path, label, painted: null };
        edgeEls.set(i, rec);
        paintEdge(i, rec);
      });
      gEdges.append(...paths);
      gLabels.append(...labels);
    }
    root.dataset.inDom = String(nodeEls.size);
  }

  function queueCull() {
    if (!cullQueued) { cullQueued = true; requestAnimationFrame(cull); }
  }

  // ------------------------------------------------------------ the graph trait
  function drawGraph() {
    const t0 = performance.now();
    const g = JSON.parse(model.get("graph_json") || "{}");
    const nodes = g.nodes || [], edges = g.edges || [];
    const reset = nodes.length < graph.nodes.length || edges.length < graph.edges.length;
    const changed = [], moved = [];
    const unplaced = (n) => JSON.stringify({ ...n, x: 0, y: 0 });
    nodes.forEach((n, i) => {
      const json = JSON.stringify(n);
      if (nodeJson[i] !== json) {
        if (i < nodeJson.length) (unplaced(JSON.parse(nodeJson[i])) === unplaced(n) ? moved : changed).push(i);
        nodeJson[i] = json;
      }
    });
    nodeJson.length = nodes.length;
    const oldEdges = graph.edges;
    const regrouped = JSON.stringify(g.groups || []) !== JSON.stringify(graph.groups);
    graph = { nodes, edges, hidden: g.hidden || 0, width: g.width || 0, height: g.height || 0, groups: g.groups || [] };
    if (reset) {
      gNodes.replaceChildren(); gEdges.replaceChildren(); gLabels.replaceChildren();
      nodeEls = new Map(); edgeEls = new Map();
    } else {
      for (const i of changed) {  // a node's text changed (a name, a value, a grad): redraw it
        const rec = nodeEls.get(i);
        if (rec) { rec.g.remove(); nodeEls.delete(i); }
      }
      for (const i of moved) {  // the layout moved it (the graph grew): it glides there (CSS transition)
        const rec = nodeEls.get(i), n = nodes[i];
        if (rec) rec.g.style.transform = `translate(${n.x - n.w / 2}px,${n.y - n.h / 2}px)`;
      }
      for (const [i, rec] of edgeEls) {  // an edge was re-routed around a new node
        if (oldEdges[i] && oldEdges[i].path !== edges[i].path) {
          rec.path.setAttribute("d", edges[i].path);
          rec.label?.setAttribute("x", edges[i].lx); rec.label?.setAttribute("y", edges[i].ly);
          if (rec.heat) { rec.painted = null; paintEdge(i, rec); }
          rec.path.classList.remove("agt-moved"); void rec.path.getBBox(); rec.path.classList.add("agt-moved");
        }
      }
    }
    if (regrouped) drawGroups();
    empty.style.display = nodes.length ? "none" : "flex";
    legend.classList.toggle("agt-has-cuts", nodes.some((n) => n.kind === "cut"));
    const counts = {};
    for (const n of nodes) counts[n.kind] = (counts[n.kind] || 0) + 1;
    const counted = g.counted || [0, 0];
    info.textContent = `${nodes.length} nodes, ${edges.length} edges` +
      (graph.hidden ? `, ${graph.hidden} repeated nodes collapsed` : "") +
      (counted[0] ? `; node budget spent: ${counted[0]} more backward passes (${counted[1]} nodes) counted, ` +
        "not drawn" : "");
    svgTitle.textContent = `Computation graph: ${nodes.length} nodes (` +
      Object.entries(counts).map(([k, c]) => `${c} ${KIND_NAMES[k]}`).join(", ") + `), ${edges.length} edges`;
    buildTable();
    st = stateAt(replay, position);
    const fresh = !userView || reset;
    if (fresh) startView();
    cull();
    applyState();
    if (fresh && position > 0) follow();  // a redrawn graph keeps the replay's step (or the end's leaves) in view
    const js = performance.now() - t0;
    // after the next frame is painted: script + style + layout + paint of this render
    requestAnimationFrame(() => setTimeout(() => {
      const ms = performance.now() - t0;
      root.dataset.renderMs = ms.toFixed(1);
      root.dataset.renderJsMs = js.toFixed(1);
      root.dataset.nodes = String(nodes.length);
      model.set("render_ms", ms);
      model.save_changes();
    }, 0));
  }

  function drawGroups() {
    gFrames.replaceChildren(); gGroups.replaceChildren(); groupEls = new Map();
    for (const g of graph.groups) {
      const tmp = document.createElementNS(SVGNS, "g");
      tmp.innerHTML = groupMarkup(g);
      const made = tmp.firstElementChild;
      (g.expanded ? gFrames : gGroups).append(made);
      groupEls.set(g.id, g.expanded ? made.querySelector(".agt-gtab") : made);
    }
    root.dataset.groups = String(graph.groups.length);
    legend.querySelector(".agt-legend-group").hidden = !graph.groups.length;  // only where there are groups
    root.dataset.closedGroups = String(graph.groups.filter((g) => !g.expanded).length);
    if (refocus >= 0 && groupEls.has(refocus)) groupEls.get(refocus).focus();
    refocus = -1;
    stickTitles();
  }

  function toggleGroup(id) {  // open or close a group: Python lays the drawing out again
    const open = new Set(graph.groups.filter((g) => g.expanded).map((g) => g.id));
    if (open.has(id)) open.delete(id); else open.add(id);
    refocus = id;
    model.set("expanded", [...open].sort((a, b) => a - b));
    model.save_changes();
  }

  function groupTarget(ev) {
    const t = ev.target instanceof Element ? ev.target.closest(".agt-group, .agt-gtab") : null;
    return t && root.contains(t) ? Number(t.dataset.g) : -1;
  }

  function buildTable() {
    const head = ["name", "kind", "operation", "value", "grad", "saved"].map((h) => `<th scope="col">${h}</th>`).join("");
    const body = graph.nodes.map((n) => {
      const op = n.kind === "leaf" ? "AccumulateGrad" : n.kind === "op" ? n.op : "";
      const opText = n.kind === "collapsed" || n.hidden ? `${op ? op + " " : ""}(+${n.hidden} hidden)` : op;
      return `<tr><th scope="row">${esc(n.label)}</th><td>${KIND_NAMES[n.kind]}</td><td>${esc(opText)}</td>` +
        `<td>${esc(n.value)}</td><td></td><td></td></tr>`;
    }).join("");
    tableWrap.innerHTML = `<table class="agt-table"><caption>Nodes of the computation graph</caption>` +
      `<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
    rows = Array.from(tableWrap.querySelectorAll("tbody tr"));
    rowPainted = []; shownRowActive = -1;
  }

  // ------------------------------------------------------------ replay
  function applyState() {
    for (const [i, rec] of nodeEls) paintNode(i, rec);
    for (const [i, rec] of edgeEls) paintEdge(i, rec);
    graph.nodes.forEach((_, i) => paintRow(i));
    const lit = st.active >= 0 ? graph.nodes[st.active]?.inside : undefined;
    for (const [id, g] of groupEls) g.classList.toggle("agt-active", id === lit);
    if (shownRowActive !== st.active) {
      rows[shownRowActive]?.classList.remove("agt-active");
      rows[st.active]?.classList.add("agt-active");
      shownRowActive = st.active;
    }
    const step = st.step;
    if (st.active >= 0 && step.total) {
      const n = graph.nodes[st.active];
      total.textContent = step.total;
      total.setAttribute("x", n.x); total.setAttribute("y", n.y - n.h / 2 - 9);
      total.setAttribute("visibility", "visible");
    } else total.setAttribute("visibility", "hidden");
    const count = replay.steps.length;
    slider.max = String(count); slider.value = String(position);
    slider.setAttribute("aria-valuetext", `step ${position} of ${count}`);
    pos.textContent = `step ${position} / ${count}`;
    bStart.disabled = bBack.disabled = position === 0;
    bFwd.disabled = bEnd.disabled = position >= count;
    bPlay.disabled = count === 0;
    if (!count) narration.textContent = graph.nodes.length ? "Call .backward() to record a backward pass to replay." : "";
    else if (position === 0) narration.textContent = "Before the backward pass. Press → (or Play) to step through it.";
    else narration.textContent = step.text;
    narration.append(offView);  // follow() says there which leaves are out of view at the end
    const full = position > 0 && step ? step.full || "" : "";
    bFull.hidden = !full;
    fullText.textContent = full;
    fullText.hidden = !full || !showFull;
    detail.textContent = step && step.locals.length
      ? "Local derivatives: " + step.locals.map(([, t]) => t).join(";  ") : "";
    if (!count || position < count) hideEndList();
    if (position !== lastPosition && view) follow();
    lastPosition = position;
  }

  function setPosition(p, fromPython = false) {
    p = Math.max(0, Math.min(replay.steps.length, p));
    if (p === position && !fromPython) return;
    position = p;
    st = stateAt(replay, position);
    applyState();
    if (!fromPython && model.get("step") !== p) { model.set("step", p); model.save_changes(); }
  }

  function play() {
    if (!replay.steps.length) return;
    if (position >= replay.steps.length) {  // replay the last pass from its start
      let start = 0;
      replay.steps.forEach((s, i) => { if (s.kind === "start") start = i; });
      setPosition(start);
    }
    bPlay.innerHTML = icon("pause") + " Pause"; bPlay.setAttribute("aria-label", "Pause");
    const tick = () => {
      if (position >= replay.steps.length) { pause(); return; }
      setPosition(position + 1);
      timer = setTimeout(tick, 900 / Number(speed.value));
    };
    clearTimeout(timer);
    timer = setTimeout(tick, 250);
  }

  function pause() {
    clearTimeout(timer); timer = null;
    bPlay.innerHTML = icon("play") + " Play"; bPlay.setAttribute("aria-label", "Play");
  }

  // ------------------------------------------------------------ pan and zoom (viewBox)
  function setView(v) {
    view = v;
    svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    stickTitles();
    queueCull();
  }

  function stickTitles() {
    // An open group's name stays readable while the view pans past the frame's left edge: it slides along the
    // frame's top band to the view's left edge, and no further than the frame's right end.
    if (!view) return;
    for (const g of graph.groups) {
      const text = g.expanded ? groupEls.get(g.id)?.querySelector("text") : null;
      if (!text) continue;
      const inset = g.tab[0] - g.frame[0];
      const width = Number(text.dataset.w) || text.getComputedTextLength();  // 0 until the widget is shown
      if (width) text.dataset.w = String(width);
      const last = g.frame[2] - inset - width;
      text.setAttribute("x", String(Math.max(g.tab[0], Math.min(view.x + inset, last))));
    }
  }

  function stageSize() {  // [width, height, scale that fits the whole graph]; the stage is no taller than needed
    const width = stage.clientWidth || 800;
    const gw = Math.max(graph.width, 1), gh = Math.max(graph.height, 1);
    const height = Math.max(150, Math.min(gh * START_SCALE, MAX_STAGE));
    svg.style.height = `${height}px`;
    return [width, height, Math.min(width / gw, height / gh)];
  }

  function fitView() {  // the whole graph, however small it gets
    cancelAnimationFrame(glide);
    const [width, height, scale] = stageSize();
    setView({ x: 0, y: 0, w: width / scale, h: height / scale });
    userView = false;
  }

  function startView() {
    // Up to OVERVIEW boxes: full size (text 10 px and up); one wider than the stage opens at its left edge, where
    // the graph starts, and scrolls (drag, or the replay follows its node). More boxes: an overview, fitted.
    const [width, height, scale] = stageSize();
    const boxes = graph.nodes.filter((n) => n.inside === undefined).length +
      graph.groups.filter((g) => !g.expanded).length;
    if (scale >= START_SCALE || !graph.nodes.length) {
      setView({ x: 0, y: 0, w: width / START_SCALE, h: height / START_SCALE });
      return;
    }
    const k = boxes > OVERVIEW ? Math.max(scale, OVERVIEW_SCALE) : START_SCALE;
    const focus = graph.nodes.find((n) => n.root) || graph.nodes[graph.nodes.length - 1];
    const w = width / k, h = height / k;
    setView({ x: 0, y: Math.max(0, Math.min(focus.y - h / 2, graph.height - h)), w, h });
  }

  function focusPoint() {  // what a zoom button zooms around: the replay's node, else the node nearest the centre
    if (st.active >= 0) { const n = graph.nodes[st.active]; return [n.x, n.y]; }
    const cx = view.x + view.w / 2, cy = view.y + view.h / 2;
    let best = null, dist = Infinity;
    for (const n of graph.nodes) {
      const d = (n.x - cx) ** 2 + (n.y - cy) ** 2;
      if (d < dist) { dist = d; best = n; }
    }
    return best && inView(best.x, best.y, best.x, best.y, view) ? [best.x, best.y] : [cx, cy];
  }

  function box(i) {  // the drawn box of node i: its own, or its closed group's
    const n = graph.nodes[i], g = n.inside !== undefined ? graph.groups.find((x) => x.id === n.inside) : null;
    return g && !g.expanded ? g : n;
  }

  function endLeaves() {
    // At the end of the replay: the leaves that received .grad in the last pass, the most recent first (where
    // the learner looks next); none before the end.
    const count = replay.steps.length;
    if (!count || position < count) return [];
    const last = replay.steps[count - 1].pass, seen = new Set();
    for (let k = count - 1; k >= 0 && replay.steps[k].pass === last; k--)
      for (const [i, after] of replay.steps[k].grads)
        if (i >= 0 && graph.nodes[i] && graph.nodes[i].kind === "leaf" && after !== "None") seen.add(i);
    return [...seen];
  }

  function fillEndList(leaves) {
    // One entry per leaf: its name, its .grad as the drawing writes it (its shape over a heatmap for more than
    // 6 numbers), the tooltip with its numbers; the first 24, the rest are in the node table.
    const shown = leaves.slice(0, 24);
    endItems.innerHTML = shown.map((i) => {
      const n = graph.nodes[i], grad = gradOf(i), heat = gradHeat(n, grad, st.gheats.get(i));
      const k = heat ? Math.max(1, Math.min(3, 36 / heat.h, 120 / heat.w)) : 1;
      const picture = heat ? `<svg width="${heat.w * k}" height="${heat.h * k}" viewBox="0 0 ${heat.w} ${heat.h}" ` +
        `aria-hidden="true">${heatMarkup(heat)}</svg>` : "";
      const text = heat ? `${shapeOf(grad)}` : grad;
      return `<button type="button" class="agt-endleaf" data-i="${i}" aria-label="${esc(n.label)}.grad: ` +
        `${esc(heat ? `a ${shapeOf(grad)} tensor` : grad)}. Show it in the drawing." title="${esc(describe(n, grad, ""))}">` +
        `<b>${esc(n.label)}</b><span class="agt-endgrad">grad ${esc(text)}</span>${picture}</button>`;
    }).join("") + (leaves.length > shown.length
      ? `<span class="agt-endmore">and ${leaves.length - shown.length} more in the node table</span>` : "");
  }

  function hideEndList() {
    if (endList.hidden) return;
    const had = endList.contains(document.activeElement);
    endList.hidden = true;
    if (had) root.focus();  // the keys stay with the widget
  }

  function pick(i) {
    // An entry of the end list: its leaf's box glides to the middle of the view (at the view's zoom, never
    // below full size) and is marked.
    const b = box(i), r = svg.getBoundingClientRect();
    const k = Math.max(START_SCALE, r.width ? r.width / view.w : START_SCALE);
    const w = (r.width || view.w) / k, h = (r.height || view.h) / k;
    picked = i;
    for (const [j, rec] of nodeEls) paintNode(j, rec);
    for (const e of endItems.querySelectorAll(".agt-endleaf"))
      e.setAttribute("aria-pressed", String(Number(e.dataset.i) === i));
    userView = true;
    glideTo({ x: b.x - w / 2, y: b.y - h / 2, w, h });
  }

  function stepBoxes() {
    // What the replay's current step is about: its node and the ends of the edges it lit.
    if (st.active < 0) return [];
    const ends = [st.active];
    for (const i of st.current) { const e = graph.edges[i]; if (e) ends.push(e.src, e.dst); }
    return [...new Set(ends)].map(box);
  }

  function bounds(boxes, pad) {
    return [Math.min(...boxes.map((b) => b.x - b.w / 2)) - pad, Math.min(...boxes.map((b) => b.y - b.h / 2)) - pad,
      Math.max(...boxes.map((b) => b.x + b.w / 2)) + pad, Math.max(...boxes.map((b) => b.y + b.h / 2)) + pad];
  }

  function showLeaves(indices) {
    // The end view: the smallest pan, and zoom-out if needed (text stays >= 10 px: no smaller than START_SCALE),
    // that shows every leaf that received .grad; where they do not all fit, as many as fit, the most recent
    // first, the narration says which way the others are, and the end list below gives every leaf's .grad.
    const leaves = [...new Set(indices.map(box))];
    const r = svg.getBoundingClientRect(), pad = 16;
    const widest = Math.max(1, r.width ? r.width / START_SCALE / view.w : 1);  // how far out the zoom may go
    const shown = [];
    for (const b of leaves) {
      const [x0, y0, x1, y1] = bounds([...shown, b], pad);
      if (!shown.length || (x1 - x0 <= view.w * widest && y1 - y0 <= view.h * widest)) shown.push(b);
    }
    const [x0, y0, x1, y1] = bounds(shown, pad);
    const z = Math.min(widest, Math.max(1, (x1 - x0) / view.w, (y1 - y0) / view.h));
    const w = view.w * z, h = view.h * z;
    const x = Math.min(Math.max(view.x, x1 - w), x0), y = Math.min(Math.max(view.y, y1 - h), y0);
    const out = { "to the left": 0, "to the right": 0, above: 0, below: 0 };
    for (const b of leaves) {
      if (b.x - b.w / 2 >= x && b.x + b.w / 2 <= x + w && b.y - b.h / 2 >= y && b.y + b.h / 2 <= y + h) continue;
      const dx = (b.x - x - w / 2) / w, dy = (b.y - y - h / 2) / h;  // from the view's centre, in view sizes
      out[Math.abs(dx) >= Math.abs(dy) ? (dx < 0 ? "to the left" : "to the right") : (dy < 0 ? "above" : "below")]++;
    }
    const where = Object.entries(out).filter(([, n]) => n)
      .map(([side, n], k) => k ? `${n} ${side}` : `${n} more ${n === 1 ? "leaf" : "leaves"} ${side}`);
    const small = r.width > 0 && r.width / w < START_SCALE - 1e-6;  // fitted: its text under 10 px
    if (where.length) offView.textContent = ` ${where.join(" and ")}: the list below has every leaf's .grad.`;
    if (where.length || small) {
      fillEndList(indices);
      endList.hidden = false;
    } else hideEndList();
    if (x !== view.x || y !== view.y || w !== view.w) glideTo({ x, y, w, h });
  }

  function follow() {
    // Keep the current step's boxes in sight at the learner's zoom (text stays legible): pan, smoothly, just
    // enough to bring them all in; when they do not fit in the view, centre the step's own node.
    offView.textContent = "";
    if (picked >= 0) { picked = -1; for (const [j, rec] of nodeEls) paintNode(j, rec); }
    const leaves = endLeaves();
    if (leaves.length) { showLeaves(leaves); return; }
    hideEndList();
    const boxes = stepBoxes();
    if (!boxes.length) return;
    const pad = 16, { w, h } = view;
    let x0 = Math.min(...boxes.map((b) => b.x - b.w / 2)) - pad, x1 = Math.max(...boxes.map((b) => b.x + b.w / 2)) + pad;
    let y0 = Math.min(...boxes.map((b) => b.y - b.h / 2)) - pad, y1 = Math.max(...boxes.map((b) => b.y + b.h / 2)) + pad;
    if (x1 - x0 > w || y1 - y0 > h) {
      const n = st.active >= 0 ? box(st.active) : boxes[boxes.length - 1];
      x0 = x1 = n.x - w / 2; y0 = y1 = n.y - h / 2;
      x1 += w; y1 += h;
    }
    const x = Math.min(Math.max(view.x, x1 - w), x0), y = Math.min(Math.max(view.y, y1 - h), y0);
    if (x !== view.x || y !== view.y) glideTo({ x, y, w, h });
  }

  function glideTo(target) {  // a short eased pan (a jump with reduced motion)
    cancelAnimationFrame(glide);
    const from = { ...view }, t0 = performance.now(), ms = 280;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) { setView(target); return; }
    const frame = (now) => {
      const t = Math.min(1, (now - t0) / ms), e = t * (2 - t);
      setView({ x: from.x + (target.x - from.x) * e, y: from.y + (target.y - from.y) * e,
        w: from.w + (target.w - from.w) * e, h: from.h + (target.h - from.h) * e });
      glide = t < 1 ? requestAnimationFrame(frame) : null;
      root.dataset.gliding = glide ? "1" : "";
    };
    glide = requestAnimationFrame(frame);
    root.dataset.gliding = "1";
  }

  function zoom(factor, cx, cy) {  // around (cx, cy), which stays where it is; buttons: around the focus, centred
    cancelAnimationFrame(glide);
    const w = view.w / factor, h = view.h / factor;
    if (cx === undefined) {
      [cx, cy] = focusPoint();
      setView({ x: cx - w / 2, y: cy - h / 2, w, h });
    } else setView({ x: cx - (cx - view.x) / factor, y: cy - (cy - view.y) / factor, w, h });
    userView = true;
  }

  stage.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey && !ev.metaKey) return;  // plain wheel scrolls the notebook; pinch or Ctrl+wheel zooms
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    const cx = view.x + (ev.clientX - r.left) / r.width * view.w;
    const cy = view.y + (ev.clientY - r.top) / r.height * view.h;
    zoom(Math.exp(-ev.deltaY * 0.0025), cx, cy);
  }, { passive: false });
  let drag = null;
  stage.addEventListener("click", (ev) => {
    const id = groupTarget(ev);
    if (id >= 0) { ev.preventDefault(); toggleGroup(id); }
  });
  stage.addEventListener("pointerdown", (ev) => {
    if (!view || groupTarget(ev) >= 0) return;  // a group's box is a button, not a handle to pan with
    cancelAnimationFrame(glide);
    drag = { x: ev.clientX, y: ev.clientY, view: { ...view } };
    stage.setPointerCapture(ev.pointerId);
    stage.classList.add("agt-dragging");
  });
  stage.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const k = view.w / svg.getBoundingClientRect().width;
    setView({ ...drag.view, x: drag.view.x - (ev.clientX - drag.x) * k, y: drag.view.y - (ev.clientY - drag.y) * k });
    userView = true;
  });
  const endDrag = () => { drag = null; stage.classList.remove("agt-dragging"); };
  stage.addEventListener("pointerup", endDrag);
  stage.addEventListener("pointercancel", endDrag);

  // ------------------------------------------------------------ controls and keyboard
  bStart.addEventListener("click", () => { pause(); setPosition(0); });
  bBack.addEventListener("click", () => { pause(); setPosition(position - 1); });
  bFwd.addEventListener("click", () => { pause(); setPosition(position + 1); });
  bEnd.addEventListener("click", () => { pause(); setPosition(replay.steps.length); });
  bPlay.addEventListener("click", () => (timer ? pause() : play()));
  slider.addEventListener("input", () => { pause(); setPosition(Number(slider.value)); });
  zoomIn.addEventListener("click", () => zoom(1.25));
  zoomOut.addEventListener("click", () => zoom(0.8));
  zoomFit.addEventListener("click", fitView);
  endItems.addEventListener("click", (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest(".agt-endleaf") : null;
    if (b) pick(Number(b.dataset.i));
  });
  // The widget keeps the keys while it has focus: Notebook 7 and JupyterLab would otherwise take the arrows
  // (next cell) and letters (cell commands). Notebook 7 listens on the document in the capture phase, before
  // any element sees the key, so the widget listens on the window, earlier still, for keys aimed inside it.
  // Escape gives them back: the focus returns to the notebook.
  function onKey(ev) {
    if (!(ev.target instanceof Node) || !root.contains(ev.target)) return;
    const tag = ev.target.tagName;
    if (ev.key === "Escape") {
      pause(); ev.stopPropagation(); ev.preventDefault();
      const notebook = root.closest(".jp-Notebook");
      if (notebook) notebook.focus(); else root.blur();
      return;
    }
    // the notebook's own shortcuts with a modifier (save, run the cell) still work
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (ev.shiftKey && ev.key === "Enter")) return;
    ev.stopPropagation();
    if (tag === "INPUT" || tag === "SELECT") return;  // the slider and the speed menu keep their own keys
    const group = groupTarget(ev);
    if (group >= 0 && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); toggleGroup(group); return; }
    let handled = true;
    switch (ev.key) {
      case "ArrowRight": pause(); setPosition(position + 1); break;
      case "ArrowLeft": pause(); setPosition(position - 1); break;
      case "Home": pause(); setPosition(0); break;
      case "End": pause(); setPosition(replay.steps.length); break;
      case " ": if (tag === "BUTTON" || tag === "SUMMARY") handled = false; else if (timer) pause(); else play(); break;
      case "+": case "=": zoom(1.25); break;
      case "-": zoom(0.8); break;
      case "0": fitView(); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  }
  window.addEventListener("keydown", onKey, true);

  // ------------------------------------------------------------ traits
  function loadReplay() {
    const r = JSON.parse(model.get("replay_json") || "{}");
    replay = r.steps ? r : { steps: [], start: { grads: [], saved: [] } };
    replay.heats = replay.heats || [];
    note.textContent = r.note || "";
    position = Math.min(model.get("step") || 0, replay.steps.length);
    st = stateAt(replay, position);
  }
  const onGraph = () => drawGraph();
  const onReplay = () => { loadReplay(); applyState(); };
  const onStep = () => setPosition(model.get("step") || 0, true);
  const onTitle = () => { title.textContent = model.get("title") || ""; };
  model.on("change:graph_json", onGraph);
  model.on("change:replay_json", onReplay);
  model.on("change:step", onStep);
  model.on("change:title", onTitle);
  onTitle();
  pause();
  loadReplay();
  requestAnimationFrame(() => drawGraph());  // once attached, so that the stage has a width

  return () => {
    pause();
    window.removeEventListener("keydown", onKey, true);
    model.off("change:graph_json", onGraph);
    model.off("change:replay_json", onReplay);
    model.off("change:step", onStep);
    model.off("change:title", onTitle);
  };
}

export default { render };
