// A form for any action, built from the ruleset's action schema in the OpenAPI document: for
// actions whose fields the legal list does not spell out, and to try one the list does not offer
// (the server then answers with the problem's reason).

import { fill, h } from "./api.js";

function resolve(schema, all, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 8) return {};
  const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : null;
  if (ref) return { ...resolve(all?.[ref], all, depth + 1), description: schema.description ?? all?.[ref]?.description };
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return { ...resolve(schema.allOf[0], all, depth + 1), description: schema.description };
  return schema;
}

function variantsOf(schema, all) {
  const root = resolve(schema, all);
  const list = Array.isArray(root.oneOf) ? root.oneOf.map((v) => resolve(v, all)) : [root];
  return list
    .map((v) => ({ type: v?.properties?.type?.enum?.[0], schema: v }))
    .filter((v) => typeof v.type === "string");
}

function field(name, schema, required) {
  const id = `action-field-${name}`;
  const choices = Array.isArray(schema.enum) ? schema.enum : (schema.oneOf ?? []).flatMap((s) => s?.enum ?? []);
  let input;
  if (choices.length && choices.every((c) => typeof c === "string")) {
    input = h("select", { id, name, dataset: { kind: "string" } }, required ? null : h("option", { value: "" }, "none"), choices.map((c) => h("option", { value: c }, c)));
  } else if (schema.type === "integer" || schema.type === "number") {
    input = h("input", { id, name, type: "number", min: schema.minimum, max: schema.maximum, dataset: { kind: "number" } });
  } else if (schema.type === "boolean") {
    input = h("input", { id, name, type: "checkbox", dataset: { kind: "boolean" } });
  } else if (schema.type === "string") {
    input = h("input", { id, name, type: "text", dataset: { kind: "string" } });
  } else {
    input = h("input", { id, name, type: "text", placeholder: "JSON", dataset: { kind: "json" } });
  }
  return h("label", { class: "option" }, name.replace(/_/g, " "), input, schema.description ? h("small", {}, schema.description) : null);
}

function read(box) {
  const action = {};
  for (const input of box.querySelectorAll("input, select")) {
    const kind = input.dataset.kind;
    if (kind === "boolean") action[input.name] = input.checked;
    else if (input.value === "") continue;
    else if (kind === "number") action[input.name] = Number(input.value);
    else if (kind === "string") action[input.name] = input.value;
    else {
      try {
        action[input.name] = JSON.parse(input.value);
      } catch {
        action[input.name] = input.value;
      }
    }
  }
  return action;
}

/** The form, or null when the schema names no action type; `send(action)` posts it. */
export function actionForm(schema, all, send) {
  const variants = variantsOf(schema, all);
  if (!variants.length) return null;
  const chooser = h("select", { id: "action-type", name: "type" }, variants.map((v) => h("option", { value: v.type }, v.type.replace(/_/g, " "))));
  const about = h("p", { class: "desc" });
  const fields = h("div", { class: "fields" });
  const show = () => {
    const variant = variants.find((v) => v.type === chooser.value) ?? variants[0];
    about.textContent = variant.schema.description ?? "";
    const required = Array.isArray(variant.schema.required) ? variant.schema.required : [];
    fill(fields, Object.entries(variant.schema.properties ?? {})
      .filter(([name]) => name !== "type")
      .map(([name, s]) => field(name, resolve(s, all), required.includes(name))));
  };
  chooser.addEventListener("change", show);
  show();
  const form = h("form", { class: "action-form" },
    h("label", { class: "option" }, "action", chooser), about, fields,
    h("button", { type: "submit", id: "action-send" }, "Send this action"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: chooser.value, ...read(fields) });
  });
  return h("details", { class: "free-action", id: "free-action" }, h("summary", {}, "Another action, from the ruleset's action schema"), form);
}
