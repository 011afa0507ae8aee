// The page: pick and read variants, write a house rule, play, watch simulations, replay.

import { call, host, hostKey, setHostKey, rememberSeat, seatKey, seatKeys } from "./api.js";
import { Table, analysisFigure, analysisGap } from "./game.js";
import { readWatchHash, showWatch, watchLinksCard } from "./watch.js";
import { presencePanel } from "./social.js";
import { reportCharts, compareCharts } from "./charts.js";
import { drawBoard } from "./board.js";
import { drawTrains } from "./trains.js";
import { tileSvg } from "./tiles.js";
import { $, h } from "./dom.js";
import { linksCard, linksOf, rememberLinks } from "./invite.js";
import { resetTurn } from "./signals.js";
import { botOptions } from "./bots.js";

const state = { variants: [], bots: [], offered: [], table: null, houseText: "", sim: null };
const main = () => $("#main");

function note(text, kind = "") {
  const n = $("#note");
  n.textContent = text;
  n.className = `note ${kind}`;
}

// ----------------------------------------------------------------- routing

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("host")) {
    setHostKey(params.get("host"));
    params.delete("host");
  }
  const watching = readWatchHash(params);  // a spectator's #watch=GAME&key=KEY
  if (watching) return watching;
  if (params.get("game") && params.get("key")) {
    rememberSeat(params.get("game"), Number(params.get("seat") || 0), params.get("key"));
    const id = params.get("game");
    history.replaceState(null, "", `#play=${id}`);  // the key leaves the address bar
    return { view: "play", id };
  }
  const rest = params.toString();
  if (location.hash.includes("host=")) history.replaceState(null, "", rest ? `#${rest}` : "#");
  for (const view of ["play", "rules", "house", "simulate", "replay", "saves"]) {
    if (params.has(view)) return { view, id: params.get(view) };
  }
  return { view: "new" };
}

async function route() {
  if (state.table) { state.table.stop(); state.table = null; }
  resetTurn();
  if (state.stopPresence) { state.stopPresence(); state.stopPresence = null; }
  const { view, id } = readHash();
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.view === view);
  note("");
  if (view === "play" && id) return showGame(id);
  if (view === "watch" && id) { state.table = showWatch(main(), id); return state.table; }
  if (view === "rules") return showRules(id);
  if (view === "house") return showHouse();
  if (view === "simulate") return showSimulate(id);
  if (view === "replay") return showReplay(id);
  if (view === "saves") return showSaves();
  return showNew();
}

window.addEventListener("hashchange", route);

// ----------------------------------------------------------------- new game

function variantOptions(selected, { house = true } = {}) {
  const opts = state.variants.map((v) => h("option", { value: v.name, selected: v.name === selected }, v.name));
  if (house && state.houseText) opts.push(h("option", { value: "@house", selected: selected === "@house" }, "my house rule (from the editor)"));
  return opts;
}

// The bots a seat may be given, as the server offers them (GET /api/bots, "offered":
// bones.web.offered; bots.js): the levels, then the others, each by its label and
// plain description, the technical name shown as a detail.
function offeredBots() {
  return state.offered.length ? state.offered
    : state.bots.map((b) => ({ bot: b.name, label: b.name, description: b.summary, detail: b.name, default: b.name === "search" }));
}

function botSelect(value = null, attrs = {}) {
  const offered = offeredBots();
  const pick = value || (offered.find((o) => o.default) || offered[0] || {}).bot;
  const about = h("span", { class: "bot-about muted" });
  const select = h("select", { class: "bot", "aria-label": "which bot", ...attrs },
    botOptions(offered, pick));
  const describe = () => {
    const o = offered.find((x) => x.bot === select.value);
    about.textContent = o ? o.description : "";
  };
  select.addEventListener("change", describe);
  describe();
  select.about = about;
  return select;
}

function needHost() {
  if (hostKey()) return false;
  main().append(h("p", { class: "error" }, "To create games, open the link `bones serve` printed ",
    "(it ends with #host=…). Friends join with the seat links the host gives them."));
  return true;
}

function variantRef(name) { return name === "@house" ? state.houseText : name; }

// The player counts a variant allows: a built-in's from the list, the house
// rule's as the server reads them from its text (never guessed).
async function playerCounts(name) {
  if (name !== "@house") {
    const x = state.variants.find((y) => y.name === name);
    return x ? x.players : [2];
  }
  if (state.houseCounts && state.houseCounts.text === state.houseText) return state.houseCounts.players;
  const r = await call("POST", "/api/validate", { body: { text: state.houseText } });
  const players = r.ok ? r.players : [];
  state.houseCounts = { text: state.houseText, players };
  return players;
}

// Fill a <select> with a variant's player counts, keeping the choice when it still fits.
async function fillCounts(select, name) {
  let counts = [];
  try { counts = await playerCounts(name); } catch (err) { note(err.message, "error"); }
  const keep = select.value;
  select.replaceChildren(...counts.map((n) => h("option", { value: n, selected: String(n) === keep }, `${n} players`)));
  if (!counts.length) note("the house rule has problems: check it on the House rule page", "error");
  return counts;
}

function showNew(preselect = "sniff") {
  const v = state.variants.find((x) => x.name === preselect) || state.variants[0];
  const players = h("select", { id: "players" });
  const seatsBox = h("div", { id: "seats-config" });
  const chosen = preselect === "@house" && state.houseText ? "@house" : (v ? v.name : "sniff");
  const variantSel = h("select", { id: "variant" }, variantOptions(chosen));
  const teams = h("input", { type: "checkbox", id: "teams" });
  const seed = h("input", { type: "number", id: "seed", min: "0", placeholder: "random" });
  const summary = h("p", { class: "muted", id: "variant-summary" });

  async function fillPlayers() {
    const x = state.variants.find((y) => y.name === variantSel.value);
    summary.textContent = x ? x.summary : "your house rule, as the editor holds it";
    await fillCounts(players, variantSel.value);
    fillSeats();
    players.dataset.ready = variantSel.value;  // for tests: the counts shown are this variant's
  }
  function fillSeats() {
    const n = Number(players.value);
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, k) => {
      const kind = h("select", { class: "kind", "data-seat": k },
        h("option", { value: "human", selected: k === 0 }, "a person"),
        h("option", { value: "bot", selected: k !== 0 }, "a bot"));
      const bot = botSelect(null, { "aria-label": `seat ${k}'s bot` });
      bot.hidden = bot.about.hidden = k === 0;
      kind.setAttribute("aria-label", `who sits in seat ${k}`);
      kind.addEventListener("change", () => { bot.hidden = bot.about.hidden = kind.value !== "bot"; });
      return h("div", { class: "seat-config" }, h("span", {}, `Seat ${k}: `), kind, bot, bot.about);
    }));
  }
  variantSel.addEventListener("change", fillPlayers);
  players.addEventListener("change", fillSeats);

  async function start(ev) {
    ev.preventDefault();
    const seats = [...seatsBox.querySelectorAll(".seat-config")].map((row) => {
      const kind = $(".kind", row).value;
      return kind === "human" ? { kind } : { kind, bot: $(".bot", row).value };
    });
    const body = { variant: variantRef(variantSel.value), players: Number(players.value), seats };
    if (teams.checked) body.teams = true;
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      const game = await host("POST", "/api/games", body);
      // this browser plays the first human seat; the others get their links
      const mine = game.seats[0];
      rememberSeat(game.id, mine.seat, mine.key);
      if (game.seats.length > 1) {
        rememberLinks(game.id, game.seats);  // the Invite button shows them again
        sessionStorage.setItem(`bones.fresh.${game.id}`, "1");
      }
      location.hash = `play=${game.id}`;
    } catch (err) {
      note(err.message, "error");
    }
  }

  main().replaceChildren(
    h("section", { class: "card new-game" },
      h("h1", {}, "Play dominoes"),
      h("form", { onsubmit: start },
        h("label", {}, "Variant ", variantSel), summary,
        h("div", { class: "row" }, h("label", {}, "Players ", players),
          h("label", {}, teams, " in two teams"), h("label", {}, "Seed ", seed)),
        h("fieldset", {}, h("legend", {}, "Who sits where"), seatsBox,
          h("p", { class: "muted" }, "Several people? Each gets a link to open on their own phone or computer.")),
        h("button", { class: "primary", id: "start" }, "Start the game"))),
    myGames());
  fillPlayers();
  needHost();
}

function myGames() {
  const games = Object.entries(seatKeys());
  if (!games.length) return h("span");
  return h("section", { class: "card" }, h("h2", {}, "Your games in this browser"),
    h("ul", {}, games.slice(-8).reverse().map(([id, s]) =>
      h("li", {}, h("a", { href: `#play=${id}` }, `game ${id}, seat ${s.seat}`)))));
}

// ----------------------------------------------------------------- a game

function showGame(id) {
  const root = h("section", { class: "game", id: "game" });
  // the seat links under a game just made (the Invite button shows them again later)
  const links = sessionStorage.getItem(`bones.fresh.${id}`) && hostKey() ? linksOf(id) : null;
  main().replaceChildren(root);
  if (links) main().append(linksCard(links));
  const spectators = watchLinksCard(id);  // the host's watch links
  if (spectators) main().append(spectators);
  state.table = new Table(root, id);
  state.table.start();
  if (hostKey()) state.stopPresence = presencePanel(main(), id, offeredBots());  // who is here (social.js)
  window.bonesTable = state.table;  // for tests and the curious
}

// ----------------------------------------------------------------- rules

async function showRules(name) {
  const list = h("div", { class: "variant-list" }, state.variants.map((v) =>
    h("a", { class: `variant-card ${v.name === name ? "active" : ""}`, href: `#rules=${v.name}` },
      h("b", {}, v.name), h("span", { class: "muted" }, ` ${v.players_text} · ${v.target}`),
      h("p", {}, v.summary))));
  const text = h("div", { class: "rules-text" });
  main().replaceChildren(h("section", { class: "rules" }, h("h1", {}, "The variants"), list, text));
  if (!name) return;
  try {
    const d = await call("GET", `/api/variants/${encodeURIComponent(name)}`);
    text.replaceChildren(h("h2", {}, d.name),
      h("div", { class: "row" }, h("a", { class: "button primary", href: "#", onclick: (e) => { e.preventDefault(); showNew(d.name); } }, `Play ${d.name}`),
        h("a", { class: "button", href: `#simulate=${d.name}` }, "Simulate")),
      h("pre", { id: "rules-pre" }, d.rules));
  } catch (err) { note(err.message, "error"); }
}

// ----------------------------------------------------------------- house rules

const EXAMPLE = `name: my-house-fives
extends: all-fives
summary: All Fives with six tiles each and a game to 150.
deal:
  hand_size: 6
match:
  points: 150
`;

function showHouse() {
  const area = h("textarea", { id: "house-text", spellcheck: "false", rows: 18, "aria-label": "the variant file" });
  area.value = state.houseText || EXAMPLE;
  const gutter = h("div", { class: "gutter", "aria-hidden": "true" });
  const problems = h("ul", { id: "problems", class: "problems" });
  const result = h("div", { id: "house-rules" });
  const file = h("input", { type: "file", accept: ".yaml,.yml,text/yaml", id: "house-file", "aria-label": "upload a variant file" });

  function lines(bad = new Set()) {
    const n = area.value.split("\n").length;
    gutter.replaceChildren(...Array.from({ length: n }, (_, i) =>
      h("div", { class: bad.has(i + 1) ? "bad" : "" }, String(i + 1))));
    gutter.scrollTop = area.scrollTop;
  }
  area.addEventListener("input", () => { state.houseText = area.value; lines(); });
  // (the player counts are read again from a changed text: playerCounts)
  area.addEventListener("scroll", () => { gutter.scrollTop = area.scrollTop; });
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    if (f.size > 64 * 1024) { note("that file is larger than 64 KiB: not a variant file", "error"); return; }
    area.value = await f.text();
    state.houseText = area.value;
    lines();
    check();
  });

  function goto(line) {
    const text = area.value.split("\n");
    const start = text.slice(0, line - 1).reduce((s, l) => s + l.length + 1, 0);
    area.focus();
    area.setSelectionRange(start, start + (text[line - 1] || "").length);
    area.scrollTop = Math.max(0, (line - 4) * 20);
  }

  async function check() {
    state.houseText = area.value;
    try {
      const r = await call("POST", "/api/validate", { body: { text: area.value } });
      const bad = new Set(r.problems.map((p) => p.line));
      lines(bad);
      if (r.ok) {
        state.houseCounts = { text: area.value, players: r.players };
        problems.replaceChildren(h("li", { class: "ok" }, `No problems: ${r.name}, for ${r.players.join(", ")} players.`));
        const d = await call("POST", "/api/rules", { body: { text: area.value } });
        result.replaceChildren(h("div", { class: "row" },
          h("button", { class: "primary", onclick: () => showNew("@house") }, "Play it"),
          h("a", { class: "button", href: "#simulate=@house" }, "Simulate it")),
          h("pre", {}, d.rules));
      } else {
        result.replaceChildren();
        problems.replaceChildren(...r.problems.map((p) => h("li", { class: "problem", "data-line": p.line },
          h("a", { href: "#", onclick: (e) => { e.preventDefault(); goto(p.line); } },
            p.line ? `line ${p.line}, column ${p.column}` : p.file),
          p.path ? h("code", {}, ` ${p.path}`) : null, `: ${p.message}`)));
      }
    } catch (err) { note(err.message, "error"); }
  }

  main().replaceChildren(h("section", { class: "house card" },
    h("h1", {}, "A house rule"),
    h("p", { class: "muted" }, "Write a variant file (or upload one). It may extend a built-in variant by name. ",
      "Check shows every problem at its line, as bones validate does."),
    h("div", { class: "editor" }, gutter, area),
    h("div", { class: "row" }, h("button", { class: "primary", id: "check", onclick: check }, "Check"), file),
    problems, result));
  lines();
}

// ----------------------------------------------------------------- simulations

function showSimulate(preselect) {
  const a = h("select", { id: "sim-variant" }, variantOptions(preselect || "sniff"));
  const b = h("select", { id: "sim-compare" }, h("option", { value: "" }, "(nothing: one variant)"), variantOptions("", {}));
  const players = h("select", { id: "sim-players" });
  const bots = h("input", { id: "sim-bots", value: "greedy" });
  const hands = h("input", { id: "sim-hands", type: "number", value: "500", min: "1", max: "20000" });
  const mode = h("select", { id: "sim-mode" }, h("option", { value: "hands" }, "first hands"), h("option", { value: "games" }, "whole matches"));
  const bar = h("progress", { id: "sim-progress", max: "1", value: "0" });
  const out = h("div", { id: "sim-report" });
  const cancel = h("button", { id: "sim-cancel", disabled: true }, "Cancel");

  async function run(ev) {
    ev.preventDefault();
    const body = { variant: variantRef(a.value), bots: bots.value.split(",").map((s) => s.trim()).filter(Boolean) };
    if (players.value) body.players = Number(players.value);
    body[mode.value] = Number(hands.value);
    if (b.value) body.compare = variantRef(b.value);
    out.replaceChildren();
    try {
      let sim = await host("POST", "/api/simulations", body);
      cancel.disabled = false;
      cancel.onclick = async () => { await host("DELETE", `/api/simulations/${sim.id}`, {}); };
      while (sim.state === "running") {
        bar.value = sim.progress;
        note(`simulating: ${sim.done} of ${sim.games}`);
        await new Promise((r) => setTimeout(r, 400));
        sim = await host("GET", `/api/simulations/${sim.id}`);
      }
      bar.value = sim.progress;
      cancel.disabled = true;
      if (sim.state === "failed") { note(sim.error, "error"); return; }
      note(`${sim.state}: ${sim.done} games in ${sim.seconds} s`);
      showReport(out, sim.report);
    } catch (err) { note(err.message, "error"); }
  }

  main().replaceChildren(h("section", { class: "card simulate" },
    h("h1", {}, "Watch and compare"),
    h("form", { onsubmit: run },
      h("div", { class: "row" }, h("label", {}, "Variant ", a), h("label", {}, "compared with ", b)),
      h("div", { class: "row" }, h("label", {}, "Players ", players), h("label", {}, "Bots ", bots),
        h("label", {}, "Play ", hands, " ", mode)),
      h("div", { class: "row" }, h("button", { class: "primary", id: "sim-run" }, "Run"), cancel, bar))),
  out);
  const counts = async () => {
    await fillCounts(players, a.value);
    players.dataset.ready = a.value;  // for tests: the counts shown are this variant's
  };
  a.addEventListener("change", counts);
  counts();
}

function showReport(out, report) {
  const head = (r) => h("p", { class: "muted" },
    `${r.variant.name}: ${r.games} ${report.mode}, ${r.moves_per_hand.value.toFixed(1)} moves a hand, `,
    `${(r.blocked_share.value * 100).toFixed(1)}% blocked, leader advantage `,
    `${(r.leader.advantage.value * 100).toFixed(1)} points [${(r.leader.advantage.lo * 100).toFixed(1)}, ${(r.leader.advantage.hi * 100).toFixed(1)}]`);
  if (report.compare) {
    const c = compareCharts(report);
    out.replaceChildren(head(report), head(report.compare.b), h("div", { class: "charts shared" }, ...c.shared),
      h("div", { class: "compare" },
        h("div", { class: "col" }, h("h2", {}, report.variant.name), ...c.first),
        h("div", { class: "col" }, h("h2", {}, report.compare.b.variant.name), ...c.second)));
  } else {
    out.replaceChildren(head(report), h("div", { class: "charts" }, ...reportCharts(report)));
  }
}

// ----------------------------------------------------------------- replay

function showReplay(name) {
  const file = h("input", { type: "file", accept: ".json,application/json", id: "replay-file", "aria-label": "open a record or a save file" });
  const view = h("div", { id: "replay-view" });
  async function load(body) {
    try {
      const r = body.save ? await host("POST", "/api/replay", body) : await call("POST", "/api/replay", { body });
      player(view, r, body);
    } catch (err) { note(err.message, "error"); }
  }
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (f) load({ record: await f.text() });
  });
  main().replaceChildren(h("section", { class: "card replay" }, h("h1", {}, "Replay a game"),
    h("p", { class: "muted" }, "Open a record (bones replay's JSON, or a save file), or choose a save on the Saves page."),
    file), view);
  if (name) load({ save: name });
}

// The search's analysis of each decision (`bones analyse`), shown beside the
// move it judges; "show the best move" draws the layout the best move would have made.
function analysisLine(d) {
  const f = (m) => analysisFigure(d, m);  // the figure that ranked first
  // a twin of the best (the same position up to symmetry) is the best move
  if (d.played.move === d.best.move || (d.best.same || []).includes(d.played.move)) return `analysis: seat ${d.seat} played ${d.played.move} (${f(d.played)}), the best move`;
  return `analysis: seat ${d.seat} played ${d.played.move} (${f(d.played)}); best ${d.best.move} (${f(d.best)}), ` +
    `${analysisGap(d)}${d.mistake ? " — a mistake" : ""}${d.why ? ` — why: ${d.why}` : ""}`;
}

function player(root, r, body) {
  const steps = [];
  r.hands.forEach((hd, hi) => hd.frames.forEach((f, fi) => steps.push({ hi, fi, hd, f })));
  let at = 0;
  let judged = null; // "hand:ply" -> decision, once analysed
  let showBest = false;
  const analysis = h("div", { class: "replay-analysis muted", id: "replay-analysis" });
  const bestBox = h("input", { type: "checkbox", id: "replay-best" });
  bestBox.addEventListener("change", () => { showBest = bestBox.checked; show(); });
  // the search's analysis is the host's (docs/serve.md, "Limits"): a page without the host key has none
  const analyseButton = h("button", { id: "replay-analyse", disabled: hostKey() ? null : true,
    title: hostKey() ? "the search's judgement of every decision"
      : "analysis is for the host (the link bones serve printed)", onclick: async () => {
    analyseButton.disabled = true;
    analysis.textContent = "analysing every decision with the search…";
    try {
      const a = await host("POST", "/api/analyse", body);
      judged = new Map();
      a.hands.forEach((hd) => hd.decisions.forEach((d) => judged.set(`${hd.number}:${d.ply}`, d)));
      const loss = Object.entries(a.summary.loss).map(([seat, l]) => `seat ${seat} ${l.toFixed(1)}`).join(", ");
      analysis.dataset.summary = `analysed seats ${a.seats.join(", ")} (${a.budget} worlds a decision): expected loss ${loss} points`;
      show();
    } catch (err) { analysis.textContent = ""; analyseButton.disabled = false; note(err.message, "error"); }
  } }, "Analyse");
  const board = h("div", { class: "board", id: "replay-board" });
  const info = h("div", { class: "replay-info", id: "replay-info" });
  const hands = h("div", { class: "replay-hands" });
  const slider = h("input", { type: "range", min: "0", max: String(steps.length - 1), value: "0", id: "replay-slider",
    "aria-label": "move" });
  function show() {
    const s = steps[at];
    slider.value = String(at);
    const d = judged && s.fi > 0 ? judged.get(`${s.hd.hand}:${s.fi}`) : null;
    if (s.f.trains) {  // rows from the hub (trains.js); the best move's rows when asked
      drawTrains(board, { trains: showBest && d && d.best_trains ? d.best_trains : s.f.trains });
    }
    else {
      board.classList.remove("trains-board");
      drawBoard(board, showBest && d && d.best_layout ? d.best_layout : s.f.layout);
    }
    if (judged) {
      analysis.replaceChildren(h("div", {}, analysis.dataset.summary),
        h("div", { class: d && d.mistake ? "mistake" : "" }, d ? analysisLine(d) : "no decision here (a forced move, or a seat not analysed)"),
        ...(d && showBest && d.best.move !== d.played.move && !(d.best.same || []).includes(d.played.move) ? [h("div", {}, `the board shows ${d.best.move} instead of ${d.played.move}`)] : []));
    }
    info.textContent = `hand ${s.hd.hand} · move ${s.fi} of ${s.hd.frames.length - 1}` +
      (s.f.move ? ` · seat ${s.f.seat} ${s.f.move}${s.f.points ? ` scores ${s.f.points}` : ""}` : " · the deal") +
      ` · count ${s.f.count} · scores ${s.f.scores.join(" – ")}` +
      (s.fi === s.hd.frames.length - 1 && s.hd.end ? ` · ${s.hd.end}` : "");
    hands.replaceChildren(...s.f.hands.map((ts, seat) => h("div", { class: "replay-hand" }, h("b", {}, `seat ${seat}: `),
      ...ts.map((t) => { const [x, y] = t.split("-").map(Number); return tileSvg(x, y, { horizontal: true }); }))));
  }
  const go = (n) => { at = Math.max(0, Math.min(steps.length - 1, n)); show(); };
  slider.addEventListener("input", () => go(Number(slider.value)));
  root.replaceChildren(h("section", { class: "card" },
    h("h2", {}, `${r.label}: ${r.variant}, ${r.players} players`),
    h("div", { class: "row controls" },
      h("button", { id: "replay-first", "aria-label": "the first move", title: "the first move", onclick: () => go(0) }, icon("first")),
      h("button", { id: "replay-prev", "aria-label": "back", onclick: () => go(at - 1) }, icon("prev"), " back"),
      h("button", { id: "replay-next", "aria-label": "next", onclick: () => go(at + 1) }, "next ", icon("next")),
      h("button", { id: "replay-last", "aria-label": "the last move", title: "the last move", onclick: () => go(steps.length - 1) }, icon("last")),
      slider, analyseButton, h("label", {}, bestBox, " show the best move")),
    info, analysis, board, hands));
  show();
}

// The replay's icons, drawn (a font may lack ⏮ and ⏭ and show empty boxes).
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  prev: "M12 2v12L4 8z",
  next: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2zM2 2v12l8-6z",
};
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

// ----------------------------------------------------------------- saves

async function showSaves() {
  main().replaceChildren(h("section", { class: "card" }, h("h1", {}, "Saved games"), h("div", { id: "saves" })));
  if (needHost()) return;
  try {
    const { saves } = await host("GET", "/api/saves");
    const box = $("#saves");
    if (!saves.length) { box.replaceChildren(h("p", {}, "No saves yet.")); return; }
    // on a phone each save is a card of its own (style.css: table.saves), no wider than the screen
    box.replaceChildren(h("table", { class: "grid saves" },
      h("thead", {}, h("tr", {}, ...["save", "variant", "players", "series", "hands", "scores", "", ""].map((x) => h("th", {}, x)))),
      h("tbody", {}, ...saves.map((s) => h("tr", { "data-series": s.series ? s.series.id : null },
        h("td", { "data-label": "save" }, s.name), h("td", { "data-label": "variant" }, s.variant || "?"),
        h("td", { class: "names", "data-label": "players" }, [(s.names || []).filter(Boolean).join(", "),  // people's text (textContent)
          ...(s.handed || []).map((k) => `seat ${k} handed to ${s.seats[k]}`)].filter(Boolean).join("; ")),
        h("td", { class: "series-cell", "data-label": "series" }, s.series ? `${s.series.id.slice(0, 6)}… match ${s.series.match}` : ""),
        h("td", { "data-label": "hands" }, String(s.hands ?? "")),
        h("td", { "data-label": "scores" }, s.scores ? s.scores.join(" – ") + (s.finished ? " (finished)" : "") : ""),
        h("td", { class: "act" }, s.finished || s.unreadable ? "" : h("button", { class: "resume", "data-save": s.name, onclick: () => resume(s.name) }, "Resume")),
        h("td", { class: "act" }, s.unreadable ? "" : h("a", { href: `#replay=${encodeURIComponent(s.name)}` }, "Replay")))))));
  } catch (err) { note(err.message, "error"); }
}

async function resume(name) {
  try {
    const game = await host("POST", "/api/saves/open", { name });
    if (game.reopened) {
      // already a game of this server: the same game, its seat links unchanged
      if (seatKey(game.id)) location.hash = `play=${game.id}`;
      else note(`${name} is already game ${game.id} here: open it with its seat link`, "error");
      return;
    }
    // this browser plays the first seat a bot is not playing for its person
    const mine = game.seats.find((s) => !s.handed) || game.seats[0];
    rememberSeat(game.id, mine.seat, mine.key);
    if (game.seats.length > 1) {
      rememberLinks(game.id, game.seats);
      sessionStorage.setItem(`bones.fresh.${game.id}`, "1");
    }
    location.hash = `play=${game.id}`;
  } catch (err) { note(err.message, "error"); }
}

// ----------------------------------------------------------------- start

async function boot() {
  try {
    const [{ variants }, { bots, offered }] = await Promise.all([call("GET", "/api/variants"), call("GET", "/api/bots")]);
    state.variants = variants;
    state.bots = bots;
    state.offered = offered || [];
  } catch (err) {
    note(err.message, "error");
  }
  route();
}

boot();
