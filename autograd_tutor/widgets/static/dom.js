// Shared by the quiz and Predict views (the widget prepends this file to their module): DOM helpers that
// build elements from text nodes, never from innerHTML.

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
  return el;
}

// Text with `code` spans: the only markup prompts use. Built from text nodes, never innerHTML.
function inline(text) {
  return String(text || "").split("`").map((part, i) => (i % 2 ? h("code", {}, part) : document.createTextNode(part)));
}


// An id prefix no other view on the page has: each widget may load its own copy of this module, so a counter
// in it would start again at 1 for every widget (two quizzes would share label targets).
function uniqueId(prefix) {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
