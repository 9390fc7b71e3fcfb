// Calls to Roadie's public API, the page's token storage, and a small DOM builder.

/** A refused call: the problem's `detail` is what the page shows. */
export class Problem extends Error {
  constructor(status, body) {
    const detail = body && typeof body === "object" && typeof body.detail === "string"
      ? body.detail
      : `the server answered ${status}`;
    super(detail);
    this.status = status;
    this.code = body && typeof body === "object" ? body.code : undefined;
  }
}

/** How far the server's clock is ahead of this browser's, in ms, from answers' `Date` headers. */
let serverAhead = 0;

/** Unix ms by the server's clock (within a second): deadlines are set by it, not by this browser. */
export function serverNow() {
  return Date.now() + serverAhead;
}

function learnServerClock(response) {
  const date = Date.parse(response.headers.get("Date") ?? "");
  if (!Number.isFinite(date)) return;
  // A `Date` header is whole seconds: its mid-second is the best guess of the server's time.
  const ahead = date + 500 - Date.now();
  serverAhead = Math.abs(ahead) > 1000 ? ahead : 0;
}

/** One call: `{status, etag, json}`; a 4xx or 5xx throws a Problem. */
export async function api(path, { method = "GET", token, body, headers = {}, signal } = {}) {
  const sent = { Accept: "application/json", ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    signal,
  });
  learnServerClock(response);
  let json = null;
  if (response.status !== 204 && response.status !== 304) {
    const text = await response.text();
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
  }
  if (response.status >= 400) throw new Problem(response.status, json);
  return { status: response.status, etag: response.headers.get("ETag"), json };
}

/** The seat a token opens, read from its payload (the server checks its signature). */
export function seatOf(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), "=")));
    return Number.isInteger(claims.seat) ? claims.seat : null;
  } catch {
    return null;
  }
}

/** Seat tokens this tab holds for game `id`, by seat. */
export function heldTokens(id) {
  try {
    const held = JSON.parse(sessionStorage.getItem(`roadie:${id}`) ?? "{}");
    return held && typeof held === "object" ? held : {};
  } catch {
    return {};
  }
}

/** Keeps `token` (a seat's, or the player token of the player sitting in `seat`) for game `id`
 * in this tab. */
export function holdToken(id, token, seat = seatOf(token)) {
  if (!Number.isInteger(seat) || typeof token !== "string" || !token) return null;
  const held = heldTokens(id);
  held[seat] = token;
  sessionStorage.setItem(`roadie:${id}`, JSON.stringify(held));
  return seat;
}

/** Where this tab keeps the player token an app gave its player. */
const PLAYER_KEY = "roadie:player";

/** The app's player token this tab holds, or `null`: it names the player in the lobby (ratings,
 * the player's games) and opens the seat the player holds at a table. */
export function playerToken() {
  const token = sessionStorage.getItem(PLAYER_KEY);
  return token ? token : null;
}

/** Keeps `token` as this tab's player token; an empty one forgets it. */
export function keepPlayerToken(token) {
  const trimmed = String(token ?? "").trim();
  if (trimmed) sessionStorage.setItem(PLAYER_KEY, trimmed);
  else sessionStorage.removeItem(PLAYER_KEY);
}

/** `+12`, `−5` or `±0`: a rating's change. */
export function signed(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${-delta}`;
  return "\u00b10";
}

/** Forgets this tab's token for `seat` of game `id` (a resigned seat's token no longer works). */
export function dropToken(id, seat) {
  const held = heldTokens(id);
  delete held[seat];
  sessionStorage.setItem(`roadie:${id}`, JSON.stringify(held));
}

/** Who sits in a seat, from one of the game's `occupants`: a name, `open`, or `greedy bot`. */
export function occupantText(info) {
  if (!info || typeof info !== "object") return "";
  if (info.occupant === "bot") return `${info.level ?? "a"} bot`;
  if (info.occupant === "open") return "open";
  return typeof info.name === "string" && info.name ? info.name : "player";
}

/** Most characters (grapheme clusters) of a player's name a page shows; the rest is `…`. */
export const NAME_SHOWN = 20;

/** A run of combining marks beyond the first three: any script needs fewer in a row. */
const MARKS_BEYOND = /(\p{M}{3})\p{M}+/gu;

/** Explicit direction controls (embeddings, overrides, isolates, marks): never part of a name's script. */
const DIRECTION_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `name` as a page shows it: without direction controls, with runs of combining marks cut to
 * three, and at most [NAME_SHOWN] characters. */
export function shownName(name) {
  const plain = String(name)
    .replace(DIRECTION_CONTROLS, "")
    .replace(MARKS_BEYOND, "$1");
  const characters = typeof Intl.Segmenter === "function"
    ? Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(plain), (s) => s.segment)
    : Array.from(plain);
  return characters.length > NAME_SHOWN ? `${characters.slice(0, NAME_SHOWN).join("")}…` : plain;
}

/** A player's name as an element: a `<bdi>`, so that a right-to-left name cannot reorder the
 * text around it, showing [shownName] with the whole name as its title. */
export function nameNode(name) {
  return h("bdi", { class: "player-name", title: String(name) }, shownName(name));
}

/** Who sits in a seat as a node: the player's name as [nameNode], else [occupantText]. */
export function occupantNode(info) {
  return info?.occupant === "player" && typeof info.name === "string" && info.name
    ? nameNode(info.name)
    : occupantText(info);
}

/** `Seat 1 · Ann`: the seat and who sits in it, when `occupants` says. */
export function seatName(seat, occupants) {
  const info = Array.isArray(occupants) ? occupants.find((o) => o?.seat === seat) : null;
  const who = occupantText(info);
  return who ? `Seat ${seat} · ${who}` : `Seat ${seat}`;
}

/**
 * The ruleset's component catalogue (`GET /v1/rulesets/{slug}/components`) as a lookup by id;
 * ids the catalogue does not hold show as they are.
 */
export async function catalogue(slug) {
  const byId = new Map();
  const described = new Map();
  const byKind = new Map();
  const inKind = new Map();
  try {
    const { json } = await api(`/v1/rulesets/${encodeURIComponent(slug)}/components`);
    const kinds = json && typeof json.components === "object" && json.components ? json.components : {};
    for (const [kind, items] of Object.entries(kinds)) {
      if (!Array.isArray(items)) continue;
      byKind.set(kind, items);
      for (const item of items) {
        if (item && (typeof item.id === "string" || typeof item.id === "number")) {
          byId.set(String(item.id), { kind, ...item });
          inKind.set(`${kind}\u0000${item.id}`, { kind, ...item });
          if (typeof item.text === "string" && !described.has(String(item.id))) described.set(String(item.id), { kind, ...item });
        }
      }
    }
  } catch {
    // No catalogue (404) or an unreadable one: raw ids.
  }
  const find = (id, kind) => (kind ? inKind.get(`${kind}\u0000${id}`) : undefined) ?? byId.get(String(id)) ?? null;
  return {
    /** The component with this id, of `kind` first when given. */
    get: find,
    name: (id, kind) => find(id, kind)?.name ?? String(id),
    kind: (kind) => byKind.get(kind) ?? [],
    /** The first component with this id that has a `text`, whatever its kind. */
    withText: (id) => described.get(String(id)) ?? null,
    size: byId.size,
  };
}

/** `h("div", {class: "x"}, child, ...)`: an element; strings become text, never HTML. */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith("svg:")
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Shows `message` in the page's error line, or hides it. */
export function showError(message) {
  const el = document.getElementById("error");
  if (!el) return;
  el.textContent = message ?? "";
  el.hidden = !message;
}

/** Replaces the children of `el`; arrays are flattened and strings become text. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
