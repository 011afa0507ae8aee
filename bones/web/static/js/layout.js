// Where each tile of a layout lies on the table, and where each open end would take the next.
//
// Input: the server's layout ({lead, arms: [{arm, name, open, tiles: [{near, far, double,
// cross, last}]}]}).  Units are half a tile.  The lead sits at the origin, W runs left,
// E right; a spinner's cross arms leave its long sides (N up, S down for the first one;
// for a spinner in an arm, up and down across a horizontal arm, left and right across a
// vertical one, so N2 is never drawn below S2).  An arm runs
// straight until it would leave the box (`maxX`, `maxY`) or touch another tile, then it
// turns - always clockwise first, so the arms wind like a pinwheel and keep apart.
// Each open end gets the rectangle the next tile would take and its direction (`dir`).

const rotCW = ([dx, dy]) => [-dy, dx];
const rotCCW = ([dx, dy]) => [dy, -dx];
const EPS = 0.01;

function overlaps(a, b) {
  return a.x < b.x + b.w - EPS && b.x < a.x + a.w - EPS && a.y < b.y + b.h - EPS && b.y < a.y + a.h - EPS;
}

// The rectangle of a tile laid from `from` along `dir`: `len` along, `wid` across.
function rectAlong(from, dir, len, wid) {
  const cx = from[0] + dir[0] * len / 2, cy = from[1] + dir[1] * len / 2;
  const w = dir[0] !== 0 ? len : wid, h = dir[0] !== 0 ? wid : len;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

export function computeLayout(layout, { maxX = 9, maxY = 6 } = {}) {
  const placed = [];  // {x, y, w, h, horizontal, first, second, double, spinner, last, arm}
  const ends = {};    // arm name -> rect a next tile would take, with its pip
  if (!layout || !layout.lead) return { placed, ends, box: { x: -3, y: -2, w: 6, h: 4 } };
  const rects = [];
  const free = (r) => !rects.some((o) => overlaps(o, r));
  const inside = (r, dir) => (dir[0] !== 0 ? r.x >= -maxX - EPS && r.x + r.w <= maxX + EPS
                                          : r.y >= -maxY - EPS && r.y + r.h <= maxY + EPS);

  const lead = layout.lead;
  const arms = layout.arms;
  const leadRect = lead.double ? { x: -0.5, y: -1, w: 1, h: 2 } : { x: -1, y: -0.5, w: 2, h: 1 };
  rects.push(leadRect);
  placed.push({ ...leadRect, horizontal: !lead.double, first: lead.near, second: lead.far,
    double: lead.double, spinner: !!lead.cross, last: lead.last, arm: "lead" });
  const halfLead = lead.double ? 0.5 : 1;
  // each queued arm: its index, where it starts and its direction; `last` describes the
  // tile it leaves from (for turns): along and across sizes
  const queue = [
    { arm: 0, at: [-halfLead, 0], dir: [-1, 0], last: null },
    { arm: 1, at: [halfLead, 0], dir: [1, 0], last: null },
  ];
  const cross = (k, at, dir) => {
    // a spinner's cross arm's first place is kept free while the arms before it are
    // laid (so they turn away from it): its tile or its open end goes there
    const a = arms[k];
    const hold = a && (a.tiles.length || a.open >= 0) ? rectAlong(at, dir, 2, 1) : null;
    if (hold) rects.push(hold);
    queue.push({ arm: k, at, dir, last: null, hold });
  };
  if (lead.cross) {
    cross(lead.cross[0], [0, -1], [0, -1]);
    cross(lead.cross[1], [0, 1], [0, 1]);
  }

  // Where the next tile of an arm goes: straight, or around a corner.
  function next(state, len, wid) {
    const straight = rectAlong(state.at, state.dir, len, wid);
    if (state.last === null || (inside(straight, state.dir) && free(straight))) {
      return { rect: straight, dir: state.dir, at: state.at };
    }
    for (const turn of [rotCW(state.dir), rotCCW(state.dir)]) {
      // beside the last half of the tile before, on its side towards `turn`
      const back = 0.5;
      const start = [state.at[0] - state.dir[0] * back + turn[0] * state.last.wid / 2,
                     state.at[1] - state.dir[1] * back + turn[1] * state.last.wid / 2];
      const r = rectAlong(start, turn, len, wid);
      if (free(r) && inside(r, turn)) return { rect: r, dir: turn, at: start };
    }
    for (const turn of [rotCW(state.dir), rotCCW(state.dir)]) {
      const start = [state.at[0] - state.dir[0] * 0.5 + turn[0] * state.last.wid / 2,
                     state.at[1] - state.dir[1] * 0.5 + turn[1] * state.last.wid / 2];
      const r = rectAlong(start, turn, len, wid);
      if (free(r)) return { rect: r, dir: turn, at: start };
    }
    return { rect: straight, dir: state.dir, at: state.at };
  }

  while (queue.length) {
    const state = queue.shift();
    const arm = arms[state.arm];
    if (state.hold) rects.splice(rects.indexOf(state.hold), 1);
    if (!arm) continue;
    for (const t of arm.tiles) {
      const crosswise = t.double;
      const len = crosswise ? 1 : 2, wid = crosswise ? 2 : 1;
      const { rect, dir, at } = next(state, len, wid);
      rects.push(rect);
      const horizontal = rect.w > rect.h;
      // near half towards where it was laid from
      let first = t.near, second = t.far;
      if ((horizontal && dir[0] < 0) || (!horizontal && dir[1] < 0)) [first, second] = [t.far, t.near];
      placed.push({ ...rect, horizontal, first, second, double: t.double, spinner: !!t.cross,
        last: t.last, arm: arm.name });
      state.dir = dir;
      state.at = [at[0] + dir[0] * len, at[1] + dir[1] * len];
      state.last = { len, wid };
      if (t.cross) {
        const cx = rect.x + rect.w / 2, cy = rect.y + rect.h / 2;
        // the spinner's first cross arm (N2...) goes up, or left across a vertical arm, and
        // the second (S2...) down or right, in every arm: their labels read upright
        let [first, second] = [rotCCW(dir), rotCW(dir)];
        if (first[1] > second[1] || first[0] > second[0]) [first, second] = [second, first];
        cross(t.cross[0], [cx + first[0], cy + first[1]], first);
        cross(t.cross[1], [cx + second[0], cy + second[1]], second);
      }
    }
    if (arm.open >= 0) {
      // the place the next tile would take is kept free: no later arm lays a tile
      // on it, so two ends never share a spot
      const { rect, dir } = next(state, 2, 1);
      rects.push(rect);
      ends[arm.name] = { ...rect, pip: arm.open, name: arm.name, dir };
    }
  }
  const all = placed.concat(Object.values(ends));
  const x0 = Math.min(...all.map((r) => r.x)) - 0.6, y0 = Math.min(...all.map((r) => r.y)) - 0.6;
  const x1 = Math.max(...all.map((r) => r.x + r.w)) + 0.6, y1 = Math.max(...all.map((r) => r.y + r.h)) + 0.6;
  return { placed, ends, box: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } };
}
