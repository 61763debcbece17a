// Predict view: one question; the learner's prediction goes to Python, which grades it, runs the code that
// shows the answer (backward), and sets `outcome`. The page never holds the answer. h() and inline() come
// from dom.js, which the widget puts before this file (widgets/predict.py).
// Keyboard: Tab to a choice or the box; arrows move between radio choices; Space ticks; Enter predicts.

function render({ model, el }) {
  const uid = uniqueId("agtp");
  let draft = null;      // the learner's unsent answer: a choice index, a list of them, or text
  let notice = null;     // a refusal or "Checking..." from this view or from Python
  let waiting = null;

  const q = () => model.get("question") || {};
  const outcome = () => model.get("outcome") || {};
  const done = () => Boolean(outcome().message);

  const title = h("h3", { class: "agt-quiz-title", id: `${uid}-title` });
  const kind = h("div", { class: "agt-quiz-kind" });
  const body = h("div", { class: "agt-quiz-body" });
  const button = h("button", { type: "button", class: "agt-quiz-check agt-predict-go", onclick: () => send() },
    "Check my prediction");
  const status = h("div", { class: "agt-quiz-feedback", role: "status", "aria-live": "polite", tabindex: "-1" });
  const card = h("section", { class: "agt-quiz-card", "aria-labelledby": `${uid}-prompt` }, kind, body,
    h("div", { class: "agt-quiz-actions" }, button), status);
  el.append(h("div", { class: "agt-quiz agt-predict", role: "region", "aria-labelledby": `${uid}-title` },
    h("header", { class: "agt-quiz-head" }, title), card));

  const enterSends = (e) => { if (e.key === "Enter") { e.preventDefault(); send(); } };

  function options(question, type) {
    const group = h("div", { class: "agt-quiz-choices", role: type === "radio" ? "radiogroup" : "group",
      "aria-labelledby": `${uid}-prompt` });
    question.choices.forEach((text, i) => {
      const id = `${uid}-c${i}`;
      const box = h("input", { type, id, name: `${uid}-choice`, value: String(i), disabled: done(),
        checked: type === "radio" ? draft === i : Array.isArray(draft) && draft.includes(i), onkeydown: enterSends });
      box.addEventListener("change", () => {
        if (type === "radio") { draft = i; return; }
        const ticked = new Set(Array.isArray(draft) ? draft : []);
        if (box.checked) ticked.add(i); else ticked.delete(i);
        draft = [...ticked].sort((a, b) => a - b);
      });
      group.append(h("label", { class: "agt-quiz-choice", for: id }, box, h("span", {}, inline(text))));
    });
    return group;
  }

  function box(question) {
    const id = `${uid}-answer`;
    const numeric = question.kind === "numeric";
    const input = h("input", { type: "text", id, class: "agt-quiz-input", autocomplete: "off", spellcheck: "false",
      inputmode: numeric ? "decimal" : null, maxlength: model.get("answer_limit") || null, disabled: done(),
      value: typeof draft === "string" ? draft : "", placeholder: numeric ? "e.g. 4, -0.5 or 1/3" : "e.g. a node name",
      onkeydown: enterSends });
    input.addEventListener("input", () => { draft = input.value; });
    return h("div", { class: "agt-quiz-typed" },
      h("label", { for: id }, numeric ? "Your prediction (a number)" : "Your prediction"), input);
  }

  function problem(question) {
    if (question.kind === "single" && typeof draft !== "number") return "Pick what you expect first.";
    if (question.kind === "multiple" && !(Array.isArray(draft) && draft.length)) return "Tick at least one first.";
    if ((question.kind === "numeric" || question.kind === "text") && !(typeof draft === "string" && draft.trim()))
      return "Type what you expect first.";
    return null;
  }

  function send() {
    const question = q();
    if (done()) return;
    const local = problem(question);
    if (local) { notice = { message: local }; drawStatus(); return; }
    notice = { message: "Checking\u2026", pending: true };
    drawStatus();
    clearTimeout(waiting);
    waiting = setTimeout(() => {
      if (!(notice && notice.pending)) return;
      notice = { message: "No reply from Python yet: is the kernel running?" };
      drawStatus();
    }, 15000);
    model.send({ type: "predict", answer: draft });
  }

  function drawStatus() {
    const o = outcome();
    if (o.message) {
      status.className = `agt-quiz-feedback ${o.correct ? "is-correct" : "is-wrong"}`;
      const icon = h("span", { class: "agt-quiz-icon", "aria-hidden": "true" }, o.correct ? "\u2713" : "\u2717");
      status.replaceChildren(icon,
        h("div", { class: "agt-quiz-feedback-text" }, h("strong", {}, o.message),
          h("p", { class: "agt-predict-seen" }, h("span", { class: "agt-predict-label" }, "What the engine did: "),
            inline(o.seen)),
          o.explanation ? h("p", {}, h("span", { class: "agt-predict-label" }, "Why: "), inline(o.explanation)) : null,
          o.hint ? h("p", { class: "agt-predict-hint" }, o.hint) : null));
      return;
    }
    if (!notice) { status.className = "agt-quiz-feedback"; status.replaceChildren(); return; }
    status.className = `agt-quiz-feedback ${notice.pending ? "is-pending" : "is-info"}`;
    const icon = h("span", { class: "agt-quiz-icon", "aria-hidden": "true" }, notice.pending ? "\u2026" : "i");
    status.replaceChildren(icon,
      h("div", { class: "agt-quiz-feedback-text" }, h("strong", {}, notice.message)));
  }

  function draw() {
    const question = q();
    title.textContent = model.get("title");
    kind.textContent = `Predict \u00b7 ${question.kind_label || ""}`;
    const parts = [h("p", { class: "agt-quiz-prompt", id: `${uid}-prompt` }, inline(question.prompt))];
    if (question.code) parts.push(h("pre", { class: "agt-quiz-code" }, h("code", {}, question.code)));
    const choice = { single: "radio", multiple: "checkbox" }[question.kind];
    parts.push(choice ? options(question, choice) : box(question));
    body.replaceChildren(...parts);
    button.disabled = done();
    button.textContent = done() ? "Predicted" : "Check my prediction";
    drawStatus();
  }

  function onOutcome() {
    const hadFocus = el.contains(document.activeElement);
    clearTimeout(waiting);
    notice = null;
    draw();
    if (hadFocus) status.focus();
  }

  function onMessage(msg) {  // Python's refusals (a malformed answer); the verdict itself arrives as `outcome`
    if (!msg || msg.type !== "feedback" || msg.valid !== false || done()) return;
    clearTimeout(waiting);
    notice = { message: msg.message };
    drawStatus();
  }

  model.on("change:outcome", onOutcome);
  model.on("change:question", draw);
  model.on("msg:custom", onMessage);
  draw();
  return () => {
    clearTimeout(waiting);
    model.off("change:outcome", onOutcome);
    model.off("change:question", draw);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
