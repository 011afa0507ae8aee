// The table: one seat's view of a game, followed as the others move.

import { call, seatKey, seatKeys, hostKey, ApiError } from "./api.js";
import { drawBoard } from "./board.js";
import { drawTrains, trainsWords, nowWords, targetWords } from "./trains.js";
import { tileSvg } from "./tiles.js";
import { $, h } from "./dom.js";
import { Social } from "./social.js";
import { dragTiles } from "./drag.js";
import { tileWords, nameWords, eventWords, tableWords, moveWords, armWords, pipWord } from "./speech.js";
import * as signals from "./signals.js";
import { linksOf, showInvite } from "./invite.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));

// A view's place in the table's history: the match of its series (a rematch
// starts again at version 0), then its version; `older(a, b)` when a comes first.
const matchOf = (v) => (v.social && v.social.series ? v.social.series.match : 1);
function older(a, b) {
  return matchOf(a) < matchOf(b) || (matchOf(a) === matchOf(b) && a.version < b.version);
}

export class Table {
  constructor(root, gameId, onLeave) {
    this.root = root;
    this.id = gameId;
    this.auth = seatKey(gameId);
    this.view = null;
    this.selected = null;
    this.seenEvents = { hand: 0, n: 0 };
    this.shownEnd = null;
    this.stopped = false;
    this.sending = false;
    this.onLeave = onLeave;
    this.keyHandler = (e) => this.onKey(e);
    this.resizeHandler = () => this.view && this.drawBoard();
    this.social = new Social(this);  // names, chat, series and rematch (social.js)
    this.spectator = false;
    this.dragging = null;      // the tile being dragged (drag.js)
    this.suppressClick = false;
    this.drawnVersion = null;  // the version whose last tile has slid in
  }

  async start() {
    if (!this.auth) {
      this.root.replaceChildren(h("p", { class: "error" },
        "This browser has no seat in that game: open the seat link you were given."));
      return;
    }
    this.build();
    if (!this.spectator) dragTiles(this);
    document.addEventListener("keydown", this.keyHandler);
    window.addEventListener("resize", this.resizeHandler);
    try {
      const view = await call("GET", `/api/games/${this.id}`, { key: this.auth.key });
      this.firstView = true;
      this.render(view);
    } catch (err) {
      this.status(err.message, "error");
      return;
    }
    this.follow();
  }

  stop() {
    this.stopped = true;
    signals.resetTurn();
    if (this.poll) this.poll.abort();
    document.removeEventListener("keydown", this.keyHandler);
    window.removeEventListener("resize", this.resizeHandler);
  }

  async follow() {
    while (!this.stopped) {
      this.poll = new AbortController();
      try {
        const stamp = this.view.social ? this.view.social.stamp : 0;
        const v = await call("GET", `/api/games/${this.id}?wait=${this.view.version}&stamp=${stamp}`,
          { key: this.auth.key, signal: this.poll.signal });
        if (!this.stopped && v.version !== this.view.version) this.receive(v);
        else if (!this.stopped && v.busy !== this.view.busy) this.receive(v);
        else if (!this.stopped && v.social && v.social.stamp !== stamp) this.receive(v);
      } catch (err) {
        if (this.stopped || err.name === "AbortError") return;
        this.status(err.message, "error");
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  build() {
    this.root.replaceChildren(
      h("div", { class: "table-top" },
        h("div", { class: "scores", id: "scores" }),
        h("div", { class: "series", id: "series" }),
        h("div", { class: "seats", id: "seats" })),
      h("div", { class: "board", id: "board" }),
      h("div", { class: "countline", id: "countline" }),
      h("ul", { class: "ends", id: "ends", "aria-label": "the open ends" }),
      h("div", { class: "status", id: "status", role: "status", "aria-live": "polite" }),
      h("div", { class: "hand-row" },
        h("div", { class: "hand", id: "hand", role: "group", "aria-label": "your tiles" }),
        h("div", { class: "actions", id: "actions" })),
      h("div", { class: "moves", id: "moves" }),
      h("div", { class: "tools", id: "tools" }),
      // what happens at the table, for a screen reader: each move, score, draw
      // count and hand end, as this seat may see it and no more
      h("div", { class: "sr-only", id: "live", role: "log", "aria-live": "polite", "aria-label": "table announcements" }),
      h("div", { class: "table-bottom" },
        h("details", { class: "log", open: true },
          // focusable: a long hand (8 seats) scrolls it, and a keyboard must reach it
          h("summary", {}, "This hand"), h("ol", { id: "log", tabindex: "0", "aria-label": "this hand's moves" })),
        h("details", { class: "history" },
          h("summary", {}, "Match history"), h("div", { id: "history" }))),
      this.social.build(),
      h("dialog", { id: "handend", class: "handend", "aria-labelledby": "handend-title" }),
      h("dialog", { id: "claim", class: "claim", "aria-label": "your claim" }),
      h("dialog", { id: "confirm", class: "confirm", "aria-labelledby": "confirm-title" }),
      h("dialog", { id: "invite-dialog", class: "invite", "aria-label": "seat links" }),
    );
  }

  // One announcement in the live region (the newest 30 kept).
  say(text) {
    if (!text) return;
    const live = $("#live", this.root);
    if (!live) return;
    live.append(h("p", {}, text));
    while (live.children.length > 30) live.firstChild.remove();
  }

  // What changed since the last view, spoken (never on the first view).
  announceChanges(before, v) {
    if (!before) return;
    const lines = [];
    const known = new Set((before.notices || []).map((n) => `${n.kind}:${n.seat}:${n.hand}:${n.ply}`));
    for (const n of v.notices || []) {
      if (known.has(`${n.kind}:${n.seat}:${n.hand}:${n.ply}`)) continue;
      lines.push(n.kind === "resign" ? `${n.who} resigned the match.`
        : `${n.who} left the table: a bot plays ${n.who === "You" ? "your" : "their"} seat.`);
    }
    if (before.hand_number === v.hand_number && v.events.length < before.events.length) {
      lines.push("Moves taken back.");
    } else if (before.hand_number === v.hand_number) {
      const fresh = v.events.slice(before.events.length);
      for (const e of fresh) lines.push(eventWords(e, !!v.trains));
      if (fresh.some((e) => e.kind === "draw")) lines.push(`${v.boneyard} left to draw.`);
    }
    const end = v.hand_end;
    if (end && (!before.hand_end || before.hand_end.hand !== end.hand || before.hand_number !== v.hand_number)) {
      lines.push(`Hand ${end.hand} over: ${end.how}. Settlement: ${end.settlement.map((x) =>
        `${x.who} ${x.points > 0 ? "+" : ""}${x.points}`).join(", ")}.`);
    }
    if (before.hand_number !== v.hand_number) lines.push(`Hand ${v.hand_number} begins.`);
    if (v.scores.join() !== before.scores.join()) {
      lines.push(`Scores: ${v.owners.map((o) => `${o.who} ${v.scores[o.owner]}`).join(", ")}.`);
    }
    if (v.over && !before.over) lines.push(`Game over: ${v.result}.`);
    if (v.your_turn && !before.your_turn) lines.push("Your turn.");
    for (const line of lines) this.say(line);
  }

  status(text, kind = "") {
    const s = $("#status", this.root);
    if (!s) return;
    s.textContent = text;
    s.className = `status ${kind}`;
  }

  // A view the server sent: shown unless it is older than the one shown (a long
  // poll answered just before a move's reply can arrive after it, and must not
  // take the table back to the turn before).
  receive(view) {
    if (!(this.view && older(view, this.view))) this.render(view);
  }

  render(view) {
    const before = this.view;
    this.view = view;
    if (!before || before.hand_number !== view.hand_number || (before && before.version !== view.version)) {
      if (!this.dragging) this.selected = null;
    }
    const hadFocus = this.root.contains(document.activeElement) &&
      document.activeElement.matches(".hand-tile, .target, #draw, #pass, #takeback");
    // a redraw keeps the focus on the same tile (a chat message or a name redraws the table)
    const focusedTile = hadFocus ? document.activeElement.dataset.tile || null : null;
    const focusedMove = hadFocus ? document.activeElement.dataset.move || null : null;
    this.drawScores();
    this.drawBoard();
    this.drawHand();
    this.drawTools();
    this.drawLog(before);
    this.announceChanges(before, view);
    signals.showTurn(view.your_turn);
    if (view.your_turn && !(before && before.your_turn)) {
      signals.turnBegins(`${view.variant.name}, hand ${view.hand_number}: it is your turn.`);
    }
    if (hadFocus && !this.root.contains(document.activeElement)) {
      const target = focusedMove && [...this.root.querySelectorAll("#board .target")].find((t) => t.dataset.move === focusedMove);
      if (target) target.focus();
      else this.focusHand(focusedTile);
    }
    this.drawHistory();
    this.maybeHandEnd();
    this.firstView = false;
    if (view.error) this.status(`This game has stopped: ${view.error}`, "error");
    else if (view.over) this.status(`Game over: ${view.result}.`, "over");
    else if (view.your_turn) {
      const only = view.legal.length === 1 ? view.legal[0].kind : null;
      this.status(only === "draw" ? "Your turn: nothing fits, draw a tile."
        : only === "pass" ? "Your turn: nothing fits and nothing to draw: pass."
        : view.trains ? "Your turn: choose a tile, then the train to play it on."
        : "Your turn: choose a tile, then the end to play it on.", "turn");
    } else {
      const who = view.seats[view.turn];
      this.status(`${who.who} ${who.kind === "bot" ? "is thinking" : "is to move"}…`, "wait");
    }
    this.social.render(view);
  }

  drawScores() {
    const v = this.view;
    const scores = $("#scores", this.root);
    scores.replaceChildren(
      h("div", { class: "variant" }, h("b", {}, v.variant.name), ` · ${v.trains ? "round" : "hand"} ${v.hand_number} · ${v.target}`),
      h("div", { class: "owner-scores" }, v.owners.map((o) =>
        h("span", { class: `score ${o.seats.includes(v.you) ? "mine" : ""}`, "data-owner": o.owner },
          `${o.who}: `, h("b", {}, String(v.scores[o.owner]))))),
    );
    const seats = $("#seats", this.root);
    seats.replaceChildren(...v.seats.map((s) =>
      h("span", { class: `seat ${s.seat === v.turn ? "to-move" : ""} ${s.seat === v.you ? "me" : ""}` },
        `${s.seat === v.turn ? "▶ " : ""}${s.who}${s.level ? `, ${s.level}` : ""}: ${s.tiles} tile${s.tiles === 1 ? "" : "s"}`)),
      h("span", { class: "seat boneyard" }, `boneyard: ${v.boneyard}`));
  }

  drawBoard() {
    const v = this.view;
    const targets = [];
    if (this.selected && v.your_turn) {
      for (const m of v.legal) if (m.tile === this.selected && m.arm) targets.push(m);
    }
    const board = $("#board", this.root);
    if (v.trains) {  // rows from the hub (trains.js)
      drawTrains(board, v, { targets, onTarget: (m) => this.play(m) });
    } else {
      board.classList.remove("trains-board");
      drawBoard(board, v.layout, { targets, onTarget: (m) => this.play(m), label: tableWords(v) });
    }
    const last = board.querySelector(".tile.last");
    if (last && this.drawnVersion !== null && this.drawnVersion !== v.version) last.classList.add("arrive");
    this.drawnVersion = v.version;
    const ends = $("#ends", this.root);
    ends.replaceChildren(...v.ends.map((e) => h("li", { class: "end", "data-arm": e.arm },
      h("span", { "aria-hidden": "true" }, `${e.arm} ${e.pip}`),
      h("span", { class: "sr-only" }, `${v.trains ? targetWords(e.arm) : `${armWords(e.arm)} end`} shows ${pipWord(e.pip)}`))));
    const line = $("#countline", this.root);
    if (v.trains) {  // no count in a train layout: what must be served first, if anything
      line.replaceChildren(h("span", { class: "train-now-line" }, nowWords(v.trains) || ""));
      return;
    }
    const parts = v.count_parts.filter((p) => p.points);
    const sum = parts.length ? parts.map((p) => `${p.label} (${p.points})`).join(" + ") : "nothing yet";
    line.replaceChildren(
      h("span", { class: "count" }, "count ", h("b", { id: "count" }, String(v.count))),
      h("span", { class: "parts" }, ` = ${sum}`));
  }

  drawHand() {
    const v = this.view;
    const hand = $("#hand", this.root);
    const playable = new Set(v.legal.filter((m) => m.tile).map((m) => m.tile));
    hand.setAttribute("aria-label", `your tiles: ${v.hand.length}`);
    hand.replaceChildren(...v.hand.map((t, i) => {
      const ok = playable.has(t.name);
      // not `disabled`: a tile that does not fit stays focusable, so it can be read
      const b = h("button", {
        class: `hand-tile ${ok ? "playable" : ""} ${this.selected === t.name ? "selected" : ""}`,
        "data-tile": t.name, title: `${t.name}${i < 9 ? ` (key ${i + 1})` : ""}`,
        "aria-label": tileWords(t.a, t.b),
        "aria-pressed": this.selected === t.name ? "true" : "false",
        "aria-disabled": v.your_turn && !ok ? "true" : null,
        onclick: () => { if (!this.suppressClick) this.choose(t.name); },
      }, tileSvg(t.a, t.b, { title: t.name, hidden: true }));
      return b;
    }));
    const actions = $("#actions", this.root);
    const draw = v.legal.find((m) => m.kind === "draw");
    const pass = v.legal.find((m) => m.kind === "pass");
    actions.replaceChildren(
      h("span", { class: "pips" }, `${v.hand.length} tiles, ${v.pips} pips`),
      h("button", { id: "draw", disabled: !draw, onclick: () => this.play(draw), title: "key D" }, "Draw"),
      h("button", { id: "pass", disabled: !pass, onclick: () => this.play(pass), title: "key P" }, "Pass"),
      h("button", { id: "takeback", disabled: !v.take_back, onclick: () => this.takeBack(),
        title: v.take_back || !v.take_back_why ? "take back your last move and the bots' replies (key U)"
          : `no take-back now: ${v.take_back_why}` }, "Take back"),
    );
    const moves = $("#moves", this.root);
    const options = this.selected ? v.legal.filter((m) => m.tile === this.selected) : [];
    moves.replaceChildren(...options.map((m) =>
      h("button", { class: "move-option", "data-move": m.move, onclick: () => this.play(m) },
        m.move, m.points ? h("span", { class: "gain" }, ` +${m.points}`) : null)));
  }

  choose(name) {
    const v = this.view;
    if (!v.your_turn || this.sending) return;
    const options = v.legal.filter((m) => m.tile === name);
    if (!options.length) {
      this.status(`${nameWords(name)} fits no open end now.`, "error");
      return;
    }
    if (options.length === 1) {
      this.play(options[0]);
      return;
    }
    this.selected = this.selected === name ? null : name;
    this.drawBoard();
    this.drawHand();
    if (this.selected) {
      this.status(v.trains
        ? `Play ${nameWords(name)} on which train? ${options.map((m) => m.arm).join(", ")} (arrow keys and Enter)`
        : `Play ${nameWords(name)} on which end? ${options.map((m) => m.arm).join(", ")} ` +
        "(arrow keys and Enter, or the end's letter)", "turn");
      const first = $("#board .target", this.root);
      if (first) first.focus();
    } else this.focusHand(name);
  }

  focusHand(name = null) {
    const tiles = [...this.root.querySelectorAll(".hand-tile")];
    const t = (name && tiles.find((b) => b.dataset.tile === name)) ||
      tiles.find((b) => b.classList.contains("playable")) || tiles[0] || $("#draw:not(:disabled), #pass:not(:disabled)", this.root);
    if (t) t.focus();
  }

  async play(m, claim = undefined) {
    if (!m || this.sending) return;
    const v = this.view;
    if (v.muggins && m.kind === "play" && claim === undefined) {
      this.askClaim(m);
      return;
    }
    this.sending = true;
    try {
      const body = { move: m.move, version: v.version };
      if (claim !== undefined) body.claim = claim;
      const view = await call("POST", `/api/games/${this.id}/moves`, { key: this.auth.key, body });
      this.selected = null;
      this.receive(view);
    } catch (err) {
      this.status(err.message, "error");
      if (err instanceof ApiError && err.status === 409) this.refresh();
    } finally {
      this.sending = false;
    }
  }

  async playText(text) {  // a move typed or sent by a test: refused moves show the reason
    const v = this.view;
    await this.play({ move: text, kind: text === "draw" || text === "pass" ? text : "play" },
      v.muggins && text !== "draw" && text !== "pass" ? 0 : undefined);
  }

  askClaim(m) {
    const dlg = $("#claim", this.root);
    const input = h("input", { type: "number", min: "0", value: "0", id: "claim-points" });
    dlg.replaceChildren(h("form", { method: "dialog" },
      h("p", {}, `Muggins: how many points do you claim for ${m.move}?`), input,
      h("menu", {}, h("button", { value: "ok" }, "Play"), h("button", { value: "cancel" }, "Cancel"))));
    dlg.onclose = () => {
      if (dlg.returnValue === "ok") this.play(m, Math.max(0, parseInt(input.value || "0", 10) || 0));
    };
    dlg.showModal();
    input.select();
  }

  async takeBack() {
    try {
      const view = await call("POST", `/api/games/${this.id}/takeback`,
        { key: this.auth.key, body: { version: this.view.version } });
      this.receive(view);
      this.status("Taken back: your move again.", "turn");
    } catch (err) {
      this.status(err.message, "error");
    }
  }

  async refresh() {
    try {
      this.receive(await call("GET", `/api/games/${this.id}`, { key: this.auth.key }));
    } catch { /* the follower reports */ }
  }

  describe(e) {
    if (e.kind === "draw") return `${e.who} ${e.who === "You" ? "draw" : "draws"}${e.drew ? ` ${e.drew.name}` : ""}`;
    if (e.kind === "pass") {
      const bonus = (e.bonuses || []).map((b) =>
        ` · ${b.kind === "opening_pass" ? "pass on the opening tile (pase de salida)" : "all passed (paso redondo)"}: ${b.who} +${b.points}`);
      return `${e.who} ${e.who === "You" ? "pass" : "passes"}${bonus.join("")}`;
    }
    if (this.view && this.view.trains) return `${e.who} ${e.who === "You" ? "play" : "plays"} ${e.move}`;
    let text = `${e.who} ${e.who === "You" ? "play" : "plays"} ${e.move}: count ${e.count}`;
    if (e.claim !== null && e.claim !== undefined) text += `, claimed ${e.claim} of ${e.points}`;
    else if (e.points) text += ` — scores ${e.points}!`;
    return text;
  }

  drawLog(before) {
    const v = this.view;
    const log = $("#log", this.root);
    const items = v.events.map((e) =>
      h("li", { class: `${e.points || (e.bonuses && e.bonuses.length) ? "scoring" : ""} ${e.seat === v.you ? "mine" : ""}` }, this.describe(e)));
    // a resignation or a departure, at its place in this hand
    const notes = (v.notices || []).filter((n) => n.hand === v.hand_number).sort((a, b) => b.ply - a.ply);
    for (const n of notes) {
      const text = n.kind === "resign" ? `${n.who} ${n.who === "You" ? "resign" : "resigns"} the match`
        : `${n.who} ${n.who === "You" ? "leave" : "leaves"} the table; ${botWords(n)} plays the seat`;
      items.splice(Math.min(n.ply, items.length), 0, h("li", { class: `notice ${n.kind}` }, text));
    }
    log.replaceChildren(...items);
    log.scrollTop = log.scrollHeight;
    // announce what the others did since we last looked, and show the points by the end
    if (before && before.hand_number === v.hand_number) {
      const fresh = v.events.slice(before.events.length);
      const scoring = fresh.filter((e) => e.points && e.kind === "play");
      if (scoring.length) {
        this.announce(scoring.map((e) => this.describe(e)).join(" · "));
        this.popScore(scoring[scoring.length - 1]);
        signals.scoreSound();
      }
    }
  }

  // "+10" beside the tile that scored, for a moment.
  popScore(e) {
    const svg = $("#board svg", this.root);
    const face = svg && svg.querySelector(".tile.last rect.face");
    if (!face) return;
    const x = Number(face.getAttribute("x")), y = Number(face.getAttribute("y"));
    const w = Number(face.getAttribute("width")), ht = Number(face.getAttribute("height"));
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("x", x + w / 2);
    t.setAttribute("y", y - 0.25);
    t.setAttribute("text-anchor", "middle");
    t.setAttribute("font-size", Math.max(0.6, Math.min(w, ht) * 0.7));
    t.setAttribute("class", "score-pop");
    t.setAttribute("aria-hidden", "true");
    t.textContent = `+${e.points}`;
    svg.append(t);
    setTimeout(() => t.remove(), 2600);
  }

  // The table's tools: hint, reading the table, sound, notifications, invite, resign, leave.
  drawTools() {
    const v = this.view;
    const box = $("#tools", this.root);
    if (!box) return;
    const sound = h("button", { id: "sound", type: "button", "aria-pressed": signals.soundOn() ? "true" : "false",
      title: "sounds for your turn and for a score (made in the page)",
      onclick: () => { signals.setSound(!signals.soundOn()); this.drawTools(); } },
    signals.soundOn() ? "Sound: on" : "Sound: off");
    const read = h("button", { id: "read-table", type: "button", title: "key T", onclick: () => this.readTable() },
      "Read the table");
    if (this.spectator) { box.replaceChildren(read, sound); return; }
    const people = v.seats.filter((s) => s.kind === "human").length;
    const tools = [
      h("button", { id: "hint", type: "button", title: "the search's move for you (key H)",
        disabled: !(v.your_turn && people === 1) || null, onclick: () => this.hint() }, "Hint"),
      read, sound,
    ];
    if (signals.canNotify() && !signals.notifyAsked()) {
      tools.push(h("button", { id: "notify", type: "button", title: "a notification when it is your turn and this tab is hidden",
        onclick: async () => { await signals.askNotify(); this.drawTools(); } }, "Notify me on my turn"));
    }
    if (hostKey() && (people > 1 || linksOf(this.id))) {  // the host: the seat links again, or new ones (invite.js)
      tools.push(h("button", { id: "invite", type: "button",
        onclick: () => showInvite($("#invite-dialog", this.root), this.id) }, "Invite"));
    }
    if (!v.over) tools.push(h("button", { id: "resign", type: "button", class: "danger", onclick: () => this.confirm("resign") }, "Resign"));
    tools.push(h("button", { id: "leave", type: "button", class: "danger", onclick: () => this.confirm("leave") }, "Leave the table"));
    box.replaceChildren(...tools);
  }

  readTable() {
    const v = this.view;
    const mine = this.spectator ? "" : ` Your tiles: ${v.hand.map((t) => tileWords(t.a, t.b)).join(", ") || "none"}.`;
    const seats = v.seats.map((s) => `${s.who} ${s.tiles}`).join(", ");
    this.say(`${v.trains ? trainsWords(v) : tableWords(v)} Tiles held: ${seats}; ${v.boneyard} left to draw.${mine}`);
  }

  async hint() {
    const v = this.view;
    if (!v.your_turn) return;
    try {
      const r = await call("GET", `/api/games/${this.id}/hint`, { key: this.auth.key });
      this.status(`Hint: ${r.hint}`, "turn");
      this.say(`Hint: ${moveWords(r.move)}.`);
    } catch (err) { this.status(err.message, "error"); }
  }

  // Resign the match or leave the table, after a confirmation.
  confirm(what) {
    const dlg = $("#confirm", this.root);
    const text = what === "resign"
      ? ["Resign the match?", "The match ends now and your side loses it; the series counts it."]
      : ["Leave the table?", "A bot plays your seat from now on, your link stops working and you take no part in a rematch." +
        (this.view.over ? "" : " If nobody else is seated, the match ends as your resignation.")];
    dlg.replaceChildren(h("h2", { id: "confirm-title" }, text[0]), h("p", {}, text[1]),
      h("form", { method: "dialog", class: "row" },
        h("button", { id: "confirm-yes", value: "yes", class: "primary" }, what === "resign" ? "Resign" : "Leave"),
        h("button", { id: "confirm-no", value: "no", autofocus: true }, "Cancel")));
    dlg.onclose = () => { if (dlg.returnValue === "yes") this[what === "resign" ? "resign" : "leave"](); };
    dlg.returnValue = "";
    dlg.showModal();
  }

  async resign() {
    try {
      this.receive(await call("POST", `/api/games/${this.id}/resign`, { key: this.auth.key, body: {} }));
    } catch (err) { this.status(err.message, "error"); }
  }

  async leave() {
    try {
      const r = await call("POST", `/api/games/${this.id}/leave`, { key: this.auth.key, body: {} });
      this.stop();
      const all = seatKeys();
      delete all[this.id];
      localStorage.setItem("bones.seats", JSON.stringify(all));
      this.root.replaceChildren(h("section", { class: "card left" },
        h("h1", {}, "You left the table"),
        h("p", {}, `${botWords(r, true)} plays your seat${r.over ? ": the match had nobody else to play it, so it ended as your resignation" : ""}.`),
        h("a", { class: "button primary", href: "#" }, "Play another game")));
    } catch (err) { this.status(err.message, "error"); }
  }

  announce(text) {
    for (const old of this.root.querySelectorAll(".toast")) old.remove();  // the newest replaces it
    const box = h("div", { class: "toast", "aria-hidden": "true" }, text);
    this.root.append(box);  // over the scores at the table's top, never over a move button
    setTimeout(() => box.remove(), 2600);
  }

  drawHistory() {
    const v = this.view;
    const hist = $("#history", this.root);
    if (!v.history.length) {
      hist.replaceChildren(h("p", { class: "muted" }, "No hand has ended yet."));
      return;
    }
    hist.replaceChildren(h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "hand"), h("th", {}, "end"),
        ...v.owners.map((o) => h("th", {}, o.who)))),
      h("tbody", {}, ...v.history.map((r) => h("tr", {}, h("td", {}, String(r.hand)), h("td", {}, r.end),
        ...r.scores.map((s, o) => h("td", {}, `${s}`, r.settlement[o]
          ? h("small", {}, ` (${r.settlement[o] > 0 ? "+" : ""}${r.settlement[o]})`) : null)))))));
  }

  maybeHandEnd() {
    const v = this.view;
    const end = v.hand_end;
    if (!end) return;
    const key = `${this.id}:${v.social ? v.social.series.match : 1}:${end.hand}`;  // each match of a series
    if (this.firstView && !v.over && v.events.length) { this.shownEnd = key; return; }
    if (this.shownEnd === key || sessionStorage.getItem(`bones.shown.${key}`)) return;
    this.shownEnd = key;
    sessionStorage.setItem(`bones.shown.${key}`, "1");
    const dlg = $("#handend", this.root);
    dlg.replaceChildren(...[
      h("h2", { id: "handend-title" }, `Hand ${end.hand} over: ${end.how}`),
      end.rule ? h("p", { class: "muted" }, `Rule: ${end.rule}`) : null,
      h("table", { class: "grid settlement" },
        h("thead", {}, h("tr", {}, h("th", {}, "seat"), h("th", {}, "tiles left"), h("th", {}, "pips"),
          v.teams ? h("th", {}, "team pips") : null,
          end.rounded ? h("th", {}, `rounded to ${end.unit}`) : null, h("th", {}, "settlement"))),
        h("tbody", {}, ...end.rows.map((r) => h("tr", {},
          h("td", {}, r.who),
          h("td", { class: "mini-tiles" }, r.tiles.length ? r.tiles.map((t) => tileSvg(t.a, t.b, { horizontal: true })) : "—"),
          h("td", {}, String(r.pips)),
          v.teams ? h("td", {}, r.scoring_row ? String(end.pooled[r.owner]) : "") : null,
          end.rounded ? h("td", {}, r.scoring_row ? String(end.rounded[r.owner]) : "") : null,
          h("td", {}, r.scoring_row ? signed(end.settlement[r.owner].points) : ""))))),
      end.counted ? h("p", { class: "muted" }, `pips counted: ${end.counted[0]}, rounded to ${end.counted[1]}`) : null,
      end.trains ? h("div", { class: "board handend-trains", id: "handend-trains" }) : null,
      ...(end.bonuses || []).map((b) => h("p", { class: "bonus" }, `Bonus: ${b.what} +${b.points} to ${end.bonus_to}`)),
      h("p", { class: "settle-line" }, "Settlement: ", end.settlement.map((s) =>
        `${s.who} ${s.points > 0 ? "+" : ""}${s.points}`).join(" · ")),
      h("p", {}, "Scores: ", v.owners.map((o) => `${o.who} ${end.scores[o.owner]}`).join(" · ")),
      v.over ? h("p", { class: "result" }, `Game over: ${v.result}.`) : null,
      h("div", { id: "hand-analysis", class: "replay-analysis" }),
      h("form", { method: "dialog" }, h("button", { id: "next-hand", autofocus: true },
        v.over ? "Close" : "Next hand"), " ",
        v.over && v.social && !v.spectator
          ? h("button", { id: "rematch-now", onclick: () => this.social.rematch(true) }, "Rematch") : null,
        v.over && v.social && !v.spectator ? " " : null,
        v.spectator ? null : h("button", { id: "analyse-hand", type: "button",
          onclick: () => this.analyseHand(end.hand) }, "Analyse my moves")),
    ].filter(Boolean));
    // a train layout: the round's trains as they ended, the table's rows (trains.js)
    if (end.trains) drawTrains($("#handend-trains", dlg), { trains: end.trains });
    if (!dlg.open) dlg.showModal();
  }

  // The search's judgement of this seat's moves in a finished hand (`bones analyse`).
  async analyseHand(hand) {
    const box = $("#hand-analysis", this.root);
    const button = $("#analyse-hand", this.root);
    button.disabled = true;
    box.textContent = "analysing your moves with the search…";
    try {
      const a = await call("GET", `/api/games/${this.id}/analysis?hand=${hand}`, { key: this.auth.key });
      const decisions = a.hands.flatMap((hd) => hd.decisions);
      const total = Object.values(a.summary.loss).reduce((x, y) => x + y, 0);
      box.replaceChildren(
        h("p", {}, `Expected points to the end of the hand, yours less the best opponent's (${a.budget} worlds a decision): ` +
          `expected loss ${total.toFixed(1)} points in ${decisions.length} decision${decisions.length === 1 ? "" : "s"}.`),
        ...decisions.map((d) => h("div", { class: d.mistake ? "mistake" : "" }, `move ${d.ply}: ${analysisText(d)}`)));
    } catch (err) {
      box.textContent = err.message;
      button.disabled = false;
    }
  }

  onKey(e) {
    if (e.target && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) {
      if (e.key === "Escape" && e.target.id === "chat-input") { e.target.blur(); this.focusHand(); }
      return;
    }
    if (document.querySelector("dialog[open]") || e.ctrlKey || e.metaKey || e.altKey) return;
    const v = this.view;
    const k = e.key.toLowerCase();
    if (!v) return;
    if (k === "t") { this.readTable(); e.preventDefault(); return; }
    if (this.spectator) return;
    if (k === "c") {
      const chat = $("#chat-input", this.root);
      if (chat) { chat.focus(); e.preventDefault(); }
      return;
    }
    if (["arrowleft", "arrowright", "arrowup", "arrowdown", "home", "end"].includes(k) && this.moveFocus(k)) {
      e.preventDefault();
      return;
    }
    if (!v.your_turn) {
      if (k === "u" && v.take_back) this.takeBack();
      return;
    }
    if (k === "h" || e.key === "?") this.hint();
    else if (/^[1-9]$/.test(k)) {
      const t = v.hand[parseInt(k, 10) - 1];
      if (t) this.choose(t.name);
    } else if (k === "d") this.play(v.legal.find((m) => m.kind === "draw"));
    else if (k === "p") this.play(v.legal.find((m) => m.kind === "pass"));
    else if (k === "u" && v.take_back) this.takeBack();
    else if (k === "escape") { const was = this.selected; this.selected = null; this.drawBoard(); this.drawHand(); this.focusHand(was); }
    else if (this.selected && (v.trains ? /^[mhf]$/ : /^[wens]$/).test(k)) {
      const m = v.legal.find((x) => x.tile === this.selected && x.arm && x.arm.toLowerCase() === k);
      if (m) this.play(m);
    } else return;
    e.preventDefault();
  }
}

// Arrow keys move between the hand's tiles, or between the lit ends once a tile is chosen.
Table.prototype.moveFocus = function moveFocus(k) {
  const active = document.activeElement;
  const inHand = active && active.classList && active.classList.contains("hand-tile");
  const onTarget = active && active.classList && active.classList.contains("target");
  const list = inHand ? [...this.root.querySelectorAll(".hand-tile")]
    : onTarget ? [...this.root.querySelectorAll("#board .target")] : null;
  if (!list || !list.length) return false;
  const at = list.indexOf(active);
  const step = k === "arrowleft" || k === "arrowup" ? -1 : 1;
  const next = k === "home" ? 0 : k === "end" ? list.length - 1 : (at + step + list.length) % list.length;
  list[next].focus();
  return true;
};

// "the Casual bot (heuristic)", or "heuristic" for a bot without a level.
function botWords(x, capital = false) {
  if (!x.level) return capital ? `The bot ${x.bot}` : x.bot;
  return `${capital ? "The" : "the"} ${x.level} bot (${x.bot})`;
}

function analysisText(d) {
  // the figure that ranked the moves first (d.ranked_by: "win" or "value"), the gap in it
  const f = (m) => analysisFigure(d, m);
  // a twin of the best (the same position up to symmetry) is the best move
  if (d.played.move === d.best.move || (d.best.same || []).includes(d.played.move)) return `${d.played.move} (${f(d.played)}), the best move`;
  return `${d.played.move} (${f(d.played)}); best ${d.best.move} (${f(d.best)}), ` +
    `${analysisGap(d)}${d.mistake ? " — a mistake" : ""}${d.why ? ` — why: ${d.why}` : ""}`;
}

// A move's figures in an analysis, the one that ranked first.
export function analysisFigure(d, m) {
  const v = (x) => (x >= 0 ? "+" : "") + x.toFixed(1);
  return d.ranked_by === "win" ? `wins ${(m.win * 100).toFixed(1)}%, ${v(m.value)}` : v(m.value);
}

// How much better the best move is, in the figure that ranked.
export function analysisGap(d) {
  return d.ranked_by === "win" ? `${(d.win_loss * 100).toFixed(1)}% more to win` : `${d.loss.toFixed(1)} better`;
}
