// Small DOM helpers the page's modules share.

// The first element matching `sel` under `root`.
export const $ = (sel, root = document) => root.querySelector(sel);

// An HTML element: `class`, `onEVENT` handlers and attributes from `attrs`
// (false, null and undefined leave an attribute out), then the children
// (nested arrays flattened, null and undefined skipped).
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}
