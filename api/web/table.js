// A table: one game seen by one of the seats this tab holds, or by a spectator. Generic for every
// ruleset (who sits where and their clocks, view tree, legal actions as buttons, the event log as
// sentences, phase machine, the rules and how to play); a ruleset's renderer, when there is one,
// draws the view above the tree.

import { api, catalogue, dropToken, fill, h, heldTokens, holdToken, occupantText, playerToken, seatName, seatOf, serverNow, showError, signed } from "./api.js";
import { showMachine } from "./machine.js";
import { actionForm } from "./schema-form.js";
import { citedRules, listen, loadRules, renderRules, ruleLink, seatWords, sentence } from "./texts.js";
import { label, tree } from "./tree.js";

const RENDERERS = {
  "shrewd-producer": "./shrewd-producer.js",
  "rock-the-world": "./rock-the-world.js",
  "show-business": "./show-business.js",
};
const WAIT_SECS = 25;

const id = decodeURIComponent(location.pathname.replace(/^\/play\//, "").replace(/\/$/, ""));
const state = {
  game: null,
  etag: null,
  ruleset: null,
  names: null,
  renderer: null,
  viewer: null,
  events: [],
  nextAfter: 0,
  logComplete: false,
  watch: null,
  busy: false,
  confirmResign: false,
};

/** `Seat 1 · Ann`, by the occupants of the game shown. */
function who(seat) {
  return seatName(seat, state.game?.occupants);
}

function takeFragmentToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token");
  if (!token) return null;
  const seat = holdToken(id, token);
  history.replaceState(null, "", location.pathname + location.search);
  return seat;
}

/** The token the viewer calls with: its seat's; a spectator goes without one, or with the tab's
 * player token, which a server with apps asks of anyone who looks at its app's games. */
function tokenOf(viewer) {
  return viewer === null ? playerToken() ?? undefined : heldTokens(id)[viewer];
}

function heldSeats() {
  return Object.entries(heldTokens(id))
    .filter(([, token]) => seatOf(token) !== null || (token && token === playerToken()))
    .map(([seat]) => Number(seat))
    .sort((a, b) => a - b);
}

function renderViewers() {
  const seats = heldSeats();
  const toAct = state.game?.to_act ?? [];
  const button = (viewer, text) =>
    h("button", {
      type: "button",
      class: viewer === state.viewer ? "viewer current" : toAct.includes(viewer) ? "viewer acting" : "viewer",
      "aria-pressed": viewer === state.viewer ? "true" : "false",
      dataset: { seat: viewer === null ? "spectator" : viewer },
      onclick: () => switchViewer(viewer),
    }, text);
  fill(document.getElementById("viewers"), 
    h("span", {}, "View as "),
    seats.map((s) => button(s, `${who(s)}${toAct.includes(s) ? " ●" : ""}`)),
    button(null, "Spectator"),
  );
}

function switchViewer(viewer) {
  if (viewer === state.viewer) return;
  state.viewer = viewer;
  sessionStorage.setItem(`roadie:${id}:viewer`, viewer === null ? "spectator" : String(viewer));
  state.events = [];
  state.nextAfter = 0;
  state.logComplete = false;
  state.etag = null;
  state.confirmResign = false;
  showError(null);
  restartWatch();
}

/** The rule ids the phase `name` cites in its description and its edges. */
function phaseRules(name) {
  const phase = (Array.isArray(state.ruleset?.machine?.phases) ? state.ruleset.machine.phases : []).find((p) => p?.name === name);
  if (!phase) return [];
  const edges = Array.isArray(phase.transitions) ? phase.transitions.map((e) => e?.when ?? "") : [];
  return citedRules([phase.description ?? "", ...edges].join(" "));
}

function renderTurn(game) {
  const toAct = Array.isArray(game.to_act) ? game.to_act : [];
  const mine = state.viewer !== null && toAct.includes(state.viewer);
  const heading = game.status !== "active"
    ? `Game ${game.status}`
    : toAct.length
      ? `${mine ? "Your turn. " : ""}To act: ${toAct.map(who).join(", ")}`
      : "Nobody to act";
  const cited = phaseRules(game.phase);
  fill(document.getElementById("turn"), 
    h("h2", {}, heading),
    h("p", {}, `Phase: ${String(game.phase ?? "?").replace(/_/g, " ")} · version ${game.version} · you are ${state.viewer === null ? "a spectator" : who(state.viewer)} of ${game.seats ?? "?"} seats`),
    cited.length ? h("p", { class: "phase-rules" }, "Rules of this phase: ", cited.map((id, i) => [i ? " " : "", ruleLink(id)])) : null,
    game.status !== "active" ? h("p", {}, h("a", { id: "replay-link", href: `/play/replay/${encodeURIComponent(id)}` }, "Watch the replay")) : null,
  );
  document.getElementById("status").textContent = game.status ?? "";
}

function renderOutcome(game) {
  const box = document.getElementById("outcome");
  const scores = Array.isArray(game?.outcome?.scores) ? game.outcome.scores : null;
  if (!game.outcome) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const winners = Array.isArray(game.outcome.winners) ? game.outcome.winners : [];
  fill(box, 
    h("h2", {}, "Final scores"),
    winners.length ? h("p", { class: "winners" }, `Winner: ${winners.map(who).join(", ")}`) : null,
    scores
      ? h("table", { class: "scores" },
          h("thead", {}, h("tr", {}, h("th", {}, "rank"), h("th", {}, "seat"), h("th", {}, "total"), h("th", {}, "details"))),
          h("tbody", {}, [...scores].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0)).map((s) =>
            h("tr", { class: winners.includes(s.seat) ? "winner" : null },
              h("td", {}, s.rank ?? ""), h("td", {}, who(s.seat)), h("td", {}, s.total ?? ""),
              h("td", {}, (Array.isArray(s.lines) ? s.lines : []).map((l) => `${l.label}: ${l.points}`).join("; "))))))
      : tree(game.outcome, state.names),
    ratingsOf(game),
  );
}

/** Whether the game is rated and over, and its ratings are still being written. */
function awaitingRatings(game) {
  return Boolean(game?.rated) && game.status === "finished" && !Array.isArray(game.ratings);
}

/** A rated game's end: each seat's rating before and after, and the change; "rating…" while the
 * server is still writing them (the table keeps following the game until they come). */
function ratingsOf(game) {
  if (!game?.rated) return null;
  if (game.status === "aborted") return h("p", { id: "ratings-none", class: "nil" }, "Not rated: the game was aborted.");
  if (!Array.isArray(game.ratings)) {
    document.body.dataset.ratings = "pending";
    return h("div", { id: "ratings", class: "ratings" }, h("h3", {}, "Ratings"), h("p", { id: "ratings-pending", class: "nil", "aria-live": "polite" }, "rating…"));
  }
  document.body.dataset.ratings = "shown";
  return h("div", { id: "ratings", class: "ratings" },
    h("h3", {}, "Ratings"),
    h("table", { class: "scores rating-changes" },
      h("thead", {}, h("tr", {}, h("th", {}, "place"), h("th", {}, "seat"), h("th", {}, "rating"), h("th", {}, "change"))),
      h("tbody", {}, [...game.ratings].sort((a, b) => (a.place ?? 0) - (b.place ?? 0) || a.seat - b.seat).map((r) => {
        const before = Number(r?.before?.rating ?? 0);
        const after = Number(r?.after?.rating ?? 0);
        const delta = after - before;
        return h("tr", { class: `rating-row${r.seat === state.viewer ? " mine" : ""}`, dataset: { seat: r.seat, before, after } },
          h("td", {}, r.place ?? ""),
          h("td", {}, who(r.seat), r.bot ? h("span", { class: "tag" }, "fixed") : null),
          h("td", { class: "rating-move" }, `${before} \u2192 ${after}`),
          h("td", { class: `rating-delta ${delta > 0 ? "up" : delta < 0 ? "down" : "same"}` }, signed(delta)));
      }))));
}

function renderBoard(game) {
  const board = document.getElementById("board");
  const parts = [h("h2", {}, "Table")];
  if (state.renderer) {
    try {
      parts.push(state.renderer(game.view, { game, names: state.names, viewer: state.viewer, h, who }));
    } catch (e) {
      parts.push(h("p", { class: "error" }, `could not draw this view: ${e.message}`));
    }
    parts.push(h("details", { class: "raw" }, h("summary", {}, "Whole view"), tree(game.view, state.names)));
  } else {
    parts.push(tree(game.view, state.names));
  }
  fill(board, ...parts);
}

/** `m:ss` (or `h:mm:ss`) of a duration in milliseconds; never below zero. */
function duration(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** Redraws every running countdown: the time left to each deadline shown. */
function tick() {
  const now = serverNow();
  for (const el of document.querySelectorAll(".clock-left[data-deadline]")) {
    const left = Number(el.dataset.deadline) - now;
    el.textContent = duration(left);
    el.classList.toggle("short", left < 10000);
  }
}

/** A seat's clock (`ClockView`): a countdown to its deadline while it decides, and its bank. */
function clockOf(seat, clock) {
  const mine = Array.isArray(clock?.seats) ? clock.seats.find((c) => c?.seat === seat) : null;
  if (!mine) return null;
  const bank = h("span", { class: "clock-bank" }, `bank ${duration(mine.bank_ms ?? 0)}`);
  if (!Number.isFinite(mine.deadline_ms)) return h("span", { class: "clock", dataset: { seat } }, bank);
  return h("span", { class: "clock running", dataset: { seat }, title: `deadline ${new Date(mine.deadline_ms).toLocaleTimeString()}` },
    h("span", { class: "clock-left", dataset: { deadline: mine.deadline_ms } }, duration(mine.deadline_ms - serverNow())), " left · ", bank);
}

/** Who sits in each seat, each seat's clock, and the viewer's resignation. */
function renderSeats(game) {
  const occupants = Array.isArray(game.occupants) ? game.occupants : [];
  const toAct = Array.isArray(game.to_act) ? game.to_act : [];
  fill(document.getElementById("seat-list"), occupants.map((o) =>
    h("li", { class: `seat-entry occupant-${o.occupant ?? ""}`, dataset: { seat: o.seat, occupant: o.occupant ?? "" } },
      h("b", {}, `Seat ${o.seat}`), " ",
      h("span", { class: "occupant" }, occupantText(o)),
      o.occupant === "bot" ? h("span", { class: "tag" }, "bot") : null,
      o.occupant === "open" ? h("span", { class: "tag" }, "waiting for a player") : null,
      o.seat === state.viewer ? h("span", { class: "tag" }, "you") : null,
      toAct.includes(o.seat) ? h("span", { class: "tag now" }, "to act") : null,
      game.clock ? clockOf(o.seat, game.clock) : null)));
  tick();
  const mine = occupants.find((o) => o.seat === state.viewer);
  const box = document.getElementById("resign");
  if (state.viewer === null || game.status !== "active" || mine?.occupant !== "player" || !tokenOf(state.viewer)) {
    fill(box);
    return;
  }
  if (!state.confirmResign) {
    fill(box, h("button", { type: "button", id: "resign-button", onclick: () => askResign(true) }, `Resign seat ${state.viewer}…`));
    return;
  }
  fill(box, h("div", { class: "confirm", role: "group", "aria-label": "Confirm the resignation" },
    h("p", {}, `Resign seat ${state.viewer}? A random bot plays it for the rest of the game, and this tab can no longer play it.`),
    h("button", { type: "button", id: "resign-yes", class: "danger", onclick: resign }, "Resign"),
    h("button", { type: "button", id: "resign-no", onclick: () => askResign(false) }, "Keep playing")));
}

function askResign(asking) {
  state.confirmResign = asking;
  if (state.game) renderSeats(state.game);
}

/** Gives the viewer's seat to a random bot (`POST .../resign`), then forgets its token. */
async function resign() {
  const seat = state.viewer;
  const token = tokenOf(seat);
  if (seat === null || !token) return;
  state.confirmResign = false;
  showError(null);
  try {
    await api(`/v1/games/${encodeURIComponent(id)}/seats/${seat}/resign`, { method: "POST", token });
    dropToken(id, seat);
    const rest = heldSeats();
    switchViewer(rest.length ? rest[0] : null);
  } catch (e) {
    showError(e.message);
    if (state.game) renderSeats(state.game);
  }
}

/** Above this many actions of one type, they are offered as a list to pick from and one button. */
const GROUP_ABOVE = 8;

function renderActions(list, revision) {
  const box = document.getElementById("action-list");
  document.body.dataset.actions = String(list.length);
  if (state.viewer === null) {
    fill(box, h("p", { class: "nil" }, "Spectators watch."));
    return;
  }
  if (!list.length) {
    fill(box, h("p", { class: "nil" }, state.game?.status === "active" ? "Nothing to do now: the table updates when others play." : "The game is over."));
    return;
  }
  const hintLine = h("p", { class: "hint", id: "hint-line", "aria-live": "polite" });
  const hintButton = h("button", { type: "button", class: "hint-ask", id: "hint-ask", onclick: () => askHint(list, revision, hintLine, hintButton) }, "Hint");
  const groups = new Map();
  list.forEach((action, index) => {
    const type = String(action?.type ?? "");
    groups.set(type, [...(groups.get(type) ?? []), { action, index }]);
  });
  fill(box, [...groups].map(([type, items]) => {
    if (items.length <= GROUP_ABOVE) {
      return items.map(({ action, index }) =>
        h("button", { type: "button", class: "action", dataset: { index, type }, onclick: () => play(action, revision) }, label(action, state.names)));
    }
    const choice = h("select", { class: "action-group", dataset: { type }, "aria-label": type.replace(/_/g, " ") },
      items.map(({ action, index }) => {
        const { type: _, ...rest } = action ?? {};
        return h("option", { value: index, dataset: { index } }, label(rest, state.names));
      }));
    return h("span", { class: "action-choice" }, h("span", {}, type.replace(/_/g, " ")), choice,
      h("button", { type: "button", class: "action-go", dataset: { type }, onclick: () => play(list[Number(choice.value)], revision) }, "Send"));
  }), h("div", { class: "hint-row" }, hintButton, hintLine));
}

/** Asks the server what an expert in the viewer's seat would play, and marks that action. */
async function askHint(list, revision, line, button) {
  const token = tokenOf(state.viewer);
  if (!token) return;
  button.disabled = true;
  fill(line, "Thinking…");
  try {
    const { json } = await api(`/v1/games/${encodeURIComponent(id)}/hint`, { token });
    if (json?.revision !== revision) {
      fill(line, "The game moved on; ask again.");
      return;
    }
    const wanted = JSON.stringify(json.action);
    const index = list.findIndex((action) => JSON.stringify(action) === wanted);
    document.querySelectorAll("#action-list .hinted").forEach((el) => el.classList.remove("hinted"));
    const target = document.querySelector(`#action-list button.action[data-index="${index}"]`)
      ?? document.querySelector(`#action-list option[data-index="${index}"]`);
    if (target?.tagName === "OPTION") {
      target.selected = true;
      target.closest(".action-choice")?.classList.add("hinted");
    } else {
      target?.classList.add("hinted");
    }
    const share = Math.round(100 * Number(json.considered?.[0]?.share ?? 1));
    fill(line, "An expert would play ", h("strong", {}, label(json.action, state.names)), ` (${share}% of its search).`);
    line.dataset.index = String(index);
  } catch (e) {
    fill(line, e.message);
  } finally {
    button.disabled = false;
  }
}

/** An event as the sentence its type's template makes, or its type and fields when none does. */
function eventLine(body) {
  const template = state.ruleset?.messages?.[body?.type];
  const seat = (n) => seatWords(n, state.game?.occupants);
  const words = template ? sentence(template, body, { names: state.names, seat }) : null;
  return words ? { words, rendered: "template" } : { words: [label(body, state.names)], rendered: "fallback" };
}

function renderEvents() {
  const list = document.getElementById("events");
  const shown = state.events.slice(-200).reverse();
  fill(list, ...shown.map((e) => {
    const { words, rendered } = eventLine(e.body);
    return h("li", { value: e.seq, dataset: { type: e.body?.type ?? "", rendered } }, words,
      e.audience?.to && e.audience.to !== "everyone" ? h("span", { class: "tag" }, "private") : null);
  }));
}

async function loadEvents(token) {
  for (let page = 0; page < 20; page++) {
    const { json } = await api(`/v1/games/${encodeURIComponent(id)}/events?after=${state.nextAfter}&limit=1000`, { token });
    const events = Array.isArray(json?.events) ? json.events : [];
    state.events.push(...events);
    const next = Number(json?.next_after ?? state.nextAfter);
    if (!events.length || next <= state.nextAfter) break;
    state.nextAfter = next;
  }
  renderEvents();
}

async function show(game, etag) {
  if (state.game && game.revision === state.game.revision) return;
  state.game = game;
  state.etag = etag ?? (game.revision ? `"${game.revision}"` : null);
  document.body.dataset.status = game.status ?? "";
  renderViewers();
  renderTurn(game);
  renderSeats(game);
  renderOutcome(game);
  renderBoard(game);
  showMachine(state.ruleset?.machine, game.phase);
  document.getElementById("action-form").hidden = state.viewer === null || game.status !== "active";
  if (game.status !== "active" && !state.logComplete) {
    // A finished game's whole log is public: read it again from the start.
    state.logComplete = true;
    state.events = [];
    state.nextAfter = 0;
  }
  const token = tokenOf(state.viewer);
  let actions = [];
  if (token && game.status === "active" && (game.to_act ?? []).includes(state.viewer)) {
    try {
      const { json } = await api(`/v1/games/${encodeURIComponent(id)}/actions`, { token });
      actions = json?.revision === undefined || json.revision === game.revision ? json?.actions ?? [] : [];
    } catch (e) {
      showError(e.message);
    }
  }
  if (state.game !== game) return;
  renderActions(Array.isArray(actions) ? actions : [], game.revision);
  try {
    await loadEvents(token);
  } catch (e) {
    showError(e.message);
  }
  if (state.game !== game) return;
  document.body.dataset.version = String(game.version);
  document.body.dataset.toAct = (game.to_act ?? []).join(",");
  document.body.dataset.viewer = state.viewer === null ? "spectator" : String(state.viewer);
  document.body.dataset.settled = game.revision;
}

/** A fresh key, so that a retried post is applied once (`crypto.randomUUID` needs HTTPS off loopback). */
function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function play(action, revision = state.game?.revision) {
  if (state.busy) return;
  state.busy = true;
  showError(null);
  for (const b of document.querySelectorAll("button.action, button.action-go")) b.disabled = true;
  // A 503 is retried with the same key: the server applies the action at most once and a
  // replay answers with the first outcome (its game then comes by the stream or the long-poll).
  const key = idempotencyKey();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const { json } = await api(`/v1/games/${encodeURIComponent(id)}/actions`, {
          method: "POST",
          token: tokenOf(state.viewer),
          body: { action },
          headers: { "If-Match": `"${revision}"`, "Idempotency-Key": key },
        });
        if (json?.game) await show(json.game, json.revision ? `"${json.revision}"` : null);
        break;
      } catch (e) {
        if (e.status !== 503 || attempt >= 3) throw e;
        await new Promise((r) => setTimeout(r, 1000 * attempt));
      }
    }
  } catch (e) {
    showError(e.message);
    for (const b of document.querySelectorAll("button.action, button.action-go")) b.disabled = false;
  } finally {
    state.busy = false;
  }
}

/** The game again (no wait), shown if it moved on. */
async function refresh(controller) {
  const reply = await api(`/v1/games/${encodeURIComponent(id)}`, { token: tokenOf(state.viewer), signal: controller.signal });
  if (reply.status === 200 && reply.json) {
    await show(reply.json, reply.etag);
    if (reply.json.status !== "active") document.body.dataset.finished = "true";
  }
}

/**
 * Follows the push stream (`GET /v1/games/{id}/stream`) read by `fetch`, since `EventSource`
 * cannot send the seat's bearer token: each `state` or `end` message with a new revision brings
 * the game again. Resumes after the last `id:` received (`Last-Event-ID`); answers `false` when
 * the stream cannot be had, so that the caller long-polls instead.
 */
async function follow(controller) {
  let lastId = null;
  let drops = 0;
  while (!controller.signal.aborted) {
    const headers = { Accept: "text/event-stream" };
    const token = tokenOf(state.viewer);
    if (token) headers.Authorization = `Bearer ${token}`;
    if (lastId !== null) headers["Last-Event-ID"] = lastId;
    let ended = false;
    try {
      const after = lastId === null ? `?after=${state.nextAfter}` : "";
      const response = await fetch(`/v1/games/${encodeURIComponent(id)}/stream${after}`, { headers, cache: "no-store", signal: controller.signal });
      if (!response.ok || !response.body || !(response.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) {
        await response.body?.cancel();
        return false;
      }
      document.body.dataset.live = "stream";
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut;
        while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
          const message = { event: "message", data: [] };
          for (const line of block.split(/\r?\n/)) {
            if (!line || line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") lastId = text;
            else if (field === "event") message.event = text;
            else if (field === "data") message.data.push(text);
          }
          if (message.event === "state" || message.event === "end") {
            drops = 0;
            let body = null;
            try {
              body = JSON.parse(message.data.join("\n"));
            } catch {
              body = null;
            }
            if (!state.game || body?.revision !== state.game.revision) await refresh(controller);
            if (message.event === "end") ended = true;
          }
        }
      }
    } catch (e) {
      if (controller.signal.aborted) return true;
      if (!(e instanceof TypeError)) showError(e.message);
    }
    if (ended) return true;
    drops += 1;
    if (drops > 3) return false;
    await new Promise((r) => setTimeout(r, 500 * drops));
  }
  return true;
}

async function watch(controller) {
  // The stream ends with the game; a rated game's ratings come a moment later, by the long poll.
  if (await follow(controller) && !awaitingRatings(state.game)) return;
  if (controller.signal.aborted) return;
  document.body.dataset.live = "poll";

  let failures = 0;
  while (!controller.signal.aborted) {
    try {
      const headers = state.etag ? { "If-None-Match": state.etag } : {};
      const wait = state.etag ? `?wait=${WAIT_SECS}` : "";
      const reply = await api(`/v1/games/${encodeURIComponent(id)}${wait}`, { token: tokenOf(state.viewer), headers, signal: controller.signal });
      failures = 0;
      if (reply.status === 200 && reply.json) {
        await show(reply.json, reply.etag);
        if (reply.json.status !== "active") {
          document.body.dataset.finished = "true";
        }
      }
    } catch (e) {
      if (controller.signal.aborted) return;
      showError(e.message);
      failures += 1;
      await new Promise((r) => setTimeout(r, Math.min(30000, 1000 * 2 ** failures)));
    }
  }
}

function restartWatch() {
  state.watch?.abort();
  state.game = null;
  state.watch = new AbortController();
  watch(state.watch);
}

/** The seat this tab's player token opens in the game, kept as that seat's token; `null` when
 * the tab holds none or its player sits elsewhere. */
async function playersSeat() {
  const token = playerToken();
  if (!token) return null;
  try {
    const { json } = await api(`/v1/games/${encodeURIComponent(id)}`, { token });
    return Number.isInteger(json?.seat) ? holdToken(id, token, json.seat) : null;
  } catch {
    return null;
  }
}

async function start() {
  const fromLink = takeFragmentToken();
  const seats = heldSeats();
  const kept = sessionStorage.getItem(`roadie:${id}:viewer`);
  if (fromLink !== null) state.viewer = fromLink;
  else if (kept === "spectator") state.viewer = null;
  else if (kept !== null && seats.includes(Number(kept))) state.viewer = Number(kept);
  else state.viewer = seats.length ? seats[0] : null;
  if (fromLink === null && !seats.length && kept !== "spectator") state.viewer = await playersSeat();
  try {
    const first = await api(`/v1/games/${encodeURIComponent(id)}`, { token: tokenOf(state.viewer) });
    const slug = first.json?.ruleset;
    const [ruleset, names] = await Promise.all([
      api(`/v1/rulesets/${encodeURIComponent(slug)}`).then((r) => r.json).catch(() => null),
      catalogue(slug),
    ]);
    state.ruleset = ruleset;
    state.names = names;
    await loadRules(slug, names);
    renderRules(document.getElementById("how-to-play"), document.getElementById("rules"));
    document.getElementById("title").textContent = `${ruleset?.title ?? slug} · ${id}`;
    document.title = `Roadie: ${ruleset?.title ?? slug}`;
    const schemas = await api("/api-docs/openapi.json").then((r) => r.json?.components?.schemas ?? {}).catch(() => ({}));
    const form = actionForm(schemas?.[ruleset?.schemas?.action], schemas, (action) => play(action));
    if (form) fill(document.getElementById("action-form"), form);
    if (RENDERERS[slug]) {
      try {
        state.renderer = (await import(RENDERERS[slug])).render;
      } catch (e) {
        showError(`could not load the ${slug} table: ${e.message}`);
      }
    }
    await show(first.json, first.etag);
  } catch (e) {
    showError(e.message);
    renderViewers();
    return;
  }
  state.watch = new AbortController();
  watch(state.watch);
}

setInterval(tick, 250);
listen();
start();
