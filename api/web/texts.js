// The words a ruleset serves, as the table shows them: each event as a sentence from the ruleset
// document's `messages`, each component's `text` in a tooltip, rule ids as links to the rules
// panel, and the "How to play" overview from `GET /v1/rulesets/{ruleset}/rules`.

import { api, fill, h, nameNode } from "./api.js";

/** A ruling id standing alone as a word (`G23`, `R30`, `S19`), as the server finds them. */
const CITED = /(?<![A-Za-z0-9_])[GRS]\d{1,2}(?![A-Za-z0-9_])/g;

/** A placeholder: `{path}`, `{path|seat}` or `{path|name}`. */
const PLACEHOLDER = /\{([a-z0-9_.]+)(?:\|(seat|name))?\}/g;

/** The ruleset's rules by id, once [loadRules] has them. */
let rules = new Map();

/** The component catalogue the tooltips read, set by [loadRules]. */
let catalogue = null;

/** The ruleset's rules (`GET /v1/rulesets/{slug}/rules`) by id, empty when they cannot be had. */
export async function loadRules(slug, names) {
  catalogue = names;
  try {
    const { json } = await api(`/v1/rulesets/${encodeURIComponent(slug)}/rules`);
    const list = Array.isArray(json?.rules) ? json.rules : [];
    rules = new Map(list.filter((r) => typeof r?.id === "string").map((r) => [r.id, r]));
  } catch {
    rules = new Map();
  }
  return rules;
}

/** Every rule id `text` cites that the served rules resolve, in order of first mention. */
export function citedRules(text) {
  return [...new Set(String(text ?? "").match(CITED) ?? [])].filter((id) => rules.has(id));
}

/** A link that opens rule `id` in the rules panel (inline, so it wraps with the text round it). */
export function ruleLink(id) {
  return h("a", { href: `#rule-${id}`, role: "button", class: "rule-link", dataset: { rule: id }, title: rules.get(id)?.title ?? null }, id);
}

/** `text` with each rule id it cites that the served rules resolve as a [ruleLink]. */
export function withRuleLinks(text) {
  const source = String(text ?? "");
  const parts = [];
  let at = 0;
  for (const match of source.matchAll(CITED)) {
    if (!rules.has(match[0])) continue;
    parts.push(source.slice(at, match.index), ruleLink(match[0]));
    at = match.index + match[0].length;
  }
  parts.push(source.slice(at));
  return parts;
}

/** A plain value of an event as words: a catalogued id as its name, `snake_case` as spaced
 * words, `true` as `yes`. */
function plain(value, names) {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return names?.get(value)?.name ?? value.replace(/_/g, " ");
  return String(value);
}

/**
 * `event` as a sentence by `template` (the syntax of the ruleset document's `messages`): the nodes
 * of the first alternative whose placeholders are all present, or `null`. `{path|seat}` becomes
 * `seat(n)`, `{path|name}` the catalogue's name with the component's tooltip.
 */
export function sentence(template, event, { names, seat }) {
  for (const alternative of String(template).split(" || ")) {
    const parts = [];
    let at = 0;
    let complete = true;
    for (const match of alternative.matchAll(PLACEHOLDER)) {
      const [whole, path, as] = match;
      const value = path.split(".").reduce((v, key) => (v && typeof v === "object" ? v[key] : undefined), event);
      const one = (v) => {
        if (v === null || v === undefined || typeof v === "object") return null;
        if (as === "seat") return Number.isInteger(v) ? seat(v) : null;
        if (as === "name") return component(names, v, null, names.name(v));
        return plain(v, names);
      };
      const items = Array.isArray(value) ? value.map(one) : [one(value)];
      if (value === null || value === undefined || items.some((i) => i === null)) {
        complete = false;
        break;
      }
      parts.push(alternative.slice(at, match.index), ...items.flatMap((item, i) => (i ? [", ", item] : [item])));
      at = match.index + whole.length;
    }
    if (complete) {
      parts.push(alternative.slice(at));
      return parts.filter((p) => p !== "");
    }
  }
  return null;
}

/** How a seat reads in a sentence: its player's name, else `Seat 2` (with its bot's level). */
export function seatWords(seat, occupants) {
  const info = Array.isArray(occupants) ? occupants.find((o) => o?.seat === seat) : null;
  if (info?.occupant === "player" && typeof info.name === "string" && info.name) return nameNode(info.name);
  if (info?.occupant === "bot") return `Seat ${seat} (${info.level ?? "a"} bot)`;
  return `Seat ${seat}`;
}

/** The attributes that give an element the tooltip of component `id` (of catalogue `kind`). */
export function tipOf(id, kind, dataset = {}) {
  if (id === null || id === undefined) return { dataset };
  return { tabindex: "0", dataset: { ...dataset, tip: String(id), tipKind: kind ?? "" } };
}

/**
 * An element for component `id` (of catalogue `kind` when known) that shows the component's
 * name and text in a tooltip on hover, focus or tap.
 */
export function component(names, id, kind, ...children) {
  const known = names?.get(id, kind);
  return h("span", { class: "piece", ...tipOf(id, kind ?? known?.kind) }, children.length ? children : known?.name ?? String(id));
}

/** The catalogue entry a tooltip describes: of its kind, else the first with a text. */
function described(id, kind) {
  if (!catalogue) return null;
  const exact = kind ? catalogue.get(id, kind) : null;
  return exact ?? catalogue.withText(id) ?? catalogue.get(id);
}

/** A catalogue kind as one of it: `influence_cards` as `influence card`, `cities` as `city`. */
function singular(kind) {
  return kind.replace(/_/g, " ").replace(/ies$/, "y").replace(/([^s])s$/, "$1");
}

let tip = null;
let anchor = null;
let pinned = false;
let hideTimer = 0;

function tipBox() {
  if (!tip) {
    tip = h("div", { id: "tip", class: "tip", role: "tooltip", hidden: true });
    document.body.append(tip);
  }
  return tip;
}

/** Shows the tooltip of `el` (a `[data-tip]` element) below it. A hovered one lets the pointer
 * through; a tapped one (`pin`) stays, its rule links live, until closed. */
function showTip(el, pin = false) {
  clearTimeout(hideTimer);
  const box = tipBox();
  const entry = described(el.dataset.tip, el.dataset.tipKind);
  const name = entry?.name ?? el.dataset.tip;
  fill(box,
    h("button", { type: "button", class: "tip-close", "aria-label": "Close" }, "×"),
    h("strong", {}, name),
    entry?.kind ? h("span", { class: "tag" }, singular(entry.kind)) : null,
    entry?.text ? h("p", { class: "tip-text" }, withRuleLinks(entry.text)) : h("p", { class: "tip-text nil" }, "No special effect."));
  box.dataset.for = el.dataset.tip;
  box.dataset.kind = entry?.kind ?? "";
  box.hidden = false;
  box.classList.toggle("pinned", pin);
  anchor = el;
  pinned = pin;
  const at = el.getBoundingClientRect();
  const width = Math.min(320, document.documentElement.clientWidth - 16);
  box.style.width = `${width}px`;
  box.style.left = `${Math.max(8, Math.min(at.left, document.documentElement.clientWidth - width - 8)) + window.scrollX}px`;
  box.style.top = `${at.bottom + window.scrollY + 4}px`;
}

function hideTip() {
  clearTimeout(hideTimer);
  if (tip) tip.hidden = true;
  anchor = null;
  pinned = false;
}

function hideSoon() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideTip, 300);
}

/** Fills the "How to play" panel with the served overview and the rules panel with every rule. */
export function renderRules(howTo, panel) {
  const all = [...rules.values()];
  const overview = all.filter((r) => !/^[GRS]\d{1,2}$/.test(r.id));
  const rulings = all.filter((r) => /^[GRS]\d{1,2}$/.test(r.id));
  fill(howTo, h("summary", {}, h("h2", {}, "How to play")),
    overview.length
      ? overview.map((r) => h("div", { class: "overview", dataset: { rule: r.id } }, h("h3", {}, r.title), h("p", {}, withRuleLinks(r.text))))
      : h("p", { class: "nil" }, "No rules are served for this game."));
  fill(panel, h("h2", {}, "Rules"),
    h("div", { id: "rule-shown", class: "rule-shown" }, h("p", { class: "nil" }, "Pick a rule id (such as ", rulings[0] ? ruleLink(rulings[0].id) : "R1", ") anywhere on the page to read it here.")),
    h("details", { id: "rule-index", class: "rule-index" }, h("summary", {}, `All ${rulings.length} rules`),
      h("ul", {}, rulings.map((r) => h("li", { dataset: { rule: r.id } }, ruleLink(r.id), " ", r.title)))));
}

/** Shows rule `id` in the rules panel, with links to the rules it cites. */
export function openRule(id) {
  const rule = rules.get(id);
  const shown = document.getElementById("rule-shown");
  if (!rule || !shown) return;
  hideTip();
  fill(shown,
    h("h3", {}, `${rule.id} · ${rule.title}`),
    h("p", { class: "rule-text" }, withRuleLinks(rule.text)),
    Array.isArray(rule.see) && rule.see.length ? h("p", { class: "see" }, "See ", rule.see.filter((s) => rules.has(s)).map((s, i) => [i ? ", " : "", ruleLink(s)])) : null);
  shown.dataset.rule = id;
  for (const li of document.querySelectorAll("#rule-index li")) li.classList.toggle("current", li.dataset.rule === id);
  document.body.dataset.rule = id;
  document.getElementById("rules")?.scrollIntoView({ block: "nearest" });
}

/** Listens for rule links, tooltips and their closing anywhere on the page. */
export function listen() {
  document.addEventListener("click", (e) => {
    const target = e.target instanceof Element ? e.target : null;
    const link = target?.closest(".rule-link");
    if (link) {
      e.preventDefault();
      openRule(link.dataset.rule);
      return;
    }
    if (target?.closest(".tip-close")) {
      hideTip();
      return;
    }
    const piece = target?.closest("[data-tip]");
    if (piece) {
      showTip(piece, true);
      return;
    }
    if (tip && !tip.hidden && !target?.closest("#tip")) hideTip();
  });
  document.addEventListener("mouseover", (e) => {
    const piece = e.target instanceof Element ? e.target.closest("[data-tip]") : null;
    if (piece && !pinned && piece !== anchor) showTip(piece);
  });
  document.addEventListener("mouseout", (e) => {
    const piece = e.target instanceof Element ? e.target.closest("[data-tip]") : null;
    if (piece && piece === anchor && !pinned && !piece.contains(e.relatedTarget)) hideSoon();
  });
  document.addEventListener("focusin", (e) => {
    const piece = e.target instanceof Element ? e.target.closest("[data-tip]") : null;
    if (piece && !pinned) showTip(piece);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hideTip();
    if ((e.key === "Enter" || e.key === " ") && e.target instanceof Element && e.target.matches("[data-tip]")) {
      e.preventDefault();
      showTip(e.target, true);
    }
  });
}
