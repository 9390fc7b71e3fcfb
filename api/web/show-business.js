// Show Business: band boards, the charts with their fields, the city map with concert tokens,
// the tracks, the dice and the rondel.

import { h } from "./api.js";
import { tipOf } from "./texts.js";

const arr = (v) => (Array.isArray(v) ? v : []);

/** A market's fields 1 to `size` from the view's list of its occupied fields (`{field, ...}`):
 * what lies on each field (its `key`), or null for an empty one. */
function marketFields(occupied, size, key) {
  const on = new Map(arr(occupied).map((o) => [o?.field, o?.[key]]));
  return Array.from({ length: size }, (_, i) => on.get(i + 1) ?? null);
}

/** The blank face of a die, as the view's `dice` names it. */
const BLANK = "blank";

function token(t, names) {
  if (!t || typeof t !== "object") return h("span", { class: "token", ...tipOf(t, "concert_tokens") }, names.name(t, "concert_tokens"));
  return h("span", { class: `token colour-${t.colour ?? ""}`, ...tipOf(t.id, "concert_tokens") }, `${t.colour ?? ""} ${t.value ?? ""}`);
}

function artist(a, names) {
  const known = names.get(a?.id, "artists");
  return h("span", { class: `card colour-${a?.style ?? ""}`, ...tipOf(a?.id, "artists") },
    h("b", {}, known?.name ?? a?.name ?? a?.id),
    h("span", {}, `${a?.style ?? ""}${a?.alternative ? ` / ${a.alternative}` : ""}${a?.side_b ? " (B side)" : ""}`),
    h("span", {}, `fields ${arr(a?.fields).join(", ")} · independence ${a?.independence ?? "?"}`),
    arr(a?.tokens).length ? h("span", {}, arr(a.tokens).map((t) => token(t, names))) : null);
}

/** A song on a band board or the charts: its number, its owner and, when the viewer may see
 * them, its fields in words. */
function song(s, who) {
  if (!s || typeof s !== "object") return h("span", { class: "card" }, `Song ${s ?? "?"}`);
  const owner = Number.isInteger(s.owner) ? who(s.owner) : "?";
  const words = (v) => String(v ?? "?").replaceAll("_", " ");
  const c = s.content;
  const content = c && typeof c === "object"
    ? `${words(c.style)} · ${words(c.lyrics)} · ${words(c.tempo)} · ${words(c.volume)} · experience ${c.experience ?? "?"}`
    : "fields hidden";
  return h("span", { class: "card song", dataset: { song: String(s.id ?? "") } }, h("b", {}, `Song ${s.id ?? "?"}`), h("span", {}, owner), h("span", {}, content));
}

/** Draws a Show Business view. */
export function render(view, { names, game, who = (seat) => `Seat ${seat}` }) {
  const acting = arr(game?.to_act);
  const cities = new Map();
  for (const t of arr(view?.map_tokens)) {
    const city = String(t?.city ?? "?");
    cities.set(city, [...(cities.get(city) ?? []), t]);
  }
  const catalogued = names.kind("cities").map((c) => String(c.id));
  const knownCities = [...new Set([...catalogued, ...arr(view?.concert_market).map((o) => String(o?.token?.city ?? "?")), ...[...cities.keys()].sort()])];
  const map = h("div", { class: "sb-map" }, knownCities.map((c) =>
    h("div", { class: "city", dataset: { city: c } }, h("b", { class: "piece", ...tipOf(c, "cities") }, names.name(c, "cities")), h("div", {}, arr(cities.get(c)).map((t) => token(t, names))))));
  const fields = arr(view?.chart_fields);
  const chart = h("div", { class: "chart" }, arr(view?.chart).map((entries, i) =>
    h("div", { class: "field" }, h("b", {}, `#${i + 1}`), fields[i] ? ` power ${fields[i].power} · cost ${fields[i].cost}` : "",
      h("div", {}, arr(entries).map((e) => song(e, who))))));
  const rondelFields = names.kind("event_rondel_fields");
  const rondel = rondelFields.length
    ? h("div", { class: "rondel" }, rondelFields.map((f) => h("span", { class: f.id === view?.rondel ? "current" : "", ...tipOf(f.id, "event_rondel_fields") }, f.name ?? f.id)))
    : h("div", { class: "rondel" }, h("span", { class: "current" }, view?.rondel ?? "?"));
  return h("div", { class: "sb" },
    h("div", { class: "stats" },
      h("span", {}, "Rondel ", h("b", {}, names.name(view?.rondel ?? "?", "event_rondel_fields"))),
      h("span", {}, "Active ", h("b", {}, Number.isInteger(view?.active) ? who(view.active) : "?")),
      h("span", {}, "Order ", h("b", {}, arr(view?.order).join(" → "))),
      h("span", {}, "Quarters ended ", h("b", {}, arr(view?.quarter_ends).filter(Boolean).length)),
      view?.last_turn ? h("span", {}, h("b", {}, "last turn")) : null),
    h("h4", {}, "Rondel"),
    rondel,
    h("h4", {}, "Dice"),
    h("div", { class: "row" }, arr(view?.dice).map((d, i) => d === BLANK || d === null || d === undefined
      ? h("span", { class: "die", title: "blank" }, "–")
      : h("span", { class: "die", ...tipOf(d, "die_faces", { die: i }) }, names.name(d, "die_faces")))),
    h("h4", {}, "Band boards"),
    h("div", { class: "players" }, arr(view?.players).map((p) =>
      h("div", { class: `player${acting.includes(p.seat) ? " acting" : ""}${p.seat === view?.me ? " me" : ""}` },
        h("h3", {}, `${who(p.seat)} · ${p.colour ?? ""}${p.bankrupt !== null && p.bankrupt !== undefined ? " · bankrupt" : ""}`),
        h("div", { class: "track" },
          h("span", {}, "Cash ", h("b", {}, p.cash)),
          h("span", {}, "Popularity ", h("b", {}, p.popularity)),
          h("span", {}, "Satisfaction ", h("b", {}, p.satisfaction)),
          h("span", {}, "Time ", h("b", {}, p.time)),
          h("span", {}, "Hand ", h("b", {}, p.hand_count)),
          p.scandal ? h("span", {}, h("b", {}, "scandal")) : null,
          h("span", {}, "Car ", h("b", {}, p.car ?? "?"))),
        h("div", { class: "row" }, arr(p.band).map((a) => artist(a, names))),
        arr(p.hand).length ? [h("h4", {}, "Hand"), h("div", { class: "row" }, arr(p.hand).map((c) => {
          const id = typeof c === "object" ? c?.id : c;
          return h("span", { class: "card", ...tipOf(id, "influence_cards") }, names.name(id, "influence_cards"));
        }))] : null,
        arr(p.influence_field).length ? [h("h4", {}, "Influence field"), h("div", { class: "row" }, arr(p.influence_field).map((c) => {
          const id = typeof c === "object" ? c?.id : c;
          return h("span", { class: "card", ...tipOf(id, "influence_cards") }, names.name(id, "influence_cards"));
        }))] : null,
        arr(p.songs).length ? [h("h4", {}, "Songs"), h("div", { class: "row" }, arr(p.songs).map((s) => song(s, who)))] : null,
        h("div", { class: "stats" }, "Blank songs: ", arr(p.blanks).join(" ")),
      ))),
    h("h4", {}, "Charts"),
    chart,
    h("h4", {}, "City map"),
    map,
    h("h4", {}, "Concert market"),
    h("div", { class: "row" }, marketFields(view?.concert_market, 5, "token").map((t) => (t === null ? h("span", { class: "token" }, "–") : token(t, names)))),
    h("h4", {}, "Markets"),
    h("div", { class: "row" }, "Artists: ", marketFields(view?.artist_market, 4, "artist").map((a) => h("span", { class: "card", ...tipOf(a, "artists") }, a === null || a === undefined ? "–" : names.name(a, "artists")))),
    h("div", { class: "row" }, "Influence: ", marketFields(view?.influence_market, 4, "card").map((c) => h("span", { class: "card", ...tipOf(c, "influence_cards") }, c === null || c === undefined ? "–" : names.name(c, "influence_cards")))),
  );
}
