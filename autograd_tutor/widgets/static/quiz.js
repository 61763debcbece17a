// h() and inline() come from dom.js, which the widget puts before this file (widgets/quiz.py).
// QuizWidget view: draws one question at a time, sends answers to Python, shows the feedback it sends back.
// The page never holds an answer key: Python grades every answer (see autograd_tutor/quiz/keys.py).
// Keyboard: Tab between controls; arrows move between radio choices (native) and between tensors of a
// diagram; Space/Enter pick a choice or change a tensor's mark; Enter in a choice or a text box checks.

const MARK_ORDER = ["leaf_grad", "leaf_nograd", "nonleaf"];
const MARK_SHORT = { leaf_grad: "leaf · grad", leaf_nograd: "leaf · no grad", nonleaf: "non-leaf" };
const NODE_W = 104, NODE_H = 46, PAD = 16, OFF_GAP = 40;  // NODE_W, NODE_H: as in quiz/model.py
const SVG_NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function render({ model, el }) {
  const uid = uniqueId("agtq");
  const drafts = {};     // question id -> the learner's unsent answer
  const feedback = {};   // question id -> the last feedback message from Python
  let pendingTimer = null;

  const questions = () => model.get("questions") || [];
  const progress = () => model.get("progress") || [];
  const current = () => questions()[Math.min(model.get("index") || 0, Math.max(questions().length - 1, 0))];

  const title = h("h3", { class: "agt-quiz-title", id: `${uid}-title` });
  const score = h("div", { class: "agt-quiz-score" });
  const steps = h("nav", { class: "agt-quiz-steps", "aria-label": "Questions" });
  const kind = h("div", { class: "agt-quiz-kind" });
  const body = h("div", { class: "agt-quiz-body" });
  const status = h("div", { class: "agt-quiz-feedback", role: "status", "aria-live": "polite", tabindex: "-1" });
  const check = h("button", { type: "button", class: "agt-quiz-check", onclick: () => submit() }, "Check answer");
  const prev = h("button", { type: "button", class: "agt-quiz-nav", onclick: () => go(-1) }, "\u2190 Previous");
  const next = h("button", { type: "button", class: "agt-quiz-nav", onclick: () => go(1) }, "Next \u2192");
  const card = h("section", { class: "agt-quiz-card", "aria-labelledby": `${uid}-prompt` },
    kind, body, h("div", { class: "agt-quiz-actions" }, check, h("span", { class: "agt-quiz-spacer" }), prev, next),
    status);
  const root = h("div", { class: "agt-quiz", role: "region", "aria-labelledby": `${uid}-title` },
    h("header", { class: "agt-quiz-head" }, title, score), steps, card);
  el.append(root);

  function go(step) {
    const i = (model.get("index") || 0) + step;
    if (i < 0 || i >= questions().length) return;
    model.set("index", i);
    model.save_changes();
  }

  function solved(q) {
    const i = questions().indexOf(q);
    return Boolean(progress()[i] && progress()[i].solved);
  }

  // ------------------------------------------------------------------ header, steps, score
  function drawHead() {
    title.textContent = `Quiz: ${model.get("title")}`;
    const total = model.get("total"), got = model.get("score");
    score.textContent = `Score ${got} / ${total}`;
    score.setAttribute("aria-label", `Score: ${got} of ${total}`);
    const index = model.get("index") || 0;
    steps.replaceChildren(...questions().map((q, i) => {
      const p = progress()[i] || { attempts: 0, solved: false };
      const state = p.solved ? "solved" : p.attempts ? `tried ${plural(p.attempts, "time")}, not solved yet` : "not answered";
      return h("button", {
        type: "button", class: `agt-quiz-step${p.solved ? " is-solved" : p.attempts ? " is-tried" : ""}`,
        "aria-label": `Question ${i + 1}: ${state}`, "aria-current": i === index ? "step" : null,
        onclick: () => { model.set("index", i); model.save_changes(); },
      }, p.solved ? "\u2713" : String(i + 1));
    }));
    prev.disabled = index <= 0;
    next.disabled = index >= questions().length - 1;
  }

  // ------------------------------------------------------------------ the current question
  function drawQuestion() {
    const q = current();
    if (!q) { body.replaceChildren(h("p", {}, "This quiz has no questions.")); return; }
    const index = questions().indexOf(q);
    kind.textContent = `Question ${index + 1} of ${questions().length} \u00b7 ${q.kind_label}`;
    const parts = [h("p", { class: "agt-quiz-prompt", id: `${uid}-prompt`, tabindex: "-1" }, inline(q.prompt))];
    if (q.code) parts.push(h("pre", { class: "agt-quiz-code" }, h("code", {}, q.code)));
    parts.push(ANSWER_VIEWS[q.kind](q));
    body.replaceChildren(...parts);
    check.disabled = solved(q);
    check.textContent = solved(q) ? "Solved \u2713" : "Check answer";
    showFeedback(q);
  }

  function choices(q, type) {
    const name = `${uid}-${q.id}`;
    const picked = drafts[q.id] ?? (type === "radio" ? null : []);
    const list = h("div", { class: "agt-quiz-choices", role: type === "radio" ? "radiogroup" : "group",
      "aria-labelledby": `${uid}-prompt` });
    q.choices.forEach((text, i) => {
      const checked = type === "radio" ? picked === i : picked.includes(i);
      const input = h("input", { type, name, value: String(i), id: `${name}-${i}`, checked,
        onchange: () => {
          if (type === "radio") drafts[q.id] = i;
          else {
            const set = new Set(drafts[q.id] || []);
            input.checked ? set.add(i) : set.delete(i);
            drafts[q.id] = [...set].sort((a, b) => a - b);
          }
        },
        onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); submit(); } },
      });
      list.append(h("label", { class: "agt-quiz-choice", for: `${name}-${i}` }, input,
        h("span", { class: "agt-quiz-choice-text" }, inline(text))));
    });
    return list;
  }

  function typed(q) {
    const id = `${uid}-${q.id}-input`;
    const input = h("input", { type: "text", id, class: "agt-quiz-input", autocomplete: "off", spellcheck: "false",
      inputmode: q.kind === "numeric" ? "decimal" : null, value: drafts[q.id] ?? "",
      maxlength: model.get("answer_limit") || null,
      placeholder: q.kind === "numeric" ? "e.g. 4, -0.5 or 1/3" : "e.g. a node name",
      oninput: () => { drafts[q.id] = input.value; },
      onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); submit(); } } });
    return h("div", { class: "agt-quiz-typed" },
      h("label", { for: id }, q.kind === "numeric" ? "Your number" : "Your answer"), input);
  }

  // ------------------------------------------------------------------ classify: a clickable diagram
  function classify(q) {
    const marks = drafts[q.id] || (drafts[q.id] = {});
    const nodes = q.diagram.nodes, edges = q.diagram.edges;
    const onGraph = nodes.filter((n) => !n.off), off = nodes.filter((n) => n.off);
    // Python laid the graph out (the drawings' layered layout: quiz/model.py); tensors not reached by backward
    // go in a row under it.
    const offTop = q.diagram.height + (off.length ? OFF_GAP - PAD : 0);
    const pos = {};
    for (const n of onGraph) pos[n.id] = { x: q.diagram.at[n.id][0], y: q.diagram.at[n.id][1] };
    for (const n of off) pos[n.id] = { x: PAD + n.row * (NODE_W + 24), y: offTop };
    const width = Math.max(q.diagram.width, PAD * 2 + off.length * (NODE_W + 24));
    const height = off.length ? offTop + NODE_H + PAD : q.diagram.height;
    const helpId = `${uid}-${q.id}-help`;
    const svg = s("svg", { class: "agt-quiz-diagram", viewBox: `0 0 ${width} ${height}`, width, height,
      role: "group", "aria-label": "Graph of tensors to classify", "aria-describedby": helpId });
    svg.append(s("defs", {}, s("marker", { id: `${uid}-arrow`, viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
    s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "agt-quiz-arrowhead" }))));
    edges.forEach(([a, b, count], i) => {
      const d = q.diagram.paths[i];
      if (!d) return;
      svg.append(s("path", { class: "agt-quiz-edge-halo", d }));
      svg.append(s("path", { class: "agt-quiz-edge", d, "marker-end": `url(#${uid}-arrow)` }));
      const at = q.diagram.counts[i];
      if (count > 1 && at) {
        const label = s("text", { class: "agt-quiz-edge-count", x: at[0], y: at[1], "text-anchor": "middle" });
        label.textContent = `\u00d7${count}`;
        svg.append(label);
      }
    });
    if (off.length) {
      const rule = offTop - OFF_GAP / 2 - 4;
      svg.append(s("line", { class: "agt-quiz-off-rule", x1: PAD / 2, x2: width - PAD / 2, y1: rule, y2: rule }));
      const cap = s("text", { class: "agt-quiz-off-caption", x: PAD / 2, y: offTop - 8 });
      cap.textContent = "Not reached by backward";
      svg.append(cap);
    }
    const focusable = [];
    for (const n of nodes) {
      const g = s("g", { class: "agt-quiz-node", transform: `translate(${pos[n.id].x} ${pos[n.id].y})` });
      const shape = s("rect", { class: "agt-quiz-node-box", width: NODE_W, height: NODE_H, rx: 6 });
      const label = s("text", { class: "agt-quiz-node-label", x: NODE_W / 2, y: n.classify ? 19 : 27, "text-anchor": "middle" });
      label.textContent = n.label;
      g.append(s("rect", { class: "agt-quiz-focus-ring", x: -4, y: -4, width: NODE_W + 8, height: NODE_H + 8, rx: 9 }),
        shape, label);
      if (n.classify) {
        const badge = s("text", { class: "agt-quiz-node-mark", x: NODE_W / 2, y: 36, "text-anchor": "middle" });
        g.append(badge);
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.dataset.node = n.id;
        const paint = () => {
          const mark = marks[n.id];
          g.setAttribute("class", `agt-quiz-node is-classify mark-${mark || "none"}`);
          shape.setAttribute("rx", mark === "nonleaf" ? NODE_H / 2 : 6);
          badge.textContent = mark ? MARK_SHORT[mark] : "? click to mark";
          const said = mark ? q.categories.find((c) => c.id === mark).label : "not marked";
          g.setAttribute("aria-label", `${n.label}: ${said}${n.note ? ` (${n.note})` : ""}`);
        };
        const turn = (step) => {
          if (solved(q)) return;
          const at = MARK_ORDER.indexOf(marks[n.id]), count = MARK_ORDER.length;
          marks[n.id] = MARK_ORDER[at < 0 ? (step > 0 ? 0 : count - 1) : (at + step + count) % count];
          paint();
        };
        g.addEventListener("click", () => { turn(1); g.focus(); });
        g.addEventListener("keydown", (e) => {
          const i = focusable.indexOf(g);
          if (e.key === "Enter" || e.key === " " || e.key === "ArrowDown") { e.preventDefault(); turn(1); }
          else if (e.key === "ArrowUp") { e.preventDefault(); turn(-1); }
          else if (e.key === "ArrowRight" && i < focusable.length - 1) { e.preventDefault(); focusable[i + 1].focus(); }
          else if (e.key === "ArrowLeft" && i > 0) { e.preventDefault(); focusable[i - 1].focus(); }
        });
        paint();
        focusable.push(g);
      } else {
        g.setAttribute("class", "agt-quiz-node is-context");
        g.setAttribute("aria-hidden", "true");
      }
      svg.append(g);
    }
    const legend = h("ul", { class: "agt-quiz-legend", "aria-label": "Marks" },
      q.categories.map((c) => h("li", {}, h("span", { class: `agt-quiz-swatch mark-${c.id}`, "aria-hidden": "true" }), c.label)));
    return h("div", { class: "agt-quiz-classify" },
      h("div", { class: "agt-quiz-diagram-wrap" }, svg), legend,
      h("p", { class: "agt-quiz-help", id: helpId },
        "Click a tensor, or Tab to it and press Space, to change its mark. Left and right arrows move between tensors; up and down arrows change the mark."));
  }

  const ANSWER_VIEWS = { single: (q) => choices(q, "radio"), multiple: (q) => choices(q, "checkbox"),
    numeric: typed, text: typed, classify };

  // ------------------------------------------------------------------ checking and feedback
  function localProblem(q) {
    const d = drafts[q.id];
    if (q.kind === "single" && (d === null || d === undefined)) return "Choose an answer first.";
    if (q.kind === "multiple" && !(d && d.length)) return "Choose at least one answer first.";
    if ((q.kind === "numeric" || q.kind === "text") && !(d && d.trim())) return "Type an answer first.";
    if (q.kind === "classify") {
      const left = q.diagram.nodes.filter((n) => n.classify && !(d && d[n.id])).length;
      if (left) return `Mark every tensor first (${plural(left, "tensor")} not marked yet).`;
    }
    return null;
  }

  function submit() {
    const q = current();
    if (!q || solved(q)) return;
    const problem = localProblem(q);
    if (problem) {
      feedback[q.id] = { id: q.id, correct: false, valid: false, message: problem, explanation: "" };
      showFeedback(q);
      return;
    }
    feedback[q.id] = { id: q.id, pending: true, message: "Checking\u2026" };
    showFeedback(q);
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => {
      if (feedback[q.id] && feedback[q.id].pending) {
        feedback[q.id] = { id: q.id, correct: false, valid: false,
          message: "No reply from Python yet: is the kernel running?", explanation: "" };
        showFeedback(q);
      }
    }, 15000);
    model.send({ type: "check", id: q.id, answer: drafts[q.id] });
  }

  function showFeedback(q) {
    const f = feedback[q.id];
    if (!f) { status.className = "agt-quiz-feedback"; status.replaceChildren(); return; }
    const tone = f.pending ? "is-pending" : f.correct ? "is-correct" : f.valid === false ? "is-info" : "is-wrong";
    const icon = f.pending ? "\u2026" : f.correct ? "\u2713" : f.valid === false ? "i" : "\u2717";
    status.className = `agt-quiz-feedback ${tone}`;
    status.replaceChildren(h("span", { class: "agt-quiz-icon", "aria-hidden": "true" }, icon),
      h("div", { class: "agt-quiz-feedback-text" }, h("strong", {}, f.message),
        f.explanation ? h("p", {}, inline(f.explanation)) : null));
  }

  function onMessage(msg) {
    if (!msg || msg.type !== "feedback") return;
    const hadFocus = root.contains(document.activeElement);
    const q = current();
    const id = msg.id ?? (q && q.id);  // a refusal that names no question belongs to the one shown
    feedback[id] = msg;
    if (q && q.id === id) {
      clearTimeout(pendingTimer);
      showFeedback(q);
      if (msg.correct) {
        check.disabled = true;
        check.textContent = "Solved \u2713";
        if (hadFocus) (next.disabled ? status : next).focus();
      }
    }
  }

  const onIndex = () => { drawHead(); drawQuestion(); };
  model.on("change:index", onIndex);
  model.on("change:questions", onIndex);
  model.on("change:progress", drawHead);
  model.on("change:score", drawHead);
  model.on("change:title", drawHead);
  model.on("msg:custom", onMessage);
  drawHead();
  drawQuestion();
  model.send({ type: "ready" });

  return () => {
    clearTimeout(pendingTimer);
    model.off("change:index", onIndex);
    model.off("change:questions", onIndex);
    model.off("change:progress", drawHead);
    model.off("change:score", drawHead);
    model.off("change:title", drawHead);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
