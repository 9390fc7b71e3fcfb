// The lobby: pick a ruleset, its options and seats, create a game and share each seat's link.

import { api, fill, h, holdToken, showError } from "./api.js";
import { machineList } from "./machine.js";

const select = document.getElementById("ruleset");
const seats = document.getElementById("seats");
const optionsBox = document.getElementById("options");
const rules = document.getElementById("rules");
const created = document.getElementById("created");
let schemas = null;
let current = null;

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

function showCreated(game) {
  const base = `${location.origin}/play/${encodeURIComponent(game.id)}`;
  const links = (Array.isArray(game.seats) ? game.seats : []).map((s) =>
    h("li", {}, h("a", { class: "seat-link", href: `${base}#token=${encodeURIComponent(s.token)}`, dataset: { seat: s.seat } }, `Seat ${s.seat}`), " (send this link to that player only: it holds the seat's token)"),
  );
  const all = h("button", {
    type: "button",
    id: "play-here",
    onclick: () => {
      for (const s of game.seats ?? []) holdToken(game.id, s.token);
      location.assign(base);
    },
  }, "Play every seat in this tab");
  created.hidden = false;
  fill(created, 
    h("h2", {}, `Game ${game.id} created`),
    h("ul", { class: "links" }, links, h("li", {}, h("a", { class: "spectator-link", href: base }, "Spectator"))),
    all,
  );
}

document.getElementById("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(null);
  const body = { ruleset: select.value, seats: Number(seats.value), options: readOptions() };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  try {
    const { json } = await api("/v1/games", { method: "POST", body });
    showCreated(json);
  } catch (e) {
    showError(e.message);
  }
});

select.addEventListener("change", () => choose(select.value));

try {
  const { json } = await api("/v1/rulesets");
  const list = Array.isArray(json?.rulesets) ? json.rulesets : [];
  fill(select, ...list.map((r) => h("option", { value: r.slug }, `${r.title ?? r.slug} (${r?.seats?.min ?? "?"}-${r?.seats?.max ?? "?"} seats)`)));
  if (list.length) await choose(list[0].slug);
  document.body.dataset.ready = "true";
} catch (e) {
  showError(e.message);
}
