// Dominoes drawn as SVG: a rounded tile, a dividing line and real pips.
// One unit is half a tile: a tile lying along x is 2 x 1 units.

import { tileWords } from "./speech.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

// Pip positions on a 3 x 3 grid (0 top-left ... 8 bottom-right) for 0-9.
const PIPS = {
  0: [], 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8], 7: [0, 2, 3, 4, 5, 6, 8], 8: [0, 1, 2, 3, 5, 6, 7, 8],
  9: [0, 1, 2, 3, 4, 5, 6, 7, 8],
};

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// One half (a unit square at x, y) showing `value`.
function half(g, x, y, value, rotated) {
  const pips = PIPS[value];
  if (pips === undefined) {  // sets beyond double-9: the number
    const t = el("text", { x: x + 0.5, y: y + 0.5, class: "pipnum", "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": 0.55 }, g);
    t.textContent = String(value);
    return;
  }
  for (const p of pips) {
    let row = Math.floor(p / 3), col = p % 3;
    if (rotated) [row, col] = [col, 2 - row];  // keep the 2, 3 and 6 diagonals natural
    el("circle", { cx: x + 0.22 + col * 0.28, cy: y + 0.22 + row * 0.28, r: 0.085, class: "pip" }, g);
  }
}

// A tile with its top-left corner at (x, y); horizontal: `first` left, `second` right;
// vertical: `first` on top.
export function tile(parent, x, y, horizontal, first, second, cls = "") {
  const g = el("g", { class: `tile ${cls}`.trim() }, parent);
  const w = horizontal ? 2 : 1, h = horizontal ? 1 : 2;
  el("rect", { x: x + 0.03, y: y + 0.03, width: w - 0.06, height: h - 0.06, rx: 0.14, class: "face" }, g);
  if (horizontal) {
    el("line", { x1: x + 1, y1: y + 0.15, x2: x + 1, y2: y + 0.85, class: "bar" }, g);
    half(g, x, y, first, true);
    half(g, x + 1, y, second, true);
  } else {
    el("line", { x1: x + 0.15, y1: y + 1, x2: x + 0.85, y2: y + 1, class: "bar" }, g);
    half(g, x, y, first, false);
    half(g, x, y + 1, second, false);
  }
  return g;
}

// A standalone SVG of one tile (for the hand, tables and lists).
export function tileSvg(a, b, { horizontal = false, cls = "", title = "", hidden = false } = {}) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", horizontal ? "0 0 2 1" : "0 0 1 2");
  svg.setAttribute("class", `domino ${horizontal ? "h" : "v"} ${cls}`.trim());
  if (hidden) svg.setAttribute("aria-hidden", "true");  // its button names it
  else {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", title || tileWords(a, b));
  }
  tile(svg, 0, 0, horizontal, a, b);
  return svg;
}
