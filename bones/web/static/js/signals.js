// Knowing it is your turn, and the table's sounds.
//
// * The tab's title and icon say so ("● Your turn — bones", a dot on the icon).
// * A phone vibrates once when a turn begins, where the browser allows it.
// * A browser notification when the tab is hidden, if the player allowed them
//   with the page's one button (never asked for on page load).
// * Sounds generated in the page (WebAudio, no audio file): a turn and a
//   score.  Off by default; one switch, remembered in this browser.
// Nothing here names a tile: a notification says whose turn it is and where.

const SOUND_KEY = "bones.sound";
const BASE_TITLE = "bones: dominoes at the table";
const TURN_TITLE = "● Your turn — bones";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";

// What the page sent out, for tests and the curious (never a tile).
window.bonesSignals = window.bonesSignals || { sounds: [], notifications: [], vibrations: 0 };

export const soundOn = () => localStorage.getItem(SOUND_KEY) === "on";
export function setSound(on) { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); }

let audio = null;
function tones(notes) {
  if (!soundOn()) return;
  window.bonesSignals.sounds.push(notes.map((n) => n[0]).join(","));
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const t0 = audio.currentTime + 0.01;
    notes.forEach(([freq, start, length]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.05);
    });
  } catch { /* no audio here: the switch stays, nothing sounds */ }
}

export const turnSound = () => tones([[660, 0, 0.12], [880, 0.14, 0.16]]);
export const scoreSound = () => tones([[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.18]]);

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

// The title and icon for a view (called on every render).
export function showTurn(yourTurn) {
  document.title = yourTurn ? TURN_TITLE : BASE_TITLE;
  setIcon(yourTurn ? TURN_ICON : ICON);
}

export function resetTurn() { showTurn(false); }

export const canNotify = () => "Notification" in window;
export const notifyAsked = () => canNotify() && Notification.permission !== "default";

// The one click that asks for notifications.
export async function askNotify() {
  if (!canNotify()) return "unsupported";
  try { return await Notification.requestPermission(); } catch { return "denied"; }
}

// A turn has begun: vibrate once, sound, and notify if the tab is hidden.
export function turnBegins(text) {
  turnSound();
  if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) {
    try { if (navigator.vibrate(200)) window.bonesSignals.vibrations += 1; } catch { /* not allowed */ }
  }
  if (document.hidden && canNotify() && Notification.permission === "granted") {
    try {
      const n = new Notification("Your turn — bones", { body: text, tag: "bones-turn", icon: "/static/icon-192.png" });
      window.bonesSignals.notifications.push({ title: "Your turn — bones", body: text });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* notifications are not allowed here */ }
  }
}
