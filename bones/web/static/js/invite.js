// The host's seat links and their QR codes: shown under a new game and again,
// at any time, by the table's Invite button.  The links (with their keys) are
// kept in this browser only (the server stores no key, only its hash).

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

// The links as a grid of cards: the seat, its link to copy, its QR code.
export function linkGrid(links) {
  const grid = h("div", { class: "link-grid" }, links.map((s) => h("div", { class: "link", "data-seat": s.seat },
    h("b", {}, `Seat ${s.seat}`), s.handed ? h("span", { class: "muted" }, ` handed to ${s.handed}`) : null,
    h("input", { readonly: true, value: s.url, class: "seat-url", "aria-label": `seat ${s.seat}'s link` }),
    s.qr ? h("div", { class: "qr", role: "img", "aria-label": `QR code of seat ${s.seat}'s link` }) : null)));
  grid.querySelectorAll(".link").forEach((box, i) => {
    const qr = box.querySelector(".qr");
    if (qr) qr.innerHTML = links[i].qr;  // SVG made by the server from the link
    const svg = qr && qr.querySelector("svg");
    if (svg) svg.setAttribute("aria-hidden", "true");
  });
  return grid;
}

export function linksCard(links) {
  return h("section", { class: "card links", id: "seat-links" }, h("h2", {}, "Seat links"),
    h("p", { class: "muted" }, "Give each player their own link (or let them scan it). ",
      "Whoever has a link plays that seat: share it only with that player."),
    linkGrid(links));
}

// The Invite dialog: the links again, with a close button.
export function showInvite(dialog, links) {
  dialog.replaceChildren(h("h2", {}, "Invite: the seat links"),
    h("p", { class: "muted" }, "Each player opens their own link, or scans its code."),
    linkGrid(links),
    h("form", { method: "dialog" }, h("button", { id: "invite-close" }, "Close")));
  if (!dialog.open) dialog.showModal();
}
