// Charts of a `bones simulate --json` report, drawn as SVG.

import { SVG_NS, el } from "./tiles.js";

function svgBox(w, h, label) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  return svg;
}

function text(svg, x, y, s, cls = "", anchor = "start") {
  const t = el("text", { x, y, class: cls, "text-anchor": anchor }, svg);
  t.textContent = s;
  return t;
}

const fmt = (v, d = 2) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(d));

// Horizontal bars with 95% intervals: rows of {label, value, lo, hi}.
export function intervalBars(title, rows, { percent = false, ref = null } = {}) {
  const w = 460, rowH = 26, top = 30, left = 150, right = 60;
  const h = top + rows.length * rowH + 20;
  const svg = svgBox(w, h, title);
  text(svg, 4, 18, title, "chart-title");
  const lo = Math.min(0, ...rows.map((r) => r.lo ?? r.value), ref ?? 0);
  const hi = Math.max(...rows.map((r) => r.hi ?? r.value), ref ?? 0, 1e-9);
  const x = (v) => left + ((v - lo) / (hi - lo || 1)) * (w - left - right);
  el("line", { x1: x(0), x2: x(0), y1: top - 4, y2: h - 14, class: "axis" }, svg);
  if (ref !== null) {
    el("line", { x1: x(ref), x2: x(ref), y1: top - 4, y2: h - 14, class: "ref" }, svg);
    text(svg, x(ref), h - 3, percent ? `fair ${(ref * 100).toFixed(0)}%` : `${ref}`, "chart-note", "middle");
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    text(svg, left - 6, y + 15, r.label, "chart-label", "end");
    const x0 = x(Math.min(0, r.value)), x1 = x(Math.max(0, r.value));
    el("rect", { x: x0, y: y + 5, width: Math.max(1, x1 - x0), height: rowH - 10, class: "bar" }, svg);
    if (r.lo !== undefined && r.hi !== undefined) {
      el("line", { x1: x(r.lo), x2: x(r.hi), y1: y + rowH / 2, y2: y + rowH / 2, class: "whisker" }, svg);
      el("line", { x1: x(r.lo), x2: x(r.lo), y1: y + 8, y2: y + rowH - 8, class: "whisker" }, svg);
      el("line", { x1: x(r.hi), x2: x(r.hi), y1: y + 8, y2: y + rowH - 8, class: "whisker" }, svg);
    }
    text(svg, w - right + 4, y + 15, percent ? `${(r.value * 100).toFixed(1)}%` : fmt(r.value), "chart-value");
  });
  return svg;
}

// A histogram of {key: count}.
export function histogram(title, counts, { xlabel = "" } = {}) {
  const keys = Object.keys(counts).map(Number).sort((a, b) => a - b);
  const w = 460, h = 190, left = 40, bottom = 34, top = 28;
  const svg = svgBox(w, h, title);
  text(svg, 4, 18, title, "chart-title");
  if (!keys.length) {
    text(svg, w / 2, h / 2, "no data", "chart-note", "middle");
    return svg;
  }
  const total = keys.reduce((s, k) => s + counts[k], 0);
  const max = Math.max(...keys.map((k) => counts[k]));
  const span = keys[keys.length - 1] - keys[0] + 1;
  const slot = (w - left - 10) / Math.min(span, 80);
  keys.forEach((k) => {
    const i = k - keys[0];
    if (i >= 80) return;
    const bh = (counts[k] / max) * (h - top - bottom);
    const r = el("rect", { x: left + i * slot + 1, y: h - bottom - bh, width: Math.max(1, slot - 2),
      height: bh, class: "bar" }, svg);
    const tip = document.createElementNS(SVG_NS, "title");
    tip.textContent = `${k}: ${counts[k]} (${((counts[k] / total) * 100).toFixed(1)}%)`;
    r.appendChild(tip);
  });
  el("line", { x1: left, x2: w - 10, y1: h - bottom, y2: h - bottom, class: "axis" }, svg);
  const step = Math.max(1, Math.ceil(Math.min(span, 80) / 12));
  for (let i = 0; i < Math.min(span, 80); i += step) {
    text(svg, left + i * slot + slot / 2, h - bottom + 14, String(keys[0] + i), "chart-tick", "middle");
  }
  text(svg, (w + left) / 2, h - 4, xlabel, "chart-note", "middle");
  text(svg, left - 4, top + 8, `${((max / total) * 100).toFixed(0)}%`, "chart-tick", "end");
  return svg;
}

// Every chart of one table's report.
export function reportCharts(report) {
  const out = [];
  if (report.bots.length > 1) {
    out.push(intervalBars("Win rate by bot (95% interval)", report.bots.map((b) => ({
      label: b.bot, value: b.win_rate.value, lo: b.win_rate.lo, hi: b.win_rate.hi })), { percent: true }));
  }
  out.push(intervalBars("Points per hand: in play and at settlement", report.bots.flatMap((b) => [
    { label: `${b.bot} play`, ...b.play_points_per_hand },
    { label: `${b.bot} settle`, ...b.settlement_points_per_hand }])));
  out.push(intervalBars("Win rate by seat, and the hand leader's", report.seats.map((s) => ({
    label: `seat ${s.seat}`, ...s.win_rate })).concat([{ label: "hand leader", ...report.leader.win_rate }]),
  { percent: true, ref: report.leader.fair_share }));
  out.push(intervalBars("Hand length", [
    { label: "moves per hand", ...report.moves_per_hand },
    ...(report.mode === "hands" ? [] : [{ label: "hands per match", ...report.hands_per_game }])]));
  out.push(histogram("Scoring counts (how often each count scored)", report.scoring.counts, { xlabel: "count" }));
  out.push(histogram("Points of the scoring plays", report.scoring.points, { xlabel: "points" }));
  if (report.mode !== "hands") {
    out.push(histogram("Hands per match", report.hands_per_game_distribution, { xlabel: "hands" }));
  }
  return out;
}
