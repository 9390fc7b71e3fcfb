// Rock the World: the 20-space board round its edge, pawns and cutouts on it, a legend of the
// cities' icons, each band, the star chip.

import { h } from "./api.js";
import { ruleLink, tipOf } from "./texts.js";

const arr = (v) => (Array.isArray(v) ? v : []);

/** The colours of a space's icons, in the order the view lists them. */
const ICON_COLOURS = ["red", "blue", "yellow", "green"];

/** Grid cell (row, column) of board space `n` (1 to 20) round a 6 by 6 grid, clockwise from the top left. */
function cell(n) {
  if (n <= 6) return [1, n];
  if (n <= 10) return [n - 5, 6];
  if (n <= 16) return [6, 17 - n];
  return [22 - n, 1];
}

/** Travel tokens (`{bus: 1, train: 0, plane: 2}`), each with its tooltip. */
function tokens(t, names) {
  return Object.entries(t && typeof t === "object" ? t : {}).map(([k, v], i) =>
    [i ? " · " : "", h("span", { class: "piece", ...tipOf(k, "travel_tokens") }, `${names.name(k, "travel_tokens")} ${v}`)]);
}

/** A space's icons: one pip per colour with its count. */
function icons(counts) {
  return h("div", { class: "icons" }, arr(counts).map((n, i) =>
    h("span", { class: `icon ${ICON_COLOURS[i] ?? ""}`, title: `${ICON_COLOURS[i] ?? "?"}: ${n}` }, n)));
}

/** What the board's marks mean, with the rules they rest on. */
function legend() {
  return h("div", { class: "legend" },
    h("span", {}, "Icons: ", ICON_COLOURS.map((c) => h("span", { class: `icon ${c}` }, c)),
      " the city's demand for each band colour; a gig earns band value × your colour's icons × the card's multiplier × $10,000 ", ruleLink("R1")),
    h("span", {}, h("span", { class: "swatch open" }), " open for gigs ", ruleLink("R26")),
    h("span", {}, h("span", { class: "swatch corner" }), " corner: two tokens may be bought ", ruleLink("R18")),
    h("span", {}, h("span", { class: "star" }, "★"), " the rocker ", ruleLink("R8")));
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
      h("div", { class: "piece", ...tipOf(n, "spaces") }, h("span", { class: "num" }, n), " ", names.get(n, "spaces")?.name ?? space?.city_name ?? ""),
      space?.character ? h("div", { class: "character piece", ...tipOf(space.character, "characters") }, names.name(space.character, "characters")) : null,
      arr(space?.icons).length ? icons(space.icons) : null,
      arr(space?.cutouts).length ? h("div", {}, arr(space.cutouts).map((c) => h("span", { class: "cutout" }, `✂${c}`))) : null,
      h("div", { class: "pawns" }, here.map((p) => h("span", { class: `pawn ${p.colour ?? ""}`, title: `seat ${p.seat}` }, p.seat))),
    );
    el.style.gridRow = String(row);
    el.style.gridColumn = String(col);
    return el;
  });
  const lastCard = view?.last_card && typeof view.last_card === "object" ? view.last_card.id : view?.last_card;
  const centre = h("div", { class: "rtw-centre" },
    h("div", { class: "stats" },
      h("span", {}, "Last roll ", h("b", {}, view?.last_roll ?? "—")),
      h("span", {}, "Deck ", h("b", {}, view?.deck_count ?? "?")),
      h("span", {}, "Supply ", h("b", {}, tokens(view?.supply, names)))),
    lastCard ? h("div", {}, "Last card: ", h("span", { class: "piece", ...tipOf(lastCard, "cards") }, names.name(lastCard, "cards"))) : null,
    h("div", {}, "Star chip: ", view?.rocker === null || view?.rocker === undefined ? "unclaimed" : h("span", {}, h("span", { class: "star" }, "★"), ` ${who(view.rocker)}`)),
  );
  centre.style.gridRow = "2 / span 4";
  centre.style.gridColumn = "2 / span 4";
  return h("div", { class: "rtw" },
    h("div", { class: "rtw-board" }, spaces, centre),
    legend(),
    h("h4", {}, "Bands"),
    h("div", { class: "players" }, players.map((p) =>
      h("div", { class: `player colour-${p.colour ?? ""}${acting.includes(p.seat) ? " acting" : ""}${p.seat === view?.you ? " me" : ""}` },
        h("h3", {}, h("span", { class: `pawn ${p.colour ?? ""}` }, p.seat), ` ${who(p.seat)} · `,
          h("span", { class: "piece", ...tipOf(p.lead, "leads") }, names.name(p.lead ?? "?", "leads")),
          `${p.rocker ? " ★" : ""}${p.eliminated ? " · out" : ""}`),
        h("div", { class: "stats" },
          h("span", {}, "Space ", h("b", {}, p.space)),
          h("span", {}, "Cash ", h("b", {}, `$${p.cash}`)),
          h("span", {}, "Band value ", h("b", {}, p.band_value)),
          h("span", {}, "Turns ", h("b", {}, p.turns)),
          h("span", {}, "Tickets ", h("b", {}, tokens(p.tokens, names)))),
        h("div", { class: "row" }, arr(p.band).length
          ? arr(p.band).map((m) => {
              const id = typeof m === "object" ? m?.character ?? m?.id ?? "?" : m;
              return h("span", { class: "card", ...tipOf(id, "characters") }, names.name(id, "characters"));
            })
          : h("span", { class: "nil" }, "no band members yet")),
      ))),
  );
}
