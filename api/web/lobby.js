// The lobby: pick a ruleset, its options, who sits in each seat and a clock, create a game and
// share each player's link; join an open seat of someone else's game; or "Play now": wait in the
// matchmaking queue for the chosen game and be seated with strangers (or bots, after a wait).
// With a player token from an app, the lobby acts as that player (the app's open games, games
// created, tickets and seats joined are its own) and shows the player's ratings, its games and
// the chosen ruleset's leaderboard in the app.

import { api, fill, h, holdToken, keepPlayerToken, nameNode, occupantNode, playerToken, showError } from "./api.js";
import { machineList } from "./machine.js";

const select = document.getElementById("ruleset");
const seats = document.getElementById("seats");
const optionsBox = document.getElementById("options");
const rules = document.getElementById("rules");
const created = document.getElementById("created");
const seatRows = document.getElementById("seat-rows");
const openList = document.getElementById("open-list");
let schemas = null;
let current = null;
/** Each ruleset's title, by slug. */
const titles = new Map();

async function openapiSchemas() {
  if (schemas === null) {
    try {
      schemas = (await api("/api-docs/openapi.json")).json?.components?.schemas ?? {};
    } catch {
      schemas = {};
    }
  }
  return schemas;
}

function optionField(name, fallback, schema) {
  const id = `option-${name}`;
  const caption = name.replace(/_/g, " ");
  const choices = schema?.enum ?? schema?.oneOf?.flatMap((s) => s?.enum ?? []) ?? [];
  let input;
  if (typeof fallback === "boolean") {
    input = h("input", { id, name, type: "checkbox", checked: fallback, dataset: { kind: "boolean" } });
  } else if (choices.length && choices.every((c) => typeof c === "string")) {
    input = h("select", { id, name, dataset: { kind: "string" } }, choices.map((c) => h("option", { value: c, selected: c === fallback }, c)));
  } else if (typeof fallback === "number") {
    input = h("input", { id, name, type: "number", value: fallback, dataset: { kind: "number" } });
  } else if (typeof fallback === "string") {
    input = h("input", { id, name, type: "text", value: fallback, dataset: { kind: "string" } });
  } else {
    input = h("input", { id, name, type: "text", placeholder: fallback === null ? "default" : "", value: fallback === null ? "" : JSON.stringify(fallback), dataset: { kind: "json" } });
  }
  const text = schema?.description ? h("small", {}, schema.description) : null;
  return h("label", { class: "option" }, caption, input, text);
}

async function choose(slug) {
  showError(null);
  try {
    const { json } = await api(`/v1/rulesets/${encodeURIComponent(slug)}`);
    current = json;
    const min = json?.seats?.min ?? 1;
    const max = json?.seats?.max ?? min;
    seats.min = min;
    seats.max = max;
    if (!(Number(seats.value) >= min && Number(seats.value) <= max)) seats.value = min;
    drawSeatRows();
    const all = await openapiSchemas();
    const optionSchema = all?.[json?.schemas?.options]?.properties ?? {};
    fill(optionsBox, 
      h("legend", {}, "Options"),
      Object.entries(json?.options ?? {}).map(([name, fallback]) => optionField(name, fallback, optionSchema[name])),
    );
    rules.hidden = false;
    fill(rules, h("h2", {}, `${json?.title ?? slug}: phases`), machineList(json?.machine, null));
    document.body.dataset.ruleset = slug;
  } catch (e) {
    showError(e.message);
  }
  await Promise.all([refreshOpen(), loadBoard(false)]);
  markMyRating();
}

/** Seat kinds a creation offers: a value of a row's select, and how it reads. */
const SEAT_KINDS = [
  ["player", "Player with a link"],
  ["open", "Open: anyone may join from the lobby"],
  ["random", "Bot: random"],
  ["greedy", "Bot: greedy"],
  ["expert", "Bot: expert (thinks a moment each turn)"],
];

function seatRow(seat, kept) {
  const kind = h("select", { id: `seat-${seat}-kind`, class: "seat-kind", "aria-label": `Seat ${seat}` },
    SEAT_KINDS.map(([value, text]) => h("option", { value }, text)));
  kind.value = kept?.kind ?? "player";
  const name = h("input", {
    id: `seat-${seat}-name`, class: "seat-name", type: "text", maxlength: 32,
    placeholder: `name (optional): Seat ${seat}`, "aria-label": `Seat ${seat}'s name`,
  });
  name.value = kept?.name ?? "";
  name.hidden = kind.value !== "player";
  kind.addEventListener("change", () => {
    name.hidden = kind.value !== "player";
  });
  return h("div", { class: "seat-row", dataset: { seat } }, h("span", {}, `Seat ${seat}`), kind, name);
}

/** One row per seat, keeping what the rows already chosen say when the count changes. */
function drawSeatRows() {
  const count = Number(seats.value);
  if (!Number.isInteger(count) || count < Number(seats.min) || count > Number(seats.max)) return;
  const kept = [...seatRows.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".seat-kind").value,
    name: row.querySelector(".seat-name").value,
  }));
  fill(seatRows, h("legend", {}, "Who sits where"), Array.from({ length: count }, (_, seat) => seatRow(seat, kept[seat])));
}

/**
 * The creation's `seats`: the plain count when every seat is an unnamed player (a link each),
 * else one spec per seat: `{"name"}` (an unnamed player is called "Seat N"), `{"open": true}`
 * or `{"bot"}`.
 */
function readSeats() {
  const rows = [...seatRows.querySelectorAll(".seat-row")];
  if (rows.length !== Number(seats.value)) return Number(seats.value);
  const specs = rows.map((row, seat) => {
    const kind = row.querySelector(".seat-kind").value;
    const name = row.querySelector(".seat-name").value.trim();
    if (kind === "open") return { open: true };
    if (kind === "random" || kind === "greedy" || kind === "expert") return { bot: kind };
    return name ? { name } : null;
  });
  if (specs.every((s) => s === null)) return rows.length;
  return specs.map((s, seat) => s ?? { name: `Seat ${seat}` });
}

/** The creation's `clock`, or `undefined` when no time per decision is set. */
function readClock() {
  const decision = document.getElementById("clock-decision").value;
  const bank = document.getElementById("clock-bank").value;
  if (decision === "") {
    if (bank !== "") throw new Error("a clock needs its seconds per decision: set them, or clear the bank");
    return undefined;
  }
  const clock = { per_decision_secs: Number(decision) };
  if (bank !== "") clock.bank_secs = Number(bank);
  return clock;
}

function readOptions() {
  const options = {};
  for (const input of optionsBox.querySelectorAll("input, select")) {
    const kind = input.dataset.kind;
    if (kind === "boolean") options[input.name] = input.checked;
    else if (kind === "number") {
      if (input.value !== "") options[input.name] = Number(input.value);
    } else if (kind === "string") options[input.name] = input.value;
    else if (input.value.trim() !== "") {
      try {
        options[input.name] = JSON.parse(input.value);
      } catch {
        options[input.name] = input.value;
      }
    }
  }
  return options;
}

function showCreated(game, specs) {
  const base = `${location.origin}/play/${encodeURIComponent(game.id)}`;
  const tokens = Array.isArray(game.seats) ? game.seats : [];
  const count = Array.isArray(specs) ? specs.length : tokens.length;
  const links = Array.from({ length: count }, (_, seat) => {
    const spec = Array.isArray(specs) ? specs[seat] : {};
    const token = tokens.find((s) => s.seat === seat);
    if (token) {
      const who = spec?.name ? [`Seat ${seat} · `, nameNode(spec.name)] : `Seat ${seat}`;
      return h("li", {}, h("a", { class: "seat-link", href: `${base}#token=${encodeURIComponent(token.token)}`, dataset: { seat } }, who), " (send this link to that player only: it holds the seat's token)");
    }
    if (spec?.open) return h("li", { class: "seat-open", dataset: { seat } }, `Seat ${seat} · open: anyone may join it from the lobby's open games`);
    if (spec?.bot) return h("li", { class: "seat-bot", dataset: { seat } }, `Seat ${seat} · ${spec.bot} bot`);
    return null;
  });
  const all = h("button", {
    type: "button",
    id: "play-here",
    onclick: () => {
      for (const s of game.seats ?? []) holdToken(game.id, s.token);
      location.assign(base);
    },
  }, tokens.length === count ? "Play every seat in this tab" : "Play every player's seat in this tab");
  const list = h("ul", { class: "links" }, links, h("li", {}, h("a", { class: "spectator-link", href: base }, "Spectator")));
  created.hidden = false;
  fill(created, 
    h("h2", {}, `Game ${game.id} created`),
    list,
    tokens.length ? all : null,
  );
  if (!tokens.length) offerReplay(game.id, list);
}

/** A game of bots alone may be over as soon as it is created: then its replay is linked too. */
async function offerReplay(id, list) {
  try {
    const { json } = await api(`/v1/games/${encodeURIComponent(id)}`);
    if (json?.status === "active" || !list.isConnected) return;
    list.append(h("li", {}, h("a", { class: "replay-link", href: `/play/replay/${encodeURIComponent(id)}` }, "Replay"), ` (the game is ${json?.status ?? "over"})`));
  } catch {
    // No replay link: the spectator link still opens the game.
  }
}

function joinForm(id, seat) {
  const name = h("input", { class: "join-name", type: "text", maxlength: 32, required: true, placeholder: "your name", "aria-label": `Your name for seat ${seat}` });
  return h("form", {
    class: "join",
    dataset: { seat },
    onsubmit: (event) => {
      event.preventDefault();
      join(id, seat, name.value);
    },
  }, h("span", {}, `Seat ${seat} · open`), name, h("button", { type: "submit", class: "join-button" }, "Join"));
}

function openGame(game) {
  const seatsOf = Array.isArray(game?.seats) ? game.seats : [];
  const created = Number.isFinite(game?.created) ? new Date(game.created * 1000).toLocaleString() : "";
  return h("li", { class: "open-game", dataset: { id: game.id } },
    h("div", {}, h("b", {}, `Game ${game.id}`), created ? ` · created ${created}` : ""),
    h("ul", { class: "occupants" }, seatsOf.map((s) =>
      h("li", { dataset: { seat: s.seat, occupant: s.occupant } },
        s.occupant === "open" ? joinForm(game.id, s.seat) : [`Seat ${s.seat} · `, occupantNode(s)]))),
  );
}

/** The selected ruleset's games with an open seat, newest first. */
async function refreshOpen() {
  const slug = select.value;
  if (!slug) return;
  try {
    const { json } = await api(`/v1/games?ruleset=${encodeURIComponent(slug)}&status=open&limit=50`, { token: playerToken() ?? undefined });
    if (select.value !== slug) return;
    const games = Array.isArray(json?.games) ? json.games : [];
    fill(openList, games.length ? games.map(openGame) : h("li", { class: "nil" }, "No game of this ruleset has an open seat: create one above."));
    document.body.dataset.openListed = slug;
  } catch (e) {
    if (e.status === 401 && !playerToken()) {
      fill(openList, h("li", { class: "nil" }, "This server's games belong to apps: use your player token above to see the open ones."));
      return;
    }
    showError(e.message);
  }
}

/** Takes `seat` of game `id` as `name`, keeps its token in this tab and opens its table. */
async function join(id, seat, name) {
  showError(null);
  try {
    const { json } = await api(`/v1/games/${encodeURIComponent(id)}/seats/${encodeURIComponent(seat)}`, { method: "POST", body: { name }, token: playerToken() ?? undefined });
    const held = holdToken(id, String(json?.token ?? ""));
    if (held !== null) sessionStorage.setItem(`roadie:${id}:viewer`, String(held));
    location.assign(`/play/${encodeURIComponent(id)}`);
  } catch (e) {
    showError(e.message);
    if (e.status === 409) await refreshOpen();
  }
}

document.getElementById("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(null);
  try {
    const body = { ruleset: select.value, seats: readSeats(), options: readOptions() };
    const seed = document.getElementById("seed").value;
    if (seed !== "") body.seed = Number(seed);
    const clock = readClock();
    if (clock) body.clock = clock;
    const { json } = await api("/v1/games", { method: "POST", body, token: playerToken() ?? undefined });
    showCreated(json, body.seats);
    await refreshOpen();
  } catch (e) {
    showError(e.message);
  }
});

/** The options that differ from the ruleset's defaults, so that everyone who leaves them alone
 * waits in the same queue; `undefined` when none does. */
function changedOptions() {
  const defaults = current?.options ?? {};
  const changed = Object.entries(readOptions()).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(defaults[name]));
  return changed.length ? Object.fromEntries(changed) : undefined;
}

const ticketForm = document.getElementById("ticket");
const ticketStatus = document.getElementById("ticket-status");
const ticketCancel = document.getElementById("ticket-cancel");
let waiting = null;

function showTicket(text) {
  ticketStatus.hidden = text === null;
  ticketStatus.textContent = text ?? "";
}

/** Long-polls the ticket until it stops waiting; a match opens the table at the ticket's seat. */
async function follow(ticket) {
  while (waiting === ticket) {
    let info;
    try {
      info = (await api(`/v1/tickets/${encodeURIComponent(ticket.id)}?wait=20`, { token: ticket.token })).json;
    } catch (e) {
      if (waiting !== ticket) return;
      if (e.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      showError(e.message);
      break;
    }
    if (waiting !== ticket) return;
    if (info?.status === "waiting") {
      showTicket(`Waiting for players${Number.isInteger(info.position) ? ` (you are number ${info.position} in the queue)` : ""}…`);
      continue;
    }
    if (info?.status === "matched" && info.game && info.seat_token) {
      const held = holdToken(info.game, String(info.seat_token));
      if (held !== null) sessionStorage.setItem(`roadie:${info.game}:viewer`, String(held));
      document.body.dataset.matched = info.game;
      location.assign(`/play/${encodeURIComponent(info.game)}`);
      return;
    }
    showTicket(info?.status === "expired" ? "Nobody came in time: the ticket expired." : `The ticket is ${info?.status ?? "gone"}.`);
    break;
  }
  if (waiting === ticket) waiting = null;
  ticketCancel.hidden = true;
  ticketForm.hidden = false;
}

ticketForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(null);
  try {
    const body = { ruleset: select.value, seats: Number(seats.value), name: document.getElementById("ticket-name").value };
    const options = changedOptions();
    if (options) body.options = options;
    const bots = document.getElementById("ticket-bots").value;
    if (bots !== "") body.bots_after_secs = Number(bots);
    const { json } = await api("/v1/tickets", { method: "POST", body, token: playerToken() ?? undefined });
    waiting = { id: String(json?.id ?? ""), token: String(json?.token ?? "") };
    document.body.dataset.ticket = waiting.id;
    ticketForm.hidden = true;
    ticketCancel.hidden = false;
    showTicket("Waiting for players…");
    follow(waiting);
  } catch (e) {
    showError(e.message);
  }
});

ticketCancel.addEventListener("click", async () => {
  const ticket = waiting;
  if (!ticket) return;
  try {
    await api(`/v1/tickets/${encodeURIComponent(ticket.id)}`, { method: "DELETE", token: ticket.token });
    waiting = null;
    showTicket("You stopped waiting.");
    ticketCancel.hidden = true;
    ticketForm.hidden = false;
  } catch (e) {
    // Matched meanwhile (409): the poll opens the table.
    if (e.status !== 409) showError(e.message);
  }
});

/** The player this tab's token names, as `GET /v1/me` answered; `null` without a token. */
let me = null;
const meBox = document.getElementById("me");
const playerForm = document.getElementById("player-form");

/** The player's name, games and wins, its rating in each ruleset it played rated, and its games. */
async function showMe() {
  const token = playerToken();
  me = null;
  playerForm.hidden = Boolean(token);
  if (!token) {
    fill(meBox, h("p", { class: "nil" }, "On a server where apps seat their players, paste the player token your app gave you: the lobby then shows your ratings, your games and the leaderboards."));
    document.body.dataset.me = "";
    return;
  }
  let profile;
  try {
    profile = (await api("/v1/me", { token })).json;
  } catch (e) {
    fill(meBox, h("p", { class: "error" }, `This player token does not work here: ${e.message}`), forgetButton());
    document.body.dataset.me = "";
    return;
  }
  me = profile;
  const ratings = Array.isArray(profile?.ratings) ? profile.ratings : [];
  const list = h("ul", { id: "my-games", class: "my-games" });
  fill(meBox,
    h("p", { class: "player-line" }, "Playing as ", nameNode(profile?.name || profile?.player || "you"), ` · ${count(profile?.games, "rated game")}, ${profile?.wins ?? 0} won `, forgetButton()),
    ratings.length
      ? h("table", { class: "scores my-ratings" },
          h("thead", {}, h("tr", {}, h("th", {}, "game"), h("th", {}, "your rating"), h("th", {}, "games"), h("th", {}, "wins"), h("th", {}, "place"))),
          h("tbody", {}, ratings.map((r) => h("tr", { dataset: { ruleset: r.ruleset } },
            h("td", {}, titles.get(r.ruleset) ?? r.ruleset),
            h("td", { class: "number my-rating" }, r.rating),
            h("td", { class: "number" }, r.games),
            h("td", { class: "number" }, r.wins),
            h("td", { class: "number" }, r.place)))))
      : h("p", { class: "nil" }, "No rated game yet: your ratings show here once you have played one."),
    h("h3", {}, "Your games"),
    list,
  );
  markMyRating();
  document.body.dataset.me = String(profile?.player ?? "");
  await showMyGames(list, token);
}

/** `1 rated game`, `3 rated games`. */
function count(n, noun) {
  const many = Number(n ?? 0);
  return `${many} ${noun}${many === 1 ? "" : "s"}`;
}

function forgetButton() {
  return h("button", { type: "button", id: "player-forget", onclick: () => {
    keepPlayerToken("");
    showError(null);
    showMe();
    loadBoard(false);
    refreshOpen();
  } }, "Forget the token");
}

/** Marks the chosen ruleset's row among the player's ratings. */
function markMyRating() {
  for (const row of meBox.querySelectorAll(".my-ratings tbody tr")) row.classList.toggle("current", row.dataset.ruleset === select.value);
  for (const row of document.querySelectorAll("#board tbody tr")) row.classList.toggle("mine", Boolean(me) && row.dataset.player === me.player);
}

/** The player's games in its app (`GET /v1/me/games`), running first, each a link to its table. */
async function showMyGames(list, token) {
  try {
    const { json } = await api("/v1/me/games?limit=20", { token });
    const games = Array.isArray(json?.games) ? json.games : [];
    fill(list, games.length
      ? games.map((g) => h("li", { class: "my-game", dataset: { id: g.id, status: g.status ?? "" } },
          h("a", { class: "my-game-link", href: `/play/${encodeURIComponent(g.id)}` }, `${titles.get(g.ruleset) ?? g.ruleset} · ${g.id}`),
          ` · ${g.status ?? ""}`,
          g.finished?.replay ? [" · ", h("a", { href: g.finished.replay }, "Replay")] : null))
      : h("li", { class: "nil" }, "None yet."));
  } catch (e) {
    fill(list, h("li", { class: "nil" }, e.message));
  }
}

const boardBox = document.getElementById("board");
const boardMore = document.getElementById("board-more");
/** The leaderboard shown: its ruleset, filter, rows so far and the cursor of its next page. */
let board = { key: null, rows: [], next: null };
let boardLoads = 0;

/**
 * The chosen ruleset's leaderboard in the player's app (`GET /v1/rulesets/{slug}/leaderboard`),
 * a page of the chosen size at a time: `more` adds the next page below the rows shown.
 */
async function loadBoard(more) {
  const slug = select.value;
  const token = playerToken();
  document.getElementById("board-title").textContent = `Leaderboard: ${titles.get(slug) ?? slug}`;
  if (!slug || !token) {
    board = { key: null, rows: [], next: null };
    boardMore.hidden = true;
    fill(boardBox, h("p", { class: "nil" }, "Leaderboards belong to an app: use your player token above to see this one."));
    return;
  }
  const limit = Number(document.getElementById("board-rows").value) || 20;
  const min = Number(document.getElementById("board-min").value) || 0;
  const key = `${slug}\u0000${limit}\u0000${min}`;
  let path = `/v1/rulesets/${encodeURIComponent(slug)}/leaderboard?limit=${limit}&min_games=${min}`;
  if (more && board.key === key && board.next) path += `&cursor=${encodeURIComponent(board.next)}`;
  else more = false;
  try {
    const { json } = await api(path, { token });
    if (select.value !== slug) return;
    const rows = Array.isArray(json?.rows) ? json.rows : [];
    board = { key, rows: more ? [...board.rows, ...rows] : rows, next: typeof json?.next === "string" ? json.next : null };
  } catch (e) {
    showError(e.message);
    return;
  }
  boardMore.hidden = !board.next;
  fill(boardBox, board.rows.length
    ? h("table", { class: "scores board" },
        h("thead", {}, h("tr", {}, h("th", {}, "rank"), h("th", {}, "player"), h("th", {}, "rating"), h("th", {}, "games"), h("th", {}, "wins"))),
        h("tbody", {}, board.rows.map((r) => h("tr", { class: "board-row", dataset: { player: r.player } },
          h("td", { class: "number" }, r.rank),
          h("td", {}, nameNode(r.name || r.player)),
          h("td", { class: "number" }, r.rating),
          h("td", { class: "number" }, r.games),
          h("td", { class: "number" }, r.wins)))))
    : h("p", { class: "nil" }, "Nobody has played this game rated yet."));
  markMyRating();
  boardLoads += 1;
  document.body.dataset.boardLoads = String(boardLoads);
}

playerForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(null);
  const input = document.getElementById("player-token");
  keepPlayerToken(input.value);
  input.value = "";
  await showMe();
  await Promise.all([loadBoard(false), refreshOpen()]);
});
document.getElementById("board-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showError(null);
  loadBoard(false);
});
boardMore.addEventListener("click", () => {
  showError(null);
  loadBoard(true);
});

select.addEventListener("change", () => choose(select.value));
seats.addEventListener("input", drawSeatRows);
document.getElementById("refresh-open").addEventListener("click", () => {
  showError(null);
  refreshOpen();
});

try {
  const { json } = await api("/v1/rulesets");
  const list = Array.isArray(json?.rulesets) ? json.rulesets : [];
  for (const r of list) titles.set(r.slug, r.title ?? r.slug);
  fill(select, ...list.map((r) => h("option", { value: r.slug }, `${r.title ?? r.slug} (${r?.seats?.min ?? "?"}-${r?.seats?.max ?? "?"} seats)`)));
  await showMe();
  if (list.length) await choose(list[0].slug);
  document.body.dataset.ready = "true";
} catch (e) {
  showError(e.message);
}
