// Dragging a tile from the hand onto an end, by mouse, touch or pen (pointer events).
//
// A press on a playable tile that moves a few pixels becomes a drag: a copy of
// the tile follows the pointer and every end the tile fits is lit.  Released
// over a lit end (or anywhere on the table for a lead), the move is played;
// released anywhere else, the copy slides back to the hand and nothing is
// played.  A press that does not move stays a click (click-then-click).

const THRESHOLD = 6;  // px a press moves before it is a drag

export function dragTiles(table) {
  const hand = table.root.querySelector("#hand");
  let drag = null;

  function end(e, cancelled) {
    if (!drag) return;
    const d = drag;
    drag = null;
    document.removeEventListener("pointermove", move, true);
    document.removeEventListener("pointerup", up, true);
    document.removeEventListener("pointercancel", cancel, true);
    table.dragging = null;
    if (!d.started) return;
    table.suppressClick = true;
    setTimeout(() => { table.suppressClick = false; }, 0);
    d.ghost.style.visibility = "hidden";
    const under = cancelled ? null : document.elementFromPoint(e.clientX, e.clientY);
    const target = under && under.closest && under.closest(".target");
    const board = under && under.closest && under.closest("#board");
    const options = table.view.legal.filter((m) => m.tile === d.tile);
    let chosen = null;
    if (target) chosen = options.find((m) => m.move === target.dataset.move) || null;
    else if (board && options.length === 1 && !options[0].arm) chosen = options[0];  // the lead
    table.root.classList.remove("dragging");
    if (chosen) {
      d.ghost.remove();
      table.dropped = { tile: d.tile, move: chosen.move };
      table.play(chosen);
      return;
    }
    // an illegal drop: the tile goes back where it came from
    table.dropped = { tile: d.tile, move: null };
    d.ghost.style.visibility = "visible";
    const home = d.button.getBoundingClientRect();
    const back = () => { d.ghost.remove(); };
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) back();
    else {
      d.ghost.style.transition = "transform .18s ease-in";
      d.ghost.style.transform = `translate(${home.left}px, ${home.top}px)`;
      d.ghost.addEventListener("transitionend", back, { once: true });
      setTimeout(back, 400);
    }
    table.selected = null;
    table.drawBoard();
    table.drawHand();
    if (!cancelled) table.status(`${d.label} does not go there: drop it on a lit end.`, "error");
  }

  hand.addEventListener("pointerdown", (e) => {
    const button = e.target.closest(".hand-tile");
    if (!button || drag || e.button > 0) return;
    const v = table.view;
    if (!v || !v.your_turn || table.sending || !button.classList.contains("playable")) return;
    drag = { id: e.pointerId, button, tile: button.dataset.tile, label: button.getAttribute("aria-label"),
      x: e.clientX, y: e.clientY, started: false, type: e.pointerType };
    document.addEventListener("pointermove", move, true);
    document.addEventListener("pointerup", up, true);
    document.addEventListener("pointercancel", cancel, true);
  });

  function move(e) {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.started) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < THRESHOLD) return;
      drag.started = true;
      const box = drag.button.getBoundingClientRect();
      drag.dx = drag.x - box.left;
      drag.dy = drag.y - box.top;
      drag.ghost = drag.button.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.removeAttribute("id");
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.ghost.style.width = `${box.width}px`;
      document.body.append(drag.ghost);
      drag.button.classList.add("lifted");
      table.root.classList.add("dragging");
      table.dragging = drag.tile;
      table.selected = drag.tile;  // every end it fits is lit
      table.drawBoard();
      table.status(`Drop ${drag.label} on a lit end.`, "turn");
    }
    drag.ghost.style.transform = `translate(${e.clientX - drag.dx}px, ${e.clientY - drag.dy}px)`;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    for (const t of table.root.querySelectorAll(".target.over")) t.classList.remove("over");
    const target = under && under.closest && under.closest(".target");
    if (target) target.classList.add("over");
    e.preventDefault();
  }
  function up(e) { if (drag && e.pointerId === drag.id) end(e, false); }
  function cancel(e) { if (drag && e.pointerId === drag.id) end(e, true); }
}
