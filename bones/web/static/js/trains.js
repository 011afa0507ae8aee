// A train layout (Mexican Train, Chicken Foot) drawn as rows from the hub double.
//
// Input: the view's `trains` ({hub, hub_tile, hub_left, hub_binds, rows: [{target, who,
// kind, from, tiles: [{near, far, double, last}], open, started, marked, owes, binds,
// foot}], first_turn, markers}).  Each row is one train or arm: its name in the notation
// (T0, M, A3), whose it is, its marker, its tiles from the hub outwards (they wrap on a
// narrow screen), and at its end a slot that is the drop target of a chosen tile (a
// button at least 48 px a side, class "target" as the board's ends, so the drag and the
// keyboard treat both alike) or else shows the open end.

import { tileSvg } from "./tiles.js";
import { h } from "./dom.js";
import { nameWords, pipWord, tileWords } from "./speech.js";

// The words of a target: "seat 2's train T2", "the public train M", "arm A3", "the hub".
export function targetWords(name) {
  if (name === "H") return "the hub";
  if (name === "F") return "the chicken foot";
  if (/^M\d*$/.test(name)) return `the public train ${name}`;
  if (/^T\d+$/.test(name)) return `seat ${name.slice(1)}'s train ${name}`;
  if (/^A\d+$/.test(name)) return `arm ${name}`;
  return name;
}

function tileOf(t, cls = "") {
  const g = tileSvg(t.near, t.far, { horizontal: true, hidden: true });
  g.classList.add("train-tile");
  if (t.double) g.classList.add("double");
  if (t.last) g.classList.add("last");
  if (cls) g.classList.add(cls);
  return g;
}

function target(m, onTarget) {
  const words = `play ${nameWords(m.tile)} on ${targetWords(m.arm)}, at ${pipWord(m.pip)}`;
  const b = h("button", { type: "button", class: "target train-target", "data-move": m.move,
    "data-arm": m.arm, "aria-label": words, title: words }, m.arm);
  if (onTarget) b.addEventListener("click", () => onTarget(m));
  return b;
}

// What a row's end slot says when no tile is offered there.
function endText(row) {
  if (row.foot) return `closed: ${row.foot.left} toe${row.foot.left === 1 ? "" : "s"} (F)`;
  if (row.open < 0) return "closed";
  return `→ ${row.open}`;
}

// What must be served first, in words, or null.
export function nowWords(t) {
  if (!t.hub) return null;
  if (t.hub_binds) return `Every play goes against the hub (H): ${t.hub_left} more.`;
  const row = t.rows.find((r) => r.binds);
  if (row) return `The double on ${row.target} must be covered before any other play.`;
  const foot = t.rows.find((r) => r.foot && r.foot.binds);
  if (foot) return `The double that closed ${foot.target} takes ${foot.foot.left} more toe${foot.foot.left === 1 ? "" : "s"} (F) before any other play.`;
  return null;
}

// The table read train by train, for a screen reader.
export function trainsWords(view) {
  const t = view.trains;
  if (!t.hub) return `The table is empty: the holder of ${tileWords(t.hub_tile.a, t.hub_tile.b)} places it.`;
  const rows = t.rows.filter((r) => r.started || r.kind !== "arm").map((r) => {
    const whose = r.kind === "seat" ? `${r.who}'s train ${r.target}` : r.kind === "public" ? `public train ${r.target}` : `arm ${r.target}`;
    const state = r.open < 0 ? "closed" : r.started ? `${r.tiles.length} tile${r.tiles.length === 1 ? "" : "s"}, ends at ${pipWord(r.open)}` : "not started";
    return `${whose}: ${state}${r.marked ? ", marker on" : ""}${r.owes ? ", its double owes a cover" : ""}`;
  });
  const now = nowWords(t);
  return `Hub ${tileWords(t.hub.a, t.hub.b)}${t.hub_left ? `, takes ${t.hub_left} more` : ""}. ${rows.join("; ")}.${now ? ` ${now}` : ""}`;
}

// Draw the rows into `container` (the #board); `targets` are the legal moves of the chosen
// tile (each with its `arm`, the target's name).
export function drawTrains(container, view, { targets = [], onTarget = null } = {}) {
  const t = view.trains;
  container.classList.add("trains-board");
  const at = new Map(targets.map((m) => [m.arm, m]));
  if (!t.hub) {
    container.replaceChildren(h("p", { class: "board-empty" },
      `The table is empty: the holder of ${t.hub_tile.a}-${t.hub_tile.b} places it to open the round.`));
    return;
  }
  const hubRow = h("div", { class: `hub-row ${t.hub_binds ? "binds" : ""}` },
    h("span", { class: "train-name" }, "hub"),
    tileOf({ near: t.hub.a, far: t.hub.b, double: true, last: t.hub.last }, "hub-tile"),
    t.hub_left ? h("span", { class: "train-note" }, `takes ${t.hub_left} more (H)`) : null,
    at.has("H") ? target(at.get("H"), onTarget) : null);
  const rows = t.rows.map((r) => {
    const slot = at.has(r.target) ? target(at.get(r.target), onTarget)
      : r.foot && at.has("F") && r.foot.binds ? target(at.get("F"), onTarget)
        : h("span", { class: "train-end", "aria-hidden": "true" }, endText(r));
    const label = h("div", { class: "train-label" },
      h("b", { class: "train-name" }, r.target), " ", h("span", { class: "train-who" }, r.who),
      r.marked ? h("span", { class: "marker", title: "a marker: this train is open to every player" }, "marker") : null,
      r.owes ? h("span", { class: `owes ${r.binds ? "binds" : ""}` }, `double owes ${r.owes}`) : null,
      r.foot ? h("span", { class: `owes ${r.foot.binds ? "binds" : ""}` }, `foot: ${r.foot.left} toe${r.foot.left === 1 ? "" : "s"} owed`) : null,
      !r.started && r.open >= 0 ? h("span", { class: "train-note" }, "not started") : null);
    return h("li", { class: `train-row ${r.kind} ${r.marked ? "marked" : ""} ${r.binds || (r.foot && r.foot.binds) ? "binds" : ""}`,
      "data-target": r.target },
    label, h("div", { class: "train-line" }, ...r.tiles.map((x) => tileOf(x)), slot));
  });
  const now = nowWords(t);
  container.replaceChildren(h("div", { class: "trains", role: "group", "aria-label": trainsWords(view) },
    hubRow, h("ol", { class: "train-rows", "aria-label": "the trains" }, ...rows),
    now ? h("p", { class: "train-now" }, now) : null));
}
