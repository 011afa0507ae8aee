// The host's seat links and their QR codes: shown under a new game and again,
// at any time, by the table's Invite button.  The links (with their keys) are
// kept in this browser only (the server stores no key, only its hash).

import { host, seatKey } from "./api.js";
import { h } from "./dom.js";

const KEY = (id) => `bones.links.${id}`;

export function rememberLinks(id, seats) {
  localStorage.setItem(KEY(id), JSON.stringify(seats));
}

export function linksOf(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY(id)) || sessionStorage.getItem(KEY(id)) || "null");
  } catch { return null; }
}

// One seat's card: the seat, its link to copy, its QR code.
function linkCard(s) {
  const box = h("div", { class: "link", "data-seat": s.seat },
    h("b", {}, `Seat ${s.seat}`), s.handed ? h("span", { class: "muted" }, ` handed to ${s.handed}`) : null,
    h("input", { readonly: true, value: s.url, class: "seat-url", "aria-label": `seat ${s.seat}'s link` }),
    s.qr ? h("div", { class: "qr", role: "img", "aria-label": `QR code of seat ${s.seat}'s link` }) : null);
  const qr = box.querySelector(".qr");
  if (qr) qr.innerHTML = s.qr;  // SVG made by the server from the link
  const svg = qr && qr.querySelector("svg");
  if (svg) svg.setAttribute("aria-hidden", "true");
  return box;
}

// The links as a grid of cards.
export function linkGrid(links) {
  return h("div", { class: "link-grid" }, links.map(linkCard));
}

export function linksCard(links) {
  return h("section", { class: "card links", id: "seat-links" }, h("h2", {}, "Seat links"),
    h("p", { class: "muted" }, "Give each player their own link (or let them scan it). ",
      "Whoever has a link plays that seat: share it only with that player."),
    linkGrid(links));
}

// The Invite dialog: every person's seat with its link and QR code as this
// browser keeps them; for a seat whose link it does not keep (another browser),
// or a link given to the wrong person, "New link" makes one (the old one stops).
export async function showInvite(dialog, id) {
  let people;
  try { people = await host("GET", `/api/games/${id}/people`); } catch (err) {
    dialog.replaceChildren(h("p", { class: "error" }, err.message),
      h("form", { method: "dialog" }, h("button", { id: "invite-close" }, "Close")));
    if (!dialog.open) dialog.showModal();
    return;
  }
  const kept = new Map((linksOf(id) || []).map((s) => [s.seat, s]));
  const mine = seatKey(id);
  const cards = people.seats.filter((p) => p.person).map((p) => {
    const link = kept.get(p.seat);
    const card = link ? linkCard(link) : h("div", { class: "link", "data-seat": p.seat }, h("b", {}, `Seat ${p.seat}`),
      h("p", { class: "muted no-link" }, "This browser keeps no link for this seat."));
    if (mine && mine.seat === p.seat) {
      card.append(h("p", { class: "muted" }, "Your own seat, in this browser."));
      return card;
    }
    const button = h("button", { type: "button", class: "new-link", "data-seat": p.seat }, link ? "New link" : "Make a link");
    let sure = false;
    button.addEventListener("click", async () => {
      if (!sure) {  // a second click, so nobody loses their link by a slip
        sure = true;
        button.textContent = "Sure? The seat's old link stops working";
        return;
      }
      try {
        const fresh = await host("POST", `/api/games/${id}/seats/${p.seat}/link`, {});
        const all = [...(linksOf(id) || []).filter((s) => s.seat !== p.seat), fresh].sort((a, b) => a.seat - b.seat);
        rememberLinks(id, all);
        showInvite(dialog, id);
      } catch (err) { button.textContent = err.message; }
    });
    card.append(button);
    return card;
  });
  dialog.replaceChildren(h("h2", {}, "Invite: the seat links"),
    h("p", { class: "muted" }, "Each player opens their own link, or scans its code."),
    h("div", { class: "link-grid" }, cards),
    h("form", { method: "dialog" }, h("button", { id: "invite-close" }, "Close")));
  if (!dialog.open) dialog.showModal();
}
