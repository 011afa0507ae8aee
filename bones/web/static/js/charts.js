// Charts of a `bones simulate --json` report (and `bones compare --json`), drawn as SVG.
//
// Every chart is W user units wide with its text in CSS pixels of the body's size:
// its column is at least W pixels wide (style.css), so the text is never drawn
// smaller than the page's own.  Nothing here loads anything: the report is all.

import { SVG_NS, el } from "./tiles.js";

const W = 340;           // a chart's width: fits a 360 px phone
const FONT = 16;         // the body's size
const LINE = 22;         // a line of text
const COLORS = ["#3f7f5a", "#c9731c"];  // the first and the second variant

function svgBox(h, label, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${h}`);
  svg.setAttribute("class", `chart ${cls}`.trim());
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  return svg;
}

function text(parent, x, y, s, cls = "", anchor = "start") {
  const t = el("text", { x, y, class: cls, "text-anchor": anchor }, parent);
  t.textContent = s;
  return t;
}

function tip(node, s) {
  const t = document.createElementNS(SVG_NS, "title");
  t.textContent = s;
  node.appendChild(t);
}

const fmt = (v, d = 2) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(d));
const signed = (s) => (s.startsWith("-") ? `−${s.slice(1)}` : s === "0" || /^0\.?0*$/.test(s) ? s : `+${s}`);

// The least "nice" number (1, 2, 2.5 or 5 times a power of ten) at or above v.
function niceCeil(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v - 1e-12) return m * p;
  return 10 * p;
}

// A wrapped title of at most two lines; returns the y below it.
function title(svg, s) {
  const words = s.split(" ");
  const lines = [""];
  for (const w of words) {
    const cur = lines[lines.length - 1];
    if ((cur + " " + w).trim().length * FONT * 0.55 > W - 8 && cur) lines.push(w);
    else lines[lines.length - 1] = (cur + " " + w).trim();
  }
  lines.forEach((l, i) => text(svg, 4, 20 + i * LINE, l, "chart-title"));
  return 20 + (lines.length - 1) * LINE + 12;
}

// Horizontal bars with 95% intervals on one shared scale (rows of like things:
// bots' win rates, seats' win rates): rows of {label, value, lo, hi}.  Each row is
// its label and value on one line and its bar under it; the axis is at the bottom.
export function intervalBars(heading, rows, { percent = false, ref = null } = {}) {
  const rowH = LINE + 20, left = 8, right = W - 12;
  const svg = svgBox(0, heading, "intervals");
  const y0 = title(svg, heading);
  const h = y0 + rows.length * rowH + 34;
  svg.setAttribute("viewBox", `0 0 ${W} ${h}`);
  const vals = rows.flatMap((r) => [r.value, r.lo ?? r.value, r.hi ?? r.value]);
  const lo = Math.min(0, ...vals, ref ?? 0);
  const hi = Math.max(...vals, ref ?? 0, 1e-9);
  const x = (v) => left + ((v - lo) / (hi - lo || 1)) * (right - left);
  const show = (v) => (percent ? `${(v * 100).toFixed(1)}%` : fmt(v));
  rows.forEach((r, i) => {
    const y = y0 + i * rowH;
    const g = el("g", { class: "row", "data-label": r.label }, svg);
    text(g, left, y + FONT, r.label, "chart-label");
    text(g, right, y + FONT, show(r.value), "chart-value", "end");
    const by = y + LINE + 2;
    const x0 = x(Math.min(0, r.value)), x1 = x(Math.max(0, r.value));
    const bar = el("rect", { x: x0, y: by, width: Math.max(1, x1 - x0), height: 12, class: "bar" }, g);
    tip(bar, r.lo !== undefined ? `${r.label}: ${show(r.value)} [${show(r.lo)}, ${show(r.hi)}]` : `${r.label}: ${show(r.value)}`);
    if (r.lo !== undefined && r.hi !== undefined) {
      el("line", { x1: x(r.lo), x2: x(r.hi), y1: by + 6, y2: by + 6, class: "whisker" }, g);
      el("line", { x1: x(r.lo), x2: x(r.lo), y1: by + 1, y2: by + 11, class: "whisker" }, g);
      el("line", { x1: x(r.hi), x2: x(r.hi), y1: by + 1, y2: by + 11, class: "whisker" }, g);
    }
  });
  const base = y0 + rows.length * rowH;
  const axis = el("g", { class: "axis" }, svg);
  el("line", { x1: x(0), x2: x(0), y1: y0, y2: base, class: "axis-line" }, axis);
  el("line", { x1: left, x2: right, y1: base, y2: base, class: "axis-line" }, axis);
  const wide = (str) => str.length * FONT * 0.56;  // a label's width, about
  const refText = ref === null ? "" : percent ? `fair ${(ref * 100).toFixed(0)}%` : `${ref}`;
  const clear = (a, b) => ref === null || b < x(ref) - wide(refText) / 2 - 6 || a > x(ref) + wide(refText) / 2 + 6;
  if (clear(left, left + wide(show(lo)))) text(axis, left, base + FONT + 4, show(lo), "chart-tick", "start");
  if (clear(right - wide(show(hi)), right)) text(axis, right, base + FONT + 4, show(hi), "chart-tick", "end");
  if (ref !== null) {
    el("line", { x1: x(ref), x2: x(ref), y1: y0, y2: base, class: "ref" }, svg);
    text(axis, x(ref), base + FONT + 4, refText, "chart-note", "middle");
  } else if (lo < 0 && x(0) - left > 48 && right - x(0) > 48) {
    text(axis, x(0), base + FONT + 4, "0", "chart-tick", "middle");
  }
  return svg;
}

// The measures of a comparison's difference, each with its unit and how to scale it.
export function differenceMeasures(report) {
  const d = report.compare.difference;
  const pp = { unit: "pp", scale: 100, unitText: "percentage points" };
  const rows = [
    { key: "moves_per_hand", label: "moves per hand", unit: "moves", scale: 1, ...d.moves_per_hand },
    report.mode === "hands" ? null
      : { key: "hands_per_game", label: "hands per match", unit: "hands", scale: 1, ...d.hands_per_game },
    { key: "leader_win_rate", label: "hand leader's win rate", ...pp, ...d.leader_win_rate },
    { key: "blocked_share", label: "blocked hands", ...pp, ...d.blocked_share },
    d.margin ? { key: "margin", label: "winning margin", unit: "points", scale: 1, ...d.margin } : null,
  ];
  if (d.bots && d.bots.length > 1) {
    for (const b of d.bots) rows.push({ key: `win_rate:${b.bot}`, label: `${b.bot}'s win rate`, ...pp, ...b.win_rate });
  }
  return rows.filter(Boolean);
}

// The difference of each measure (first − second), each in its own panel with its
// own axis, ticks and unit: a few points of win rate read as plainly as a few moves.
// With `diverging: false`, plain measures (not differences) on axes from 0.
export function differenceChart(heading, measures, { diverging = true } = {}) {
  const panelH = LINE * 2 + 40, left = 14, right = W - 14;
  const svg = svgBox(0, heading, diverging ? "difference" : "measures");
  const sign = diverging ? signed : (t) => t;
  const y0 = title(svg, heading);
  const h = y0 + measures.length * panelH + 4;
  svg.setAttribute("viewBox", `0 0 ${W} ${h}`);
  measures.forEach((m, i) => {
    const y = y0 + i * panelH;
    const s = (v) => v * m.scale;
    const span = niceCeil(Math.max(Math.abs(s(m.value)), Math.abs(s(m.lo ?? 0)), Math.abs(s(m.hi ?? 0))));
    const from = diverging ? -span : 0;
    const x = (v) => left + ((v - from) / (span - from)) * (right - left);
    const d = m.scale === 1 ? 2 : 1;
    const g = el("g", { class: "measure", "data-measure": m.key, "data-unit": m.unit, "data-span": span }, svg);
    if (i % 2 === 1) el("rect", { x: 0, y: y - 4, width: W, height: panelH, class: "band" }, g);
    text(g, 4, y + FONT, m.label, "chart-label");
    const v = s(m.value);
    text(g, W - 4, y + FONT, `${sign(fmt(v, d))} ${m.unit}`, "chart-value", "end");
    const by = y + LINE + 4;
    const x0 = x(Math.min(0, v)), x1 = x(Math.max(0, v));
    const bar = el("rect", { x: x0, y: by, width: Math.max(1.5, x1 - x0), height: 12, class: "bar" }, g);
    tip(bar, `${m.label}: ${sign(fmt(v, d))} ${m.unitText || m.unit}` +
      (m.lo !== undefined ? `, 95% interval [${fmt(s(m.lo), d)}, ${fmt(s(m.hi), d)}]` : ""));
    if (m.lo !== undefined && m.hi !== undefined) {
      el("line", { x1: x(s(m.lo)), x2: x(s(m.hi)), y1: by + 6, y2: by + 6, class: "whisker" }, g);
      el("line", { x1: x(s(m.lo)), x2: x(s(m.lo)), y1: by + 1, y2: by + 11, class: "whisker" }, g);
      el("line", { x1: x(s(m.hi)), x2: x(s(m.hi)), y1: by + 1, y2: by + 11, class: "whisker" }, g);
    }
    // this measure's own axis: −span, 0, +span in its unit
    const axis = el("g", { class: "axis", "data-unit": m.unit }, g);
    const ay = by + 18;
    el("line", { x1: left, x2: right, y1: ay, y2: ay, class: "axis-line" }, axis);
    el("line", { x1: x(0), x2: x(0), y1: by - 4, y2: ay + 4, class: "axis-line zero" }, axis);
    const ticks = diverging ? [[-span, "start"], [0, "middle"], [span, "end"]] : [[0, "start"], [span, "end"]];
    for (const [t, anchor] of ticks) {
      el("line", { x1: x(t), x2: x(t), y1: ay, y2: ay + 4, class: "axis-line" }, axis);
      const label = t === 0 ? "0" : `${sign(fmt(t, d).replace(/\.0+$/, ""))} ${m.unit}`;
      text(axis, x(t), ay + FONT + 4, label, "chart-tick", anchor).dataset.value = String(t);
    }
  });
  return svg;
}

// The bins several distributions ({key: count}) share: each key seen when there
// are few, else equal ranges of whole numbers.
export function sharedBins(series, most = 14) {
  const keys = [...new Set(series.flatMap((c) => Object.keys(c).map(Number)))].sort((a, b) => a - b);
  if (keys.length <= most) return keys.map((k) => ({ lo: k, hi: k, label: String(k) }));
  const first = keys[0], last = keys[keys.length - 1];
  const width = Math.ceil((last - first + 1) / most);
  const bins = [];
  for (let lo = first; lo <= last; lo += width) {
    const hi = Math.min(last, lo + width - 1);
    bins.push({ lo, hi, label: lo === hi ? String(lo) : `${lo}–${hi}` });
  }
  return bins;
}

// Histograms of one measure for one or two variants on the same x axis and the same
// bins: each bin's bars side by side (as a share of each variant's own total, so
// runs of different sizes compare), its tick label centred under them.
export function histogram(heading, series, { xlabel = "" } = {}) {
  const list = Array.isArray(series) ? series : [{ name: "", counts: series }];
  const bins = sharedBins(list.map((s) => s.counts));
  const left = 42, right = W - 6, plotH = 120;
  const svg = svgBox(0, heading, "histogram");
  let y0 = title(svg, heading);
  if (list.length > 1) {  // the legend
    let lx = 4;
    list.forEach((s, i) => {
      el("rect", { x: lx, y: y0 - 2, width: 14, height: 14, class: `bar s${i}`, fill: COLORS[i] }, svg);
      const t = text(svg, lx + 20, y0 + 11, s.name, "chart-label legend");
      lx += 28 + s.name.length * FONT * 0.55;
      t.dataset.series = String(i);
    });
    y0 += LINE + 4;
  }
  const base = y0 + plotH;
  const h = base + LINE * 2 + 8;
  svg.setAttribute("viewBox", `0 0 ${W} ${h}`);
  svg.dataset.bins = bins.map((b) => b.label).join(" ");
  if (!bins.length) {
    text(svg, W / 2, y0 + plotH / 2, "no data", "chart-note", "middle");
    return svg;
  }
  const totals = list.map((s) => Object.values(s.counts).reduce((a, b) => a + b, 0) || 1);
  const share = list.map((s, i) => bins.map((b) => Object.entries(s.counts)
    .filter(([k]) => Number(k) >= b.lo && Number(k) <= b.hi).reduce((a, [, c]) => a + c, 0) / totals[i]));
  const top = Math.max(...share.flat(), 1e-9);
  const slot = (right - left) / bins.length;
  const barW = Math.max(1, (slot - 4) / list.length);
  const every = Math.max(1, Math.ceil(bins.length / Math.floor((right - left) / 34)));
  bins.forEach((b, j) => {
    const g = el("g", { class: "bin", "data-bin": b.label, "data-x0": left + j * slot, "data-x1": left + (j + 1) * slot }, svg);
    list.forEach((s, i) => {
      const bh = (share[i][j] / top) * plotH;
      const r = el("rect", { x: left + j * slot + 2 + i * barW, y: base - bh, width: Math.max(1, barW - 1),
        height: bh, class: `bar s${i}`, fill: COLORS[i], "data-series": i }, g);
      tip(r, `${s.name ? `${s.name}, ` : ""}${b.label}: ${(share[i][j] * 100).toFixed(1)}%`);
    });
    if (j % every === 0) text(g, left + (j + 0.5) * slot, base + FONT + 4, b.label, "chart-tick", "middle");
  });
  const axis = el("g", { class: "axis" }, svg);
  el("line", { x1: left, x2: right, y1: base, y2: base, class: "axis-line" }, axis);
  el("line", { x1: left, x2: left, y1: y0, y2: base, class: "axis-line" }, axis);
  text(axis, left - 4, y0 + FONT - 4, `${Math.round(top * 100)}%`, "chart-tick", "end");
  text(axis, left - 4, base, "0", "chart-tick", "end");
  text(axis, (left + right) / 2, base + FONT * 2 + 8, xlabel, "chart-note", "middle");
  return svg;
}

// Every chart of one table's report (`histograms: false` leaves its distributions
// out, for a comparison that draws them for both variants at once).
export function reportCharts(report, { histograms = true } = {}) {
  const out = [];
  if (report.bots.length > 1) {
    out.push(intervalBars("Win rate by bot (95% interval)", report.bots.map((b) => ({
      label: b.bot, value: b.win_rate.value, lo: b.win_rate.lo, hi: b.win_rate.hi })), { percent: true }));
  }
  out.push(intervalBars("Points per hand: in play and at settlement", report.bots.flatMap((b) => [
    { label: `${b.bot}, in play`, ...b.play_points_per_hand },
    { label: `${b.bot}, at settlement`, ...b.settlement_points_per_hand }])));
  out.push(intervalBars("Win rate by seat, and the hand leader's", report.seats.map((s) => ({
    label: `seat ${s.seat}`, ...s.win_rate })).concat([{ label: "hand leader", ...report.leader.win_rate }]),
  { percent: true, ref: report.leader.fair_share }));
  out.push(differenceChart("Hand length (95% interval)", [
    { key: "moves_per_hand", label: "moves per hand", unit: "moves", scale: 1, ...report.moves_per_hand },
    ...(report.mode === "hands" ? []
      : [{ key: "hands_per_game", label: "hands per match", unit: "hands", scale: 1, ...report.hands_per_game }])],
  { diverging: false }));
  if (histograms) out.push(...distributions([{ name: report.variant.name, r: report }], report.mode));
  return out;
}

function distributions(tables, mode) {
  const pick = (f) => tables.map((t) => ({ name: t.name, counts: f(t.r) }));
  const out = [
    histogram("How often each count scored", pick((r) => r.scoring.counts), { xlabel: "count" }),
    histogram("Points of the scoring plays", pick((r) => r.scoring.points), { xlabel: "points" }),
  ];
  if (mode !== "hands") {
    out.push(histogram("Hands per match", pick((r) => r.hands_per_game_distribution), { xlabel: "hands" }));
  }
  return out;
}

// A comparison (`bones compare --json`): the differences, measure by measure, and
// the two variants' distributions on shared bins; then each variant's own charts.
export function compareCharts(report) {
  const a = report.variant.name, b = report.compare.b.variant.name;
  return {
    shared: [differenceChart(`Difference: ${a} − ${b} (95% interval)`, differenceMeasures(report)),
      ...distributions([{ name: a, r: report }, { name: b, r: report.compare.b }], report.mode)],
    first: reportCharts(report, { histograms: false }),
    second: reportCharts(report.compare.b, { histograms: false }),
  };
}
