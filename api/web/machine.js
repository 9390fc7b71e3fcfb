// The ruleset's phase machine as a list of phases with their edges, the current one marked; the
// rule ids they cite link to the rules panel once the table has the rules.

import { fill, h } from "./api.js";
import { withRuleLinks } from "./texts.js";

/** Shows `machine` in the panel `#machine` with `phase` marked, scrolled to that phase. */
export function showMachine(machine, phase) {
  const panel = fill(document.getElementById("machine"), machineList(machine, phase));
  const list = panel.querySelector(".machine");
  const now = panel.querySelector(".current");
  if (list && now) list.scrollTop = now.offsetTop - list.offsetTop - 8;
}

/** The phases of `machine` (`{initial, phases: [{name, description, actions, transitions}]}`). */
export function machineList(machine, current) {
  const phases = Array.isArray(machine?.phases) ? machine.phases : [];
  if (phases.length === 0) return h("p", { class: "nil" }, "no phase machine published");
  return h(
    "ol",
    { class: "machine" },
    phases.map((phase) => {
      const name = String(phase?.name ?? "?");
      const edges = Array.isArray(phase?.transitions) ? phase.transitions : [];
      return h(
        "li",
        { class: name === current ? "phase current" : "phase", dataset: { phase: name }, "aria-current": name === current ? "step" : null },
        h("strong", {}, name.replace(/_/g, " ")),
        name === machine.initial ? h("span", { class: "tag" }, "start") : null,
        name === current ? h("span", { class: "tag now" }, "now") : null,
        phase?.description ? h("p", { class: "desc" }, withRuleLinks(phase.description)) : null,
        edges.length
          ? h("ul", { class: "edges" }, edges.map((e) => h("li", {}, `→ ${String(e?.to ?? "?").replace(/_/g, " ")}`, e?.when ? h("span", { class: "when" }, ": ", withRuleLinks(e.when)) : null)))
          : null,
      );
    }),
  );
}
