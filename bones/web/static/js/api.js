// The JSON API, as the page uses it.  Keys travel only in the Authorization header.

const HOST_KEY = "bones.host";
const SEATS = "bones.seats";

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export function hostKey() { return localStorage.getItem(HOST_KEY) || ""; }
export function setHostKey(key) { localStorage.setItem(HOST_KEY, key); }

export function seatKeys() {
  try { return JSON.parse(localStorage.getItem(SEATS) || "{}"); } catch { return {}; }
}
export function rememberSeat(game, seat, key) {
  const all = seatKeys();
  all[game] = { seat, key };
  localStorage.setItem(SEATS, JSON.stringify(all));
}
export function seatKey(game) { return seatKeys()[game] || null; }

export async function call(method, path, { body, key, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (key) headers.Authorization = `Bearer ${key}`;
  const init = { method, headers, signal };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, "the server cannot be reached (is bones serve running?)");
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  }
  return data;
}

export const host = (method, path, body) => call(method, path, { body, key: hostKey() });
