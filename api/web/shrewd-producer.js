// Shrewd Producer: the seat's hand by suit, the revealed artists, each player's bid, band and songs.

import { h } from "./api.js";
import { tipOf } from "./texts.js";

const arr = (v) => (Array.isArray(v) ? v : []);

function scoutCard(card, names) {
  if (!card || typeof card !== "object") return h("span", { class: "card back" }, "?");
  const known = names.get(card.id, "scout_money");
  const suit = String(card.suit ?? known?.suit ?? "").toLowerCase();
  return h("span", { class: `card suit-${suit}`, ...tipOf(card.id, "scout_money") }, h("b", {}, `$${card.value ?? known?.value ?? "?"}`), known?.name ?? `${card.suit ?? ""}`);
}

function artist(a, names) {
  const known = names.get(a?.id, "artists");
  return h("span", { class: "card artist", ...tipOf(a?.id, "artists") }, h("b", {}, known?.name ?? a?.id ?? "?"), arr(a?.parts ?? known?.parts).join(" "), ` · ${a?.pt ?? known?.pt ?? "?"} pt`);
}

function song(s, names) {
  const known = names.get(s?.id, "songs");
  return h("span", { class: "card song", ...tipOf(s?.id, "songs") }, h("b", {}, known?.name ?? s?.name ?? s?.id), `Lv.${s?.level ?? known?.level ?? "?"} · ${arr(s?.requires ?? known?.requires).join(" ")} · ${s?.song_pt ?? known?.song_pt ?? "?"} pt`);
}

function scoutPlay(play, names) {
  if (!play) return "—";
  if (play.card) return scoutCard(play.card, names);
  return String(play.type ?? "played").replace(/_/g, " ");
}

/** Draws a Shrewd Producer view. */
export function render(view, { names, game, who = (seat) => `Seat ${seat}` }) {
  const toAct = arr(game?.to_act);
  const hand = view?.hand;
  return h("div", { class: "sp" },
    h("div", { class: "stats" },
      h("span", {}, "Round ", h("b", {}, view?.round ?? "?")),
      h("span", {}, "Lead ", h("b", {}, Number.isInteger(view?.lead) ? who(view.lead) : "?")),
      h("span", {}, "Lead suit ", h("b", {}, view?.lead_suit ?? "—")),
      h("span", {}, "Supply ", h("b", {}, `$${view?.supply ?? "?"}`)),
      h("span", {}, "Artist deck ", h("b", {}, view?.artist_deck ?? "?")),
      h("span", {}, "Scout deck ", h("b", {}, view?.scout_deck ?? "?"))),
    h("h4", {}, "Artists on offer"),
    h("div", { class: "row" }, arr(view?.artists_revealed).length ? arr(view.artists_revealed).map((a) => artist(a, names)) : h("span", { class: "nil" }, "none")),
    hand
      ? [
          h("h4", {}, "Your hand"),
          h("div", { class: "row hand" }, arr(hand.cards).map((c) => scoutCard(c, names))),
          arr(hand.choosing_from).length ? [h("h4", {}, "Choose one to keep"), h("div", { class: "row" }, arr(hand.choosing_from).map((c) => scoutCard(c, names)))] : null,
          hand.passing ? [h("h4", {}, "Passing"), h("div", { class: "row" }, scoutCard(hand.passing, names))] : null,
        ]
      : null,
    h("h4", {}, "Players"),
    h("div", { class: "players" }, arr(view?.players).map((p) =>
      h("div", { class: `player${toAct.includes(p.seat) ? " acting" : ""}${p.seat === view?.viewer ? " me" : ""}` },
        h("h3", {}, `${who(p.seat)}${p.seat === view?.lead ? " (lead)" : ""}${p.passed ? " · passed" : ""}`),
        h("div", { class: "stats" },
          h("span", {}, "Raise money ", h("b", {}, `$${p.raise_money ?? "?"}`)),
          h("span", {}, "Debts ", h("b", {}, p.debts ?? 0)),
          h("span", {}, "Scout cards ", h("b", {}, p.scout_cards ?? "?")),
          h("span", {}, "Raised ", h("b", {}, `$${p.raised ?? 0}`)),
          h("span", {}, "Bid ", h("b", {}, p.total_bid === null || p.total_bid === undefined ? "—" : `$${p.total_bid}`))),
        h("div", { class: "row" }, "Scout play: ", scoutPlay(p.scout_play, names)),
        h("h4", {}, "Band"),
        h("div", { class: "row" }, arr(p.artists).length ? arr(p.artists).map((a) => artist(a, names)) : h("span", { class: "nil" }, "no artist yet")),
        h("h4", {}, "Songs"),
        h("div", { class: "row" }, arr(p.songs).map((s) => h("span", { class: s.completed ? "done" : "" }, song(s.song, names), s.completed ? " ✓" : ""))),
      ))),
    h("h4", {}, "Open songs"),
    h("div", { class: "row" }, arr(view?.open_songs).map((s) => song(s, names))),
  );
}
