// The replay viewer: a finished game's record (`GET /v1/games/{id}/record` at `/play/replay/{id}`,
// or a record file opened at `/play/replay/`) stepped through with a slider, buttons and the arrow
// keys. Each step is the server's replay of the record to it (`POST /v1/records/replay`): the
// spectator's view drawn as the table draws it, every seat's hand (all is public once a game
// ends), the step's events as sentences, and at the last step the final scores.

import { api, catalogue, fill, h, occupantText, seatName, showError } from "./api.js";
import { showMachine } from "./machine.js";
import { listen, loadRules, renderRules, seatWords, sentence, tipOf } from "./texts.js";
import { label, tree } from "./tree.js";

const RENDERERS = {
  "shrewd-producer": "./shrewd-producer.js",
  "rock-the-world": "./rock-the-world.js",
  "show-business": "./show-business.js",
};

/** How long the slider rests before the step it shows is asked for, in ms. */
const SLIDER_REST_MS = 150;

const id = decodeURIComponent(location.pathname.replace(/^\/play\/replay\/?/, "").replace(/\/$/, ""));
const slider = document.getElementById("step");
const counter = document.getElementById("step-counter");

const state = {
  record: null,
  ruleset: null,
  names: null,
  renderer: null,
  /** Frames by step, once the server has answered them. */
  frames: new Map(),
  /** Requests under way, by step. */
  asked: new Map(),
  /** The step wanted now; what is drawn catches up with it. */
  want: 0,
  /** The step drawn. */
  shown: null,
  timer: 0,
};

const steps = () => state.record?.steps?.length ?? 0;
const occupants = () => (Array.isArray(state.record?.seats) ? state.record.seats : []);

/** `Seat 1 · greedy bot`, by the record's seats. */
function who(seat) {
  return seatName(seat, occupants());
}

/** An event as the sentence its type's template makes (as the table shows it), or its type and
 * fields when none does. */
function eventLine(body) {
  const template = state.ruleset?.messages?.[body?.type];
  const seat = (n) => seatWords(n, occupants());
  const words = template ? sentence(template, body, { names: state.names, seat }) : null;
  return words ? { words, rendered: "template" } : { words: [label(body, state.names)], rendered: "fallback" };
}

/** Who could see an event while the game ran, when that was not everyone. */
function audienceTag(audience) {
  if (!audience || audience.to === "everyone") return null;
  if (audience.to === "nobody") return h("span", { class: "tag", title: "kept for the audit, shown to nobody while the game ran" }, "hidden");
  const seats = Array.isArray(audience.seats) ? audience.seats : [];
  return h("span", { class: "tag", title: "seen only by these seats while the game ran" }, `private: ${seats.map((s) => `Seat ${s}`).join(", ")}`);
}

/** What step `at` was: the setup, a seat's action, or the service's own event. */
function stepText(at) {
  if (at === 0) return ["The setup: nobody has acted yet."];
  const step = state.record.steps[at - 1];
  if (Number.isInteger(step?.seat)) {
    return [h("b", {}, who(step.seat)), " played ", h("span", { class: "played" }, label(step.action, state.names)),
      Number.isFinite(step.at) ? h("span", { class: "tag", title: new Date(step.at).toLocaleString() }, new Date(step.at).toLocaleTimeString()) : null];
  }
  return ["The service: ", eventLine(step?.event).words];
}

function renderTurn(frame) {
  const toAct = Array.isArray(frame.to_act) ? frame.to_act : [];
  const step = frame.at === 0 ? null : state.record.steps[frame.at - 1];
  fill(document.getElementById("turn"),
    h("h2", { id: "step-title", dataset: { at: frame.at, seat: Number.isInteger(step?.seat) ? step.seat : "" } }, `Step ${frame.at} of ${frame.steps}`),
    h("p", { id: "step-who" }, stepText(frame.at)),
    h("p", {}, `Phase: ${String(frame.phase ?? "?").replace(/_/g, " ")}`,
      frame.at < frame.steps ? ` · to act next: ${toAct.length ? toAct.map(who).join(", ") : "nobody"}` : " · the game is over"));
}

function renderSeats(frame) {
  const toAct = Array.isArray(frame.to_act) ? frame.to_act : [];
  const actor = frame.at === 0 ? null : state.record.steps[frame.at - 1]?.seat;
  fill(document.getElementById("seat-list"), occupants().map((o) =>
    h("li", { class: `seat-entry occupant-${o.occupant ?? ""}`, dataset: { seat: o.seat, occupant: o.occupant ?? "", level: o.level ?? "" } },
      h("b", {}, `Seat ${o.seat}`), " ",
      h("span", { class: "occupant" }, occupantText(o)),
      o.occupant === "bot" ? h("span", { class: "tag" }, "bot") : null,
      o.seat === actor ? h("span", { class: "tag now" }, "played this step") : null,
      frame.at < frame.steps && toAct.includes(o.seat) ? h("span", { class: "tag" }, "to act next") : null)));
}

/** The final scores, from the record's outcome: each seat's total and rank, the winners marked. */
function renderOutcome(frame) {
  const box = document.getElementById("outcome");
  const last = frame.at === frame.steps;
  if (!last) {
    box.hidden = true;
    fill(box);
    return;
  }
  box.hidden = false;
  const outcome = frame.outcome ?? state.record.outcome;
  if (!outcome) {
    fill(box, h("h2", {}, "Final scores"), h("p", { class: "nil" }, state.record.aborted ? "The game was aborted: it has no scores." : "The record holds no outcome."));
    return;
  }
  const winners = Array.isArray(outcome.winners) ? outcome.winners : [];
  const scores = Array.isArray(outcome.scores) ? outcome.scores : null;
  fill(box,
    h("h2", {}, "Final scores"),
    winners.length ? h("p", { class: "winners" }, `Winner: ${winners.map(who).join(", ")}`) : null,
    scores
      ? h("table", { class: "scores" },
          h("thead", {}, h("tr", {}, h("th", {}, "rank"), h("th", {}, "seat"), h("th", {}, "total"), h("th", {}, "details"))),
          h("tbody", {}, [...scores].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0)).map((s) =>
            h("tr", { class: winners.includes(s.seat) ? "winner score" : "score", dataset: { seat: s.seat, total: s.total ?? "", rank: s.rank ?? "", winner: winners.includes(s.seat) ? "true" : "false" } },
              h("td", { class: "rank" }, s.rank ?? ""), h("td", {}, who(s.seat)), h("td", { class: "total" }, s.total ?? ""),
              h("td", {}, (Array.isArray(s.lines) ? s.lines : []).map((l) => `${l.label}: ${l.points}`).join("; "))))))
      : tree(outcome, state.names),
  );
}

/** A view drawn by the ruleset's renderer (as the table draws it), else as a tree. */
function drawn(view, viewer, frame) {
  if (!state.renderer) return tree(view, state.names);
  const game = { to_act: frame.to_act, phase: frame.phase, occupants: occupants() };
  try {
    return state.renderer(view, { game, names: state.names, viewer, h, who });
  } catch (e) {
    return h("p", { class: "error" }, `could not draw this view: ${e.message}`);
  }
}

function renderBoard(frame) {
  fill(document.getElementById("board"),
    h("h2", {}, "Table (what a spectator saw)"),
    drawn(frame.view, null, frame),
    state.renderer ? h("details", { class: "raw" }, h("summary", {}, "Whole view"), tree(frame.view, state.names)) : null);
}

/** Where a seat's view differs from the spectator's: `[path, value]` pairs, leaving out the
 * markers that only say whose view it is (`viewer`, `you`, `me`). */
function privateParts(seen, publicView, seat, path = []) {
  if (JSON.stringify(seen) === JSON.stringify(publicView)) return [];
  if (seen && publicView && typeof seen === "object" && typeof publicView === "object" && Array.isArray(seen) === Array.isArray(publicView)
    && (!Array.isArray(seen) || seen.length === publicView.length)) {
    const keys = new Set([...Object.keys(seen), ...Object.keys(publicView)]);
    return [...keys].flatMap((k) => privateParts(seen[k], publicView[k], seat, [...path, k]));
  }
  if (seen === seat && (publicView === null || publicView === undefined)) return [];
  return [[path, seen]];
}

/** What a path of `view` reads as: its last named key, spaced (`players.1.hand` as `hand`), and
 * whose it is when it lies in another seat's entry (`Seat 0 · random bot: hand`). */
function pathWords(view, path, seat) {
  const named = path.filter((p) => !/^\d+$/.test(String(p)));
  const words = String(named[named.length - 1] ?? "view").replace(/_/g, " ");
  let owner = null;
  let at = view;
  for (const key of path.slice(0, -1)) {
    at = at && typeof at === "object" ? at[key] : undefined;
    if (at && typeof at === "object" && Number.isInteger(at.seat)) owner = at.seat;
  }
  return owner !== null && owner !== seat ? `${who(owner)}: ${words}` : words;
}

/** A part of a view as cards: catalogued ids by their names with their tooltips, lists as rows,
 * objects by their fields. */
function pieces(value) {
  if (value === null || value === undefined) return h("span", { class: "nil" }, "none");
  if (Array.isArray(value)) {
    return value.length ? h("div", { class: "row" }, value.map(pieces)) : h("span", { class: "nil" }, "none");
  }
  if (typeof value === "object") {
    const known = value.id !== undefined ? state.names.get(value.id) : null;
    if (known) return h("span", { class: `card${value.suit ? ` suit-${String(value.suit).toLowerCase()}` : ""}`, ...tipOf(value.id, known.kind) }, known.name ?? String(value.id));
    if (typeof value.label === "string") return h("span", { class: "card" }, value.label);
    const fields = Object.entries(value).filter(([, v]) => !(v === null || v === undefined || (Array.isArray(v) && v.length === 0)));
    if (!fields.length) return h("span", { class: "nil" }, "none");
    return h("div", {}, fields.map(([k, v]) => [h("h4", {}, k.replace(/_/g, " ")), pieces(v)]));
  }
  const known = typeof value === "string" || typeof value === "number" ? state.names.get(value) : null;
  if (known && typeof value === "string") return h("span", { class: "card", ...tipOf(value, known.kind) }, known.name ?? value);
  return h("span", { class: typeof value }, String(value));
}

/** Every seat's view: what only it saw (its hand), then the whole of it as its table drew it. */
function renderHands(frame) {
  const views = Array.isArray(frame.seats) ? frame.seats : [];
  fill(document.getElementById("hand-list"), views.map((view, seat) => {
    const parts = privateParts(view, frame.view, seat);
    return h("section", { class: "player seat-view", dataset: { seat } },
      h("h3", {}, who(seat)),
      parts.length
        ? parts.map(([path, value]) => h("div", { class: "private-part", dataset: { path: path.join(".") } }, h("h4", {}, pathWords(view, path, seat)), pieces(value)))
        : h("p", { class: "nil" }, "Nothing hidden from the others."),
      h("details", { class: "raw" }, h("summary", {}, `Everything ${who(seat)} saw`), drawn(view, seat, frame)));
  }));
}

function renderEvents(frame) {
  const events = Array.isArray(frame.events) ? frame.events : [];
  fill(document.getElementById("events"), events.length
    ? events.map((e) => {
        const { words, rendered } = eventLine(e.body);
        return h("li", { dataset: { type: e.body?.type ?? "", rendered } }, words, audienceTag(e.audience));
      })
    : h("li", { class: "nil" }, frame.at === 0 ? "The game is set up: step forward to see what happened." : "This step wrote no event."));
}

function render(frame) {
  state.shown = frame.at;
  renderTurn(frame);
  renderSeats(frame);
  renderOutcome(frame);
  renderBoard(frame);
  renderHands(frame);
  renderEvents(frame);
  showMachine(state.ruleset?.machine, frame.phase);
  document.getElementById("status").textContent = frame.at === frame.steps ? "final" : `step ${frame.at}`;
  document.body.dataset.step = String(frame.at);
  document.body.dataset.final = frame.at === frame.steps ? "true" : "false";
}

/** The frame of step `at`: from the cache, or the server's replay of the record to it. */
function frameAt(at) {
  const { frames, asked, record } = state;
  if (frames.has(at)) return Promise.resolve(frames.get(at));
  if (!asked.has(at)) {
    const answer = api("/v1/records/replay", { method: "POST", body: { record, at } })
      .then(({ json }) => {
        frames.set(at, json);
        return json;
      })
      .finally(() => asked.delete(at));
    asked.set(at, answer);
  }
  return asked.get(at);
}

/** Draws the wanted step once it is had (unless another is wanted by then), then asks for the
 * next one ahead, so that stepping on is instant too. */
async function show(at) {
  const record = state.record;
  try {
    const frame = await frameAt(at);
    if (state.want !== at || state.record !== record) return;
    showError(null);
    render(frame);
    if (at < steps() && !state.frames.has(at + 1)) frameAt(at + 1).catch(() => {});
  } catch (e) {
    if (state.want === at) showError(e.message);
  }
}

/** Moves to step `at` (clamped): the slider and the counter at once, the frame when it is had;
 * a step not yet had waits `rest` ms, so that a slider dragged along asks only where it stops. */
function go(at, rest = 0) {
  const target = Math.max(0, Math.min(steps(), Math.round(Number(at) || 0)));
  state.want = target;
  slider.value = String(target);
  // The default value follows too, so that a form reset (or a WebDriver clear) keeps the step.
  slider.setAttribute("value", String(target));
  slider.setAttribute("aria-valuetext", `step ${target} of ${steps()}`);
  counter.textContent = `step ${target} of ${steps()}`;
  document.getElementById("prev").disabled = target === 0;
  document.getElementById("first").disabled = target === 0;
  document.getElementById("next").disabled = target === steps();
  document.getElementById("last").disabled = target === steps();
  history.replaceState(null, "", `${location.pathname}${location.search}#step=${target}`);
  clearTimeout(state.timer);
  if (state.frames.has(target) || rest === 0) show(target);
  else state.timer = setTimeout(() => show(target), rest);
}

/** Whether a key press belongs to a field that reads keys itself. */
function typing(target) {
  return target instanceof Element && target.matches("input:not([type=range]):not([type=file]), textarea, select, [contenteditable]");
}

/** The step the address links to (`#step=N`), if any. */
function linkedStep() {
  const linked = new URLSearchParams(location.hash.slice(1)).get("step");
  return linked !== null && /^\d+$/.test(linked) ? Number(linked) : null;
}

function controls() {
  window.addEventListener("hashchange", () => {
    const at = linkedStep();
    if (state.record && at !== null && at !== state.want) go(at);
  });
  slider.addEventListener("input", () => go(slider.value, SLIDER_REST_MS));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(state.want - 1));
  document.getElementById("next").addEventListener("click", () => go(state.want + 1));
  document.getElementById("last").addEventListener("click", () => go(steps()));
  document.addEventListener("keydown", (e) => {
    if (!state.record || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) go(state.want + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(steps());
    else return;
    e.preventDefault();
  });
}

/** Starts the viewer on `record`: its ruleset's words, renderer and rules, then step 0. */
async function open(record) {
  if (record?.format !== "roadie.record/1" || !Array.isArray(record?.steps) || typeof record?.ruleset !== "string") {
    throw new Error("this is not a game record (roadie.record/1)");
  }
  const slug = record.ruleset;
  const [ruleset, names] = await Promise.all([
    api(`/v1/rulesets/${encodeURIComponent(slug)}`).then((r) => r.json).catch(() => null),
    catalogue(slug),
  ]);
  state.record = record;
  state.ruleset = ruleset;
  state.names = names;
  state.frames = new Map();
  state.asked = new Map();
  state.renderer = null;
  if (RENDERERS[slug]) {
    try {
      state.renderer = (await import(RENDERERS[slug])).render;
    } catch (e) {
      showError(`could not load the ${slug} table: ${e.message}`);
    }
  }
  await loadRules(slug, names);
  renderRules(document.getElementById("how-to-play"), document.getElementById("rules"));
  const title = ruleset?.title ?? slug;
  document.getElementById("title").textContent = `${title} · replay of ${record.game ?? "a game"}`;
  document.title = `Roadie: ${title} replay`;
  document.body.dataset.ruleset = slug;
  document.body.dataset.steps = String(record.steps.length);
  slider.max = String(record.steps.length);
  document.getElementById("viewer").hidden = false;
  go(linkedStep() ?? 0);
}

/** The file page: a record read from disk. */
function fromFile() {
  const box = document.getElementById("open-file");
  box.hidden = false;
  box.style.margin = ".75rem 1rem";
  const input = document.getElementById("record-file");
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    showError(null);
    try {
      let record;
      try {
        record = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not JSON`);
      }
      history.replaceState(null, "", location.pathname);
      await open(record);
      document.body.dataset.file = file.name;
    } catch (e) {
      showError(e.message);
    }
  });
}

/** The game page: the game's record from the server. */
async function fromGame() {
  try {
    const { json } = await api(`/v1/games/${encodeURIComponent(id)}/record`);
    const download = document.getElementById("download");
    download.href = `/v1/games/${encodeURIComponent(id)}/record`;
    download.download = `roadie-record-${id}.json`;
    download.hidden = false;
    await open(json);
  } catch (e) {
    showError(e.message);
    if (e.code === "game_not_finished" || e.status === 409) {
      document.getElementById("error").append(" ", h("a", { href: `/play/${encodeURIComponent(id)}`, id: "table-link" }, "Watch it at its table"));
    }
  }
  document.body.dataset.ready = "true";
}

listen();
controls();
slider.style.flex = "1 1 16rem";
if (id) {
  fromGame();
} else {
  fromFile();
  document.body.dataset.ready = "true";
}
