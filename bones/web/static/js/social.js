// The people at the table: your name, the chat, the series and the rematch,
// and (for the host) who is here and who is connected, with seats handed to bots.
// Names and messages are people's text: always set with textContent (h()), never as HTML.

import { call, host } from "./api.js";
import { $, h } from "./dom.js";
import { showInvite } from "./invite.js";
import { botOptions } from "./bots.js";

const NAME_KEY = "bones.name";
const REACTIONS = ["good game", "nice play", "well played", "oops", "thanks"];

export function savedName() { return localStorage.getItem(NAME_KEY) || ""; }

// The table's social panel, drawn from the `social` part of each view.
export class Social {
  constructor(table) {
    this.table = table;
    this.asked = false;  // the stored name was offered once
    this.shownChat = 0;
  }

  get key() { return this.table.auth.key; }
  get id() { return this.table.id; }
  // a watch link's page (watch.js): a spectator reads the table and its chat, and has
  // no name, no message, no rematch to give (the server refuses each with 403)
  get watching() { return Boolean(this.table.auth && this.table.auth.seat === -1); }

  build() {
    const talk = this.watching ? [] : [
      h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.send($("#chat-input").value); } },
        h("input", { id: "chat-input", maxlength: "200", placeholder: "say something (200 characters)",
          "aria-label": "chat message", autocomplete: "off" }),
        h("button", { id: "chat-send" }, "Send")),
      h("div", { class: "reactions" }, REACTIONS.slice(0, 3).map((r) =>
        h("button", { class: "reaction", type: "button", "data-text": r, onclick: () => this.send(r) }, r)))];
    return h("section", { class: "social card", id: "social" },
      h("div", { class: "name-box", id: "name-box" }),
      h("div", { class: "rematch-box", id: "rematch-box" }),
      h("div", { class: "chat", id: "chat" },
        h("h3", {}, this.watching ? "Table chat (the players')" : "Table chat"),
        h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" }),
        ...talk));
  }

  render(view) {
    const s = view.social;
    if (!s) return;
    if (this.watching) {  // what a spectator can do is watch: the series, the rematch's state, the chat
      this.drawSeries(view, s);
      this.drawRematch(view, s);
      this.drawChat(s);
      return;
    }
    this.drawName(view, s);
    this.drawSeries(view, s);
    this.drawRematch(view, s);
    this.drawChat(s);
    if (s.handed && !view.over) {
      this.table.status(`The host has handed your seat to the bot ${s.handed} for now: it plays for you until they hand it back.`, "wait");
    }
  }

  drawName(view, s) {
    const box = $("#name-box", this.table.root);
    const mine = s.names[view.you];
    if (mine && !this.editing) {
      box.replaceChildren(h("span", {}, "You are ", h("b", { id: "my-name" }, mine), " "),
        h("button", { type: "button", class: "link-button", id: "rename", onclick: () => { this.editing = true; this.drawName(view, s); } }, "change"));
      return;
    }
    if (!mine && !this.asked && savedName()) {  // the name this browser used last time
      this.asked = true;
      this.setName(savedName());
    }
    if ($("#name-input", box)) return;  // the form is up: keep what is being typed
    const input = h("input", { id: "name-input", maxlength: "24", required: true, value: mine || savedName(),
      placeholder: "your name", "aria-label": "your name", autocomplete: "nickname" });
    box.replaceChildren(h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); this.setName(input.value); } },
      h("label", {}, "Your name at this table ", input), h("button", { class: "primary", id: "name-save" }, "Take a seat")));
  }

  async setName(name) {
    try {
      const view = await call("POST", `/api/games/${this.id}/name`, { key: this.key, body: { name } });
      localStorage.setItem(NAME_KEY, view.social.names[view.you]);
      this.editing = false;
      this.table.receive(view);
    } catch (err) { this.table.status(err.message, "error"); }
  }

  drawSeries(view, s) {
    const box = $("#series", this.table.root);
    if (!box) return;
    const wins = s.series.wins;
    box.replaceChildren(h("span", { class: "muted" }, `series, match ${s.series.match}: `),
      ...s.labels.map((name, k) => h("span", { class: `series-score ${k === view.you ? "mine" : ""}`, "data-seat": k },
        `${k === view.you ? "You" : name} `, h("b", {}, String(wins[k])))));
  }

  drawRematch(view, s) {
    const box = $("#rematch-box", this.table.root);
    const r = s.rematch;
    if (!r.open) { box.replaceChildren(); return; }
    const mine = r.accepted.includes(view.you);
    const waiting = r.needed.filter((k) => !r.accepted.includes(k)).map((k) => (k === view.you ? "you" : s.labels[k]));
    const line = h("p", {}, mine ? "You asked for a rematch. " : "The match is over. ",
      waiting.length ? `Waiting for a rematch from: ${waiting.join(", ")}.` : "");
    if (this.watching) { box.replaceChildren(line); return; }
    box.replaceChildren(line,
    h("button", { class: mine ? "" : "primary", id: "rematch", type: "button", onclick: () => this.rematch(!mine) },
      mine ? "Withdraw" : "Rematch"));
  }

  async rematch(accept) {
    try {
      const view = await call("POST", `/api/games/${this.id}/rematch`, { key: this.key, body: { accept } });
      this.table.receive(view);
    } catch (err) { this.table.status(err.message, "error"); }
  }

  drawChat(s) {
    const log = $("#chat-log", this.table.root);
    const last = s.chat.length ? s.chat[s.chat.length - 1].n : 0;
    if (last === this.shownChat && log.children.length) return;
    this.shownChat = last;
    log.replaceChildren(...s.chat.map((m) => h("li", { class: m.seat === s.you ? "mine" : "" },
      h("b", { class: "chat-name" }, m.name || `Seat ${m.seat}`), ": ", h("span", { class: "chat-text" }, m.text))));
    log.scrollTop = log.scrollHeight;
  }

  async send(text) {
    const input = $("#chat-input", this.table.root);
    if (!text || !text.trim()) return;
    try {
      const view = await call("POST", `/api/games/${this.id}/chat`, { key: this.key, body: { text } });
      if (input && input.value === text) input.value = "";
      this.table.receive(view);
    } catch (err) { this.table.status(err.message, "error"); }
  }
}

// The host's view of who is at the table: joined, connected, and the seats
// handed to a bot (and back).  Polls while the game is shown; returns its stop.
export function presencePanel(parent, gameId, bots) {
  const dialog = h("dialog", { id: "presence-invite-dialog", class: "invite", "aria-label": "seat links" });
  const box = h("section", { class: "card presence", id: "presence" }, h("h2", {}, "At the table"),
    h("table", { class: "grid" }, h("tbody", { id: "presence-rows" })),
    // the seat links again, from any browser holding the host key (invite.js)
    h("p", {}, h("button", { id: "presence-invite", type: "button", onclick: () => showInvite(dialog, gameId) },
      "Invite: the seat links")), dialog);
  parent.append(box);
  let stopped = false;
  let timer = null;
  const chosen = {};  // the bot picked for each seat, kept across redraws
  async function hand(seat, bot) {
    try { draw(await host("POST", `/api/games/${gameId}/seats/${seat}`, { bot })); }
    catch (err) { $("#presence-rows").replaceChildren(h("tr", {}, h("td", { class: "error" }, err.message))); }
  }
  function draw(p) {
    $("#presence-rows", box).replaceChildren(...p.seats.map((s) => {
      const state = !s.person ? "a bot" : s.bot ? `played by ${s.bot}`
        : s.connected ? "connected" : s.joined ? "left (not seen lately)" : "not joined yet";
      const pick = chosen[s.seat] || "heuristic";
      const select = h("select", { class: "hand-bot", "aria-label": `bot for seat ${s.seat}`,
        onchange: () => { chosen[s.seat] = select.value; } },
      botOptions(bots, pick));
      return h("tr", { "data-seat": s.seat, class: s.connected ? "connected" : "" },
        h("td", {}, `Seat ${s.seat}`), h("td", { class: "who" }, s.label),
        h("td", { class: "state" }, h("span", { class: `dot ${s.connected ? "on" : ""}` }), state),
        h("td", {}, !s.person ? "" : s.bot
          ? h("button", { class: "hand-back", onclick: () => hand(s.seat, null) }, "Hand back")
          : h("span", {}, select, " ", h("button", { class: "hand-to-bot", onclick: () => hand(s.seat, select.value) }, "Hand to bot"))));
    }));
  }
  async function poll() {
    if (stopped) return;
    try { draw(await host("GET", `/api/games/${gameId}/people`)); } catch { /* shown next time */ }
    if (!stopped) timer = setTimeout(poll, 2000);
  }
  poll();
  return () => { stopped = true; clearTimeout(timer); };
}
