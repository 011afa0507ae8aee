// Spectators: the host's watch links, and the table as a spectator sees it.
//
// A watch link ends with #watch=GAME&key=KEY; the key moves from the address
// bar into this browser's storage at once and travels only in the
// Authorization header.  The server answers a watch key with no hand at all:
// a spectator sees the layout, the count, the scores, the log and every seat's
// tile count, and the hands only as they are turned up at a hand's end.

import { host, hostKey } from "./api.js";
import { Table } from "./game.js";
import { $, h } from "./dom.js";

const WATCH = "bones.watch";

function watchKeys() {
  try { return JSON.parse(localStorage.getItem(WATCH) || "{}"); } catch { return {}; }
}
export function rememberWatch(game, key) {
  const all = watchKeys();
  all[game] = key;
  localStorage.setItem(WATCH, JSON.stringify(all));
}
export const watchKey = (game) => watchKeys()[game] || null;

// The table of a spectator: the seat's table without a hand, moves or keys.
export class WatchTable extends Table {
  constructor(root, gameId, onLeave) {
    super(root, gameId, onLeave);
    const key = watchKey(gameId);
    this.auth = key ? { seat: -1, key } : null;
    this.spectator = true;  // no hand, no move, no seat's tool (game.js)
  }

  async start() {
    if (!this.auth) {
      this.root.replaceChildren(h("p", { class: "error" },
        "This browser has no watch link of that game: open the watch link you were given."));
      return;
    }
    return super.start();
  }

  build() {
    super.build();
    this.root.classList.add("spectating");
    this.root.prepend(h("p", { class: "watching", id: "watching" },
      "You are watching: you see every seat's tile count, not their tiles; ",
      "the hands are shown when a hand ends."));
  }

  drawHand() {
    const v = this.view;
    const hand = $("#hand", this.root);
    hand.setAttribute("aria-label", "tiles held");
    hand.replaceChildren(h("span", { class: "muted" },
      `${v.seats.map((s) => `${s.who}: ${s.tiles}`).join(" · ")} · boneyard ${v.boneyard}`));
    $("#actions", this.root).replaceChildren();
    $("#moves", this.root).replaceChildren();
  }
}

// The host's card under a game: create a watch link (with its QR code) to send to spectators.
export function watchLinksCard(gameId) {
  if (!hostKey()) return null;
  const box = h("div", { class: "link-grid", id: "watch-links" });
  const status = h("p", { class: "muted", id: "watch-status" });
  async function create() {
    try {
      const link = await host("POST", `/api/games/${gameId}/watch`, {});
      const qr = h("div", { class: "qr", role: "img", "aria-label": "QR code of the watch link" });
      qr.innerHTML = link.qr || "";  // SVG made by the server from the link
      const svg = qr.querySelector("svg");
      if (svg) svg.setAttribute("aria-hidden", "true");
      box.append(h("div", { class: "link watch-link" }, h("b", {}, `Watch link ${link.links}`),
        h("input", { readonly: true, value: link.url, class: "seat-url watch-url", "aria-label": `watch link ${link.links}` }), qr));
      status.textContent = `${link.links} of at most ${link.max} watch links.`;
    } catch (err) { status.textContent = err.message; }
  }
  async function revoke() {
    try {
      const r = await host("DELETE", `/api/games/${gameId}/watch`, {});
      box.replaceChildren();
      status.textContent = `${r.revoked} watch link${r.revoked === 1 ? "" : "s"} stopped working.`;
    } catch (err) { status.textContent = err.message; }
  }
  return h("section", { class: "card links" }, h("h2", {}, "Spectators"),
    h("p", { class: "muted" }, "A watch link lets someone follow the game: the table, the scores and the log, ",
      "never a seat's tiles. Spectators cannot move, chat as a seat or take a seat."),
    h("div", { class: "row" }, h("button", { id: "new-watch-link", onclick: create }, "Create a watch link"),
      h("button", { id: "revoke-watch-links", onclick: revoke }, "Stop every watch link")),
    status, box);
}

// The spectator's page of a game (the table; window.bonesTable for tests and the curious).
export function showWatch(main, id) {
  const root = h("section", { class: "game", id: "game" });
  main.replaceChildren(root);
  const table = new WatchTable(root, id);
  table.start();
  window.bonesTable = table;
  return table;
}

// #watch=GAME&key=KEY: keep the key, leave the address bar with #watch=GAME.
export function readWatchHash(params) {
  const id = params.get("watch");
  if (!id) return null;
  if (params.get("key")) {
    rememberWatch(id, params.get("key"));
    history.replaceState(null, "", `#watch=${id}`);
  }
  return { view: "watch", id };
}
