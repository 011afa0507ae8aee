// The table drawn as an SVG: the layout's tiles and, when a tile is chosen, the ends it fits.

import { SVG_NS, el, tile } from "./tiles.js";
import { computeLayout } from "./layout.js";

// How many half-tile units fit across `px` pixels (a tile is about 56 px long).
function unitsFor(px, unit = 28) { return Math.max(4, Math.floor(px / unit / 2) - 1); }

export function drawBoard(container, layout, { targets = [], onTarget = null, count = null } = {}) {
  const rect = container.getBoundingClientRect();
  const maxX = unitsFor(rect.width || 800);
  const maxY = Math.max(3, Math.min(7, unitsFor((rect.height || 420) * 1.1)));
  const { placed, ends, box } = computeLayout(layout, { maxX, maxY });
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "board-svg");
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `the layout: ${placed.length} tiles`);
  // never draw tiles bigger than about 76 px
  svg.style.maxWidth = `${box.w * 38}px`;
  svg.style.maxHeight = `${box.h * 38}px`;
  if (!placed.length) {
    const t = el("text", { x: 0, y: 0, "text-anchor": "middle", class: "board-empty", "font-size": 0.5 }, svg);
    t.textContent = "the table is empty: the lead opens it";
  }
  for (const p of placed) {
    const cls = [p.spinner ? "spinner" : "", p.last ? "last" : "", p.double ? "double" : ""].join(" ");
    const g = tile(svg, p.x, p.y, p.horizontal, p.first, p.second, cls);
    g.dataset.arm = p.arm;
  }
  for (const [name, end] of Object.entries(ends)) {
    const lbl = el("text", { x: end.x + end.w / 2, y: end.y + end.h / 2, class: "end-label",
      "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.42 }, svg);
    lbl.textContent = `${name} ${end.pip}`;
  }
  for (const target of targets) {
    const end = ends[target.arm];
    if (!end) continue;
    const g = el("g", { class: "target", tabindex: "0", role: "button",
      "aria-label": `play ${target.move}`, "data-move": target.move, "data-arm": target.arm }, svg);
    el("rect", { x: end.x + 0.04, y: end.y + 0.04, width: end.w - 0.08, height: end.h - 0.08, rx: 0.14 }, g);
    const t = el("text", { x: end.x + end.w / 2, y: end.y + end.h / 2, "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": 0.4 }, g);
    t.textContent = target.points ? `${target.arm} +${target.points}` : target.arm;
    if (onTarget) {
      g.addEventListener("click", () => onTarget(target));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") onTarget(target); });
    }
  }
  container.replaceChildren(svg);
  return { ends };
}
