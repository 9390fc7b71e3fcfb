// The generic view: any JSON as a readable tree, with ids named from the component catalogue.

import { h } from "./api.js";

/** A readable tree of `value`. */
export function tree(value, names) {
  if (value === null || value === undefined) return h("span", { class: "nil" }, "none");
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "nil" }, "[]");
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", { class: "scalars" }, value.map((v, i) => [i ? ", " : "", scalar(v, names)]));
    }
    return h("ol", { class: "tree", start: 0 }, value.map((v) => h("li", {}, tree(v, names))));
  }
  if (typeof value === "object") {
    return h(
      "dl",
      { class: "tree" },
      Object.entries(value).map(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, tree(v, names))]),
    );
  }
  return scalar(value, names);
}

function scalar(value, names) {
  if (typeof value === "string" && names) {
    const named = names.get(value);
    if (named?.name) return h("span", { class: "named", title: value }, named.name);
  }
  return h("span", { class: typeof value }, String(value));
}

/** A short label for an action or event: its type, then its other fields. */
export function label(value, names) {
  if (value === null || typeof value !== "object") return String(value);
  const { type, ...rest } = value;
  const parts = Object.entries(rest).map(([k, v]) => `${k.replace(/_/g, " ")} ${brief(v, names)}`);
  return [type ? String(type).replace(/_/g, " ") : "", ...parts].filter(Boolean).join(" · ");
}

function brief(v, names) {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) return `[${v.map((x) => brief(x, names)).join(", ")}]`;
  if (typeof v === "object") return `{${label(v, names)}}`;
  if (names && typeof v === "string") {
    const named = names.get(v);
    if (named?.name) return named.name;
  }
  return String(v);
}
