// Rock the World: the 20-space board round its edge, pawns and cutouts on it, each band, the star chip.

import { h } from "./api.js";

const arr = (v) => (Array.isArray(v) ? v : []);

/** Grid cell (row, column) of board space `n` (1 to 20) round a 6 by 6 grid, clockwise from the top left. */
function cell(n) {
  if (n <= 6) return [1, n];
  if (n <= 10) return [n - 5, 6];
  if (n <= 16) return [6, 17 - n];
  return [22 - n, 1];
}

function tokens(t) {
  return Object.entries(t && typeof t === "object" ? t : {}).map(([k, v]) => `${k} ${v}`).join(" · ");
}

/** Draws a Rock the World view. */
export function render(view, { names, game, who = (seat) => `Seat ${seat}` }) {
  const players = arr(view?.players);
  const acting = arr(game?.to_act);
  const spaces = arr(view?.board).map((space) => {
    const n = Number(space?.space);
    const [row, col] = cell(Number.isInteger(n) && n >= 1 && n <= 20 ? n : 1);
    const here = players.filter((p) => p.space === n);
    const el = h("div", { class: `space${space?.corner ? " corner" : ""}${space?.open ? " open" : ""}`, dataset: { space: n } },
      h("div", {}, h("span", { class: "num" }, n), " ", names.get(n, "spaces")?.name ?? space?.city_name ?? ""),
      space?.character ? h("div", { class: "character", title: space.character }, names.name(space.character, "characters")) : null,
      arr(space?.icons).length ? h("div", { class: "icons" }, arr(space.icons).join("/")) : null,
      arr(space?.cutouts).length ? h("div", {}, arr(space.cutouts).map((c) => h("span", { class: "cutout" }, `✂${c}`))) : null,
      h("div", { class: "pawns" }, here.map((p) => h("span", { class: `pawn ${p.colour ?? ""}`, title: `seat ${p.seat}` }, p.seat))),
    );
    el.style.gridRow = String(row);
    el.style.gridColumn = String(col);
    return el;
  });
  const centre = h("div", { class: "rtw-centre" },
    h("div", { class: "stats" },
      h("span", {}, "Last roll ", h("b", {}, view?.last_roll ?? "—")),
      h("span", {}, "Deck ", h("b", {}, view?.deck_count ?? "?")),
      h("span", {}, "Supply ", h("b", {}, tokens(view?.supply)))),
    view?.last_card ? h("div", {}, "Last card: ", names.name(typeof view.last_card === "object" ? view.last_card.id ?? JSON.stringify(view.last_card) : view.last_card)) : null,
    h("div", {}, "Star chip: ", view?.rocker === null || view?.rocker === undefined ? "unclaimed" : h("span", {}, h("span", { class: "star" }, "★"), ` ${who(view.rocker)}`)),
  );
  centre.style.gridRow = "2 / span 4";
  centre.style.gridColumn = "2 / span 4";
  return h("div", { class: "rtw" },
    h("div", { class: "rtw-board" }, spaces, centre),
    h("h4", {}, "Bands"),
    h("div", { class: "players" }, players.map((p) =>
      h("div", { class: `player colour-${p.colour ?? ""}${acting.includes(p.seat) ? " acting" : ""}${p.seat === view?.you ? " me" : ""}` },
        h("h3", {}, h("span", { class: `pawn ${p.colour ?? ""}` }, p.seat), ` ${who(p.seat)} · ${names.name(p.lead ?? "?", "leads")}${p.rocker ? " ★" : ""}${p.eliminated ? " · out" : ""}`),
        h("div", { class: "stats" },
          h("span", {}, "Space ", h("b", {}, p.space)),
          h("span", {}, "Cash ", h("b", {}, `$${p.cash}`)),
          h("span", {}, "Band value ", h("b", {}, p.band_value)),
          h("span", {}, "Turns ", h("b", {}, p.turns)),
          h("span", {}, "Tickets ", h("b", {}, tokens(p.tokens)))),
        h("div", { class: "row" }, arr(p.band).length ? arr(p.band).map((m) => h("span", { class: "card" }, names.name(typeof m === "object" ? m?.character ?? m?.id ?? "?" : m, "characters"))) : h("span", { class: "nil" }, "no band members yet")),
      ))),
  );
}
