// Words for a screen reader: tiles as "five–three", ends, moves and the table
// read end by end.  Everything here is built from the seat's own view: what the
// server sends that seat, never anything else.

const WORDS = ["blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
  "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen"];

export const pipWord = (n) => WORDS[n] ?? String(n);

// "five–three" (the higher half first), "double five".
export function tileWords(a, b) {
  const hi = Math.max(a, b), lo = Math.min(a, b);
  return hi === lo ? `double ${pipWord(hi)}` : `${pipWord(hi)}–${pipWord(lo)}`;
}

// A tile name as the server writes it ("3-5") in words.
export function nameWords(name) {
  const m = /^(\d+)-(\d+)$/.exec(name || "");
  return m ? tileWords(Number(m[1]), Number(m[2])) : name;
}

const ARMS = { W: "west", E: "east", N: "north", S: "south" };

// "west end" / "north 2 end" for an arm name.
export function armWords(arm) {
  if (!arm) return "";
  const m = /^([WENS])(\d*)$/.exec(arm);
  return m ? `${ARMS[m[1]]}${m[2] ? ` ${m[2]}` : ""}` : arm;
}

// A move in notation ("5-3@E", "6-6", "draw") in words.
export function moveWords(text) {
  if (text === "draw" || text === "pass") return text;
  const [tile, arm] = String(text).split("@");
  return arm ? `${nameWords(tile)} on the ${armWords(arm)} end` : nameWords(tile);
}

// The table read end by end: "west end shows five; east end shows three. Count 8."
export function tableWords(view) {
  const ends = view.ends || [];
  if (!view.layout || !view.layout.lead) return "The table is empty: the lead opens it.";
  const parts = ends.map((e) => `${armWords(e.arm)} end shows ${pipWord(e.pip)}`);
  const tiles = 1 + view.layout.arms.reduce((n, a) => n + a.tiles.length, 0);
  return `${tiles} tile${tiles === 1 ? "" : "s"} on the table. ${parts.join("; ") || "no open end"}. ` +
    `Count ${view.count}.`;
}

// One event of the hand's log, spoken: "Seat 1 plays five–three on the east end: count 8, scores 5."
// `trains`: a train layout's play, spoken by its train ("on T2") and without a count.
export function eventWords(e, trains = false) {
  const you = e.who === "You";
  if (e.kind === "draw") {
    const what = e.drew ? tileWords(e.drew.a, e.drew.b) : "a tile";
    return `${e.who} ${you ? "draw" : "draws"} ${what}.`;
  }
  if (e.kind === "pass") return `${e.who} ${you ? "pass" : "passes"}.`;
  if (trains) {
    const [tile, train] = String(e.move).split("@");
    return `${e.who} ${you ? "play" : "plays"} ${nameWords(tile)}${train ? ` on ${train}` : ""}.`;
  }
  let text = `${e.who} ${you ? "play" : "plays"} ${moveWords(e.move)}: count ${e.count}`;
  if (e.claim !== null && e.claim !== undefined) text += `, claimed ${e.claim}`;
  else if (e.points) text += `, scores ${e.points}`;
  return `${text}.`;
}
