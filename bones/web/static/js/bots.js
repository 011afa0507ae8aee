// The bots a seat may be given, as the server offers them (GET /api/bots,
// "offered": bones.web.offered): the levels first ("Beginner" ... "Expert"),
// then the other bots, each by its plain label with the technical name as a
// detail and a sentence on how it plays.  The page holds no list of its own.

import { h } from "./dom.js";

// The <option>s of a bot picker, grouped: the levels, then the others.
export function botOptions(offered, pick) {
  const option = (o) => h("option", { value: o.bot, selected: o.bot === pick, title: o.description,
    "data-level": o.level || null }, `${o.label} (${o.detail})`);
  const levels = offered.filter((o) => o.level);
  const others = offered.filter((o) => !o.level);
  if (!levels.length || !others.length) return offered.map(option);
  return [h("optgroup", { label: "By level, weakest first" }, levels.map(option)),
    h("optgroup", { label: "Other bots" }, others.map(option))];
}

// The level of a bot text ("Expert"), or null.
export function levelOf(offered, bot) {
  const o = offered.find((x) => x.bot === bot && x.level);
  return o ? o.level : null;
}
