// The table drawn as an SVG: the layout's tiles and, when a tile is chosen, the ends it fits.

import { SVG_NS, el, tile } from "./tiles.js";
import { computeLayout } from "./layout.js";
import { h } from "./dom.js";
import { nameWords, armWords, pipWord } from "./speech.js";

// How many half-tile units fit across `px` pixels (a tile is about 56 px long).
function unitsFor(px, unit = 28) { return Math.max(4, Math.floor(px / unit / 2) - 1); }

// A drop target is at least this many CSS pixels a side (a finger is about 44 px wide:
// a few more, so rounding never takes one below it), and this far from the next one.
export const TARGET_PX = 48;
const GAP_PX = 4;
const MAX_SCALE = 38;  // px per unit: never draw tiles bigger than about 76 px
const PAD = 0.3;       // units of felt around everything drawn

function overlap(a, b, gap) {
  const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) + gap;
  const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) + gap;
  return ox > 1e-6 && oy > 1e-6 ? { ox, oy } : null;
}

// Every open end's drop target: the place its next tile would take, grown to `min`
// units a side (away from the layout along the end's direction, evenly across it),
// then pushed apart, pair by pair along the shorter way out, until no two targets
// come within `gap` of each other.  The spinner's four ends included.
export function targetRects(ends, min, gap, tiles = []) {
  const covered = (r) => tiles.reduce((sum, t) => {
    const o = overlap(r, t, 0);
    return sum + (o ? o.ox * o.oy : 0);
  }, 0);
  const list = Object.values(ends).map((e) => {
    const w = Math.max(e.w, min), h = Math.max(e.h, min);
    const dir = e.dir || [0, 0];
    // across the end's direction: centred, or flush with either side, whichever covers
    // the least of the tiles laid
    const xs = [e.x - (w - e.w) / 2, e.x, e.x + e.w - w];
    const ys = [e.y - (h - e.h) / 2, e.y, e.y + e.h - h];
    if (dir[0] > 0) xs.splice(0, 3, e.x); else if (dir[0] < 0) xs.splice(0, 3, e.x + e.w - w);
    if (dir[1] > 0) ys.splice(0, 3, e.y); else if (dir[1] < 0) ys.splice(0, 3, e.y + e.h - h);
    let best = null;
    for (const x of xs) {
      for (const y of ys) {
        const r = { name: e.name, x, y, w, h };
        const c = covered(r);
        if (!best || c < best.c - 1e-9) best = { r, c };
      }
    }
    return best.r;
  });
  for (let round = 0; round < 100; round++) {
    let moved = false;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i], b = list[j];
        const o = overlap(a, b, gap);
        if (!o) continue;
        moved = true;
        if (o.ox <= o.oy) {
          const s = a.x + a.w / 2 <= b.x + b.w / 2 ? 1 : -1;
          a.x -= (s * o.ox) / 2; b.x += (s * o.ox) / 2;
        } else {
          const s = a.y + a.h / 2 <= b.y + b.h / 2 ? 1 : -1;
          a.y -= (s * o.oy) / 2; b.y += (s * o.oy) / 2;
        }
      }
    }
    if (!moved) break;
  }
  return Object.fromEntries(list.map((r) => [r.name, r]));
}

function boxOf(rects) {
  if (!rects.length) return { x: -3, y: -2, w: 6, h: 4 };
  const x0 = Math.min(...rects.map((r) => r.x)) - PAD, y0 = Math.min(...rects.map((r) => r.y)) - PAD;
  const x1 = Math.max(...rects.map((r) => r.x + r.w)) + PAD, y1 = Math.max(...rects.map((r) => r.y + r.h)) + PAD;
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

// The targets and the view box for a board of `w` x `h` pixels: the targets take
// TARGET_PX at the scale the whole (targets included) is drawn at.  Every end gets
// its target's room whether or not a tile is chosen, so choosing one never moves
// the layout.
function fit(placed, ends, w, h) {
  const scaleOf = (box) => Math.min(w / box.w, h / box.h, MAX_SCALE);
  const fixed = placed.concat(Object.values(ends));
  let scale = scaleOf(boxOf(fixed));
  let targets = {}, box = boxOf(fixed);
  for (let k = 0; k < 8; k++) {
    targets = targetRects(ends, TARGET_PX / scale, GAP_PX / scale, placed);
    box = boxOf(fixed.concat(Object.values(targets)));
    const drawn = scaleOf(box);
    if (drawn >= scale * 0.999) return { targets, box, scale: drawn };
    scale = drawn;
  }
  return { targets, box, scale: scaleOf(box) };
}

function innerSize(container) {
  const cs = getComputedStyle(container);
  const px = (v) => parseFloat(v) || 0;
  const w = container.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight);
  const ht = container.clientHeight - px(cs.paddingTop) - px(cs.paddingBottom);
  return { w: w > 0 ? w : 800, h: ht > 0 ? ht : 420 };
}

export function drawBoard(container, layout, { targets = [], onTarget = null, label = null } = {}) {
  const size = innerSize(container);
  const maxX = unitsFor(size.w);
  const maxY = Math.max(3, Math.min(7, unitsFor(size.h * 1.1)));
  const { placed, ends } = computeLayout(layout, { maxX, maxY });
  if (!placed.length) {  // a caption in the page's own text, wrapped to the board's width
    container.replaceChildren(h("p", { class: "board-empty" }, "The table is empty: the lead opens it."));
    return { ends, targets: {} };
  }
  const fitted = fit(placed, ends, size.w, size.h);
  const { box, scale } = fitted;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "board-svg");
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  // a group: the tiles are pictures (hidden), the ends a tile may go to are buttons
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", label || `the table: ${placed.length} tiles`);
  svg.style.maxWidth = `${box.w * MAX_SCALE}px`;
  svg.style.maxHeight = `${box.h * MAX_SCALE}px`;
  for (const p of placed) {
    const cls = [p.spinner ? "spinner" : "", p.last ? "last" : "", p.double ? "double" : ""].join(" ");
    const g = tile(svg, p.x, p.y, p.horizontal, p.first, p.second, cls);
    g.dataset.arm = p.arm;
    g.setAttribute("aria-hidden", "true");
  }
  const offered = new Set(targets.map((t) => t.arm));
  for (const [name, end] of Object.entries(ends)) {
    if (offered.has(name)) continue;  // its target names it
    const lbl = el("text", { x: end.x + end.w / 2, y: end.y + end.h / 2, class: "end-label",
      "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.42, "aria-hidden": "true" }, svg);
    lbl.textContent = `${name} ${end.pip}`;
  }
  const font = Math.max(0.4, 14 / scale);
  for (const target of targets) {
    const r = fitted.targets[target.arm];
    if (!r) continue;
    const words = `play ${nameWords(target.tile)} on the ${armWords(target.arm)} end, at ${pipWord(target.pip)}` +
      (target.points ? `, scores ${target.points}` : "");
    const g = el("g", { class: "target", tabindex: "0", role: "button",
      "aria-label": words, "data-move": target.move, "data-arm": target.arm }, svg);
    el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: 0.14 }, g);
    // "W +15" on one line when it fits at the target's font, else "W" over "+15"
    const one = target.points ? `${target.arm} +${target.points}` : target.arm;
    const fits = (s, f) => s.length * f * 0.72 <= r.w * 0.9;
    const lines = fits(one, font) || !target.points ? [one] : [target.arm, `+${target.points}`];
    const size = Math.min(font, r.h * (lines.length > 1 ? 0.36 : 0.45),
      ...lines.map((s) => (r.w * 0.9) / (s.length * 0.72)));
    lines.forEach((s, i) => {
      const t = el("text", { x: r.x + r.w / 2, y: r.y + r.h / 2 + (i - (lines.length - 1) / 2) * size * 1.1,
        "text-anchor": "middle", "dominant-baseline": "central", "font-size": size }, g);
      t.textContent = s;
    });
    if (onTarget) {
      g.addEventListener("click", () => onTarget(target));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onTarget(target); }
      });
    }
  }
  container.replaceChildren(svg);
  return { ends, targets: fitted.targets };
}
