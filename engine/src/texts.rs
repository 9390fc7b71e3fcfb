//! The words a ruleset serves so that a person can learn the game from any client: its rules
//! (read from the game folder's `RULES.md`), what each component does ([`Effect`]) and a sentence
//! template for each event type ([`render`]).
//!
//! # Rules
//!
//! A game's `RULES.md` lists its rules one a line, `- ID: **Title.** Text`: first the "how to
//! play" overview (ids `goal`, `turn`, `end`, `scoring`, ...), then every ruling the code cites.
//! [`rules`] reads them; a rule's `see` is every other rule id its text cites.
//!
//! # Message templates
//!
//! A template is text with placeholders in braces. `{path}` is a field of the event, a dotted
//! path for a nested one (`{card.id}`, `{from.seat}`); `{path|seat}` is a seat number (or a list
//! of them) shown as the seat's occupant; `{path|name}` is a component id (or a list of them)
//! shown as the catalogue's name for it. A list shows its items joined by `, `. A template may
//! offer alternatives separated by ` || `: the first whose placeholders are all present (not
//! missing, not `null`) is used, which covers optional fields and events whose fields differ by
//! variant.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// One rule as served: a ruling, or a part of the "how to play" overview.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Rule {
    /// Stable id: a ruling's (`G23`, `R30`, `S19`) or an overview part's (`goal`, `turn`).
    pub id: String,
    /// A short title.
    pub title: String,
    /// What the rule says, in Roadie's words.
    pub text: String,
    /// The other rules the text cites, in order of first mention.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub see: Vec<String>,
}

/// The rules of a game's `RULES.md` (`- ID: **Title.** Text` lines), in file order. A line not
/// in that form is left out, and the test of every game's `RULES.md` finds it.
pub fn rules(reference: &str) -> Vec<Rule> {
    reference.lines().filter_map(rule).collect()
}

fn rule(line: &str) -> Option<Rule> {
    let (id, rest) = line.strip_prefix("- ")?.split_once(": ")?;
    let (title, text) = rest.strip_prefix("**")?.split_once(".** ")?;
    let see = cited_ids(text).into_iter().filter(|cited| cited != id).collect();
    Some(Rule {
        id: id.to_owned(),
        title: title.to_owned(),
        text: text.to_owned(),
        see,
    })
}

/// The ruling ids `text` cites, in order of first mention: `G`, `R` or `S` and one or two
/// digits standing alone as a word (`R25/R43 (S36)`, but not `R200a`, `GS1` or `x_R2`).
pub fn cited_ids(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let word = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    };
    let mut out: Vec<String> = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if !matches!(b, b'G' | b'R' | b'S') || (i > 0 && word(i - 1)) {
            continue;
        }
        let digits = bytes[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        let id = &text[i..i + 1 + digits];
        if (1..=2).contains(&digits) && !word(i + 1 + digits) && !out.iter().any(|o| o == id) {
            out.push(id.to_owned());
        }
    }
    out
}

/// What a component does, in Roadie's words, and the rules it rests on: the `text` of every
/// entry of the catalogue's `kind` whose field `field` is `value` (a string, or a number or
/// boolean written out).
#[derive(Clone, Copy, Debug)]
pub struct Effect {
    /// The catalogue kind (`influence_cards`, `characters`).
    pub kind: &'static str,
    /// The field that picks the entries (`id`, `character`).
    pub field: &'static str,
    /// Its value.
    pub value: &'static str,
    /// What the component does and when, citing the rule ids it rests on.
    pub text: &'static str,
}

/// `catalogue` with each entry an effect picks given that effect's `text`; an entry several
/// effects pick gets their texts one after the other.
pub fn with_effects(mut catalogue: crate::Catalogue, effects: &[Effect]) -> crate::Catalogue {
    for effect in effects {
        let Some(Value::Array(entries)) = catalogue.get_mut(effect.kind) else {
            continue;
        };
        for entry in entries.iter_mut().filter(|e| picks(effect, e)) {
            let text = match entry.get("text").and_then(Value::as_str) {
                Some(before) => format!("{before} {}", effect.text),
                None => effect.text.to_owned(),
            };
            entry["text"] = Value::String(text);
        }
    }
    catalogue
}

fn picks(effect: &Effect, entry: &Value) -> bool {
    match entry.get(effect.field) {
        Some(Value::String(s)) => s == effect.value,
        Some(Value::Number(n)) => n.as_u64().is_some_and(|n| effect.value.parse() == Ok(n)),
        Some(Value::Bool(b)) => effect.value.parse() == Ok(*b),
        _ => false,
    }
}

/// A placeholder of a template: the field's path and how it is shown.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Placeholder {
    /// The field's dotted path (`card.id`).
    pub path: String,
    /// How the value is shown.
    pub shown: Shown,
}

/// How a placeholder's value is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shown {
    /// As it is.
    Plain,
    /// A seat number, as the seat's occupant.
    Seat,
    /// A component id, as its catalogue name.
    Name,
}

/// The alternatives of a template, each with its placeholders; an error names a placeholder that
/// is not `{path}`, `{path|seat}` or `{path|name}`, or an unclosed brace.
pub fn parse(template: &str) -> Result<Vec<Vec<Placeholder>>, String> {
    template
        .split(" || ")
        .map(|alternative| {
            let mut found = Vec::new();
            let mut rest = alternative;
            while let Some(open) = rest.find('{') {
                let close = rest[open..]
                    .find('}')
                    .ok_or_else(|| format!("an unclosed brace in {template:?}"))?;
                let inner = &rest[open + 1..open + close];
                let (path, shown) = match inner.split_once('|') {
                    None => (inner, Shown::Plain),
                    Some((path, "seat")) => (path, Shown::Seat),
                    Some((path, "name")) => (path, Shown::Name),
                    Some(_) => return Err(format!("{{{inner}}} in {template:?}: only |seat and |name")),
                };
                let valid = |part: &str| {
                    !part.is_empty()
                        && part
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                };
                if !path.split('.').all(valid) {
                    return Err(format!("{{{inner}}} in {template:?} is not a field path"));
                }
                found.push(Placeholder {
                    path: path.to_owned(),
                    shown,
                });
                rest = &rest[open + close + 1..];
            }
            Ok(found)
        })
        .collect()
}

/// The value at a dotted `path` of `event`, if present and not `null`.
pub fn field<'a>(event: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(event, |value, key| value.get(key))
        .filter(|v| !v.is_null())
}

/// `event` as a sentence by `template`, seats shown by `seat` and ids by `name`; `None` when no
/// alternative has all its placeholders, each `|seat` value a seat number (or a list of them)
/// and each `|name` value an id (a string or a number, or a list of them).
pub fn render(
    template: &str,
    event: &Value,
    seat: &dyn Fn(u64) -> String,
    name: &dyn Fn(&Value) -> String,
) -> Option<String> {
    'alternatives: for alternative in template.split(" || ") {
        let mut out = String::new();
        let mut rest = alternative;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let close = open + rest[open..].find('}')?;
            let inner = &rest[open + 1..close];
            let (path, shown) = inner.split_once('|').unwrap_or((inner, ""));
            let Some(value) = field(event, path) else {
                continue 'alternatives;
            };
            let one = |v: &Value| match (shown, v) {
                ("seat", v) => v.as_u64().map(seat),
                ("name", Value::String(_) | Value::Number(_)) => Some(name(v)),
                ("name", _) => None,
                (_, Value::String(s)) => Some(s.clone()),
                (_, v) => Some(v.to_string()),
            };
            let shown = match value {
                Value::Array(items) => items
                    .iter()
                    .map(one)
                    .collect::<Option<Vec<_>>>()
                    .map(|items| items.join(", ")),
                v => one(v),
            };
            let Some(shown) = shown else {
                continue 'alternatives;
            };
            out.push_str(&shown);
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        return Some(out);
    }
    None
}

/// The fields of each event type of an event union in OpenAPI schemas (`schemas`, by name, as
/// JSON): each type's dotted paths, with whether each holds an object (an object is no
/// placeholder). A variant of a nested `oneOf` adds its fields to the same paths.
pub fn event_fields(
    schemas: &serde_json::Map<String, Value>,
    union: &str,
) -> BTreeMap<String, BTreeMap<String, bool>> {
    let mut out = BTreeMap::new();
    let mut variants = Vec::new();
    if let Some(schema) = schemas.get(union) {
        leaves(schemas, schema, &mut variants, 0);
    }
    for variant in variants {
        let mut paths = BTreeMap::new();
        fields(schemas, variant, "", &mut paths, 0);
        let kind = properties(schemas, variant)
            .get("type")
            .and_then(|t| resolve(schemas, t).get("enum"))
            .and_then(|e| e.get(0))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(kind) = kind {
            paths.remove("type");
            out.insert(kind, paths);
        }
    }
    out
}

fn resolve<'a>(schemas: &'a serde_json::Map<String, Value>, schema: &'a Value) -> &'a Value {
    let mut schema = schema;
    for _ in 0..16 {
        match schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.rsplit('/').next())
            .and_then(|name| schemas.get(name))
        {
            Some(next) => schema = next,
            None => break,
        }
    }
    schema
}

fn leaves<'a>(
    schemas: &'a serde_json::Map<String, Value>,
    schema: &'a Value,
    out: &mut Vec<&'a Value>,
    depth: u8,
) {
    let schema = resolve(schemas, schema);
    match schema.get("oneOf").and_then(Value::as_array) {
        Some(items) if depth < 4 => items.iter().for_each(|i| leaves(schemas, i, out, depth + 1)),
        _ => out.push(schema),
    }
}

fn properties(schemas: &serde_json::Map<String, Value>, schema: &Value) -> serde_json::Map<String, Value> {
    let schema = resolve(schemas, schema);
    let mut out = serde_json::Map::new();
    if let Some(Value::Object(own)) = schema.get("properties") {
        out.extend(own.clone());
    }
    for part in ["allOf", "oneOf", "anyOf"] {
        for sub in schema.get(part).and_then(Value::as_array).into_iter().flatten() {
            out.extend(properties(schemas, sub));
        }
    }
    out
}

fn fields(
    schemas: &serde_json::Map<String, Value>,
    schema: &Value,
    prefix: &str,
    out: &mut BTreeMap<String, bool>,
    depth: u8,
) {
    if depth > 4 {
        return;
    }
    for (key, value) in properties(schemas, schema) {
        let path = format!("{prefix}{key}");
        let nested = properties(schemas, &value);
        let object = !nested.is_empty();
        *out.entry(path.clone()).or_insert(object) |= object;
        if object {
            fields(schemas, &value, &format!("{path}."), out, depth + 1);
        }
    }
}

/// What is wrong with `messages` for the event types of `fields` (from [`event_fields`]): an
/// event type without a template, a template for no event type, a template that does not parse,
/// and a placeholder naming no field of its event or naming an object.
pub fn message_problems(
    fields: &BTreeMap<String, BTreeMap<String, bool>>,
    messages: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for kind in fields.keys().filter(|k| !messages.contains_key(*k)) {
        problems.push(format!("{kind}: no template"));
    }
    for (kind, template) in messages {
        let Some(known) = fields.get(kind) else {
            problems.push(format!("{kind}: a template for no event type"));
            continue;
        };
        match parse(template) {
            Err(e) => problems.push(format!("{kind}: {e}")),
            Ok(alternatives) => {
                for placeholder in alternatives.iter().flatten() {
                    match known.get(&placeholder.path) {
                        None => problems.push(format!("{kind}: no field {}", placeholder.path)),
                        Some(true) => problems.push(format!("{kind}: {} is an object", placeholder.path)),
                        Some(false) => {}
                    }
                }
            }
        }
    }
    problems
}

/// A ruleset's messages, by event type.
pub fn messages(table: &[(&str, &str)]) -> BTreeMap<String, String> {
    table
        .iter()
        .map(|(kind, template)| ((*kind).to_owned(), (*template).to_owned()))
        .collect()
}

/// Every rule id `value` cites in any of its strings.
pub fn cited_in(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) => out.extend(cited_ids(s)),
        Value::Array(items) => items.iter().for_each(|v| cited_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| cited_in(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;
    use crate::{AnyGame, RULESETS, Ruleset, Seat};

    /// The kinds whose every component does something in play, so each carries a `text`.
    const KINDS_WITH_TEXT: &[(&str, &[&str])] = &[
        ("shrewd-producer", &["songs", "scout_money"]),
        (
            "rock-the-world",
            &["cards", "characters", "leads", "spaces", "travel_tokens"],
        ),
        (
            "show-business",
            &[
                "influence_cards",
                "characters",
                "artists",
                "concert_tokens",
                "event_rondel_fields",
            ],
        ),
    ];

    fn folder(ruleset: &Ruleset) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/games")
            .join(ruleset.slug.replace('-', "_"))
    }

    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    fn schemas(ruleset: &Ruleset) -> serde_json::Map<String, Value> {
        (ruleset.schemas)()
            .all
            .into_iter()
            .map(|(name, schema)| (name, serde_json::to_value(schema).expect("a schema is JSON")))
            .collect()
    }

    /// Where each rule id the ruleset cites is cited: its folder's files (code, `RULES.md`,
    /// data) and everything it serves (phase machine, schemas with the options' and events'
    /// descriptions, the catalogue's texts, the messages and the rules themselves).
    fn cited(ruleset: &Ruleset) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let mut add = |place: &str, ids: BTreeSet<String>| {
            for id in ids {
                out.entry(id).or_insert_with(|| place.to_owned());
            }
        };
        let mut paths = Vec::new();
        files(&folder(ruleset), &mut paths);
        for path in paths {
            if let Ok(text) = std::fs::read_to_string(&path) {
                add(
                    &path.display().to_string(),
                    cited_ids(&text).into_iter().collect(),
                );
            }
        }
        let served = [
            (
                "the phase machine",
                serde_json::to_value((ruleset.machine)()).expect("JSON"),
            ),
            ("the schemas", Value::Object(schemas(ruleset))),
            ("the catalogue", Value::Object((ruleset.components)())),
            (
                "the messages",
                serde_json::to_value((ruleset.messages)()).expect("JSON"),
            ),
            (
                "the rules",
                serde_json::to_value((ruleset.rules)()).expect("JSON"),
            ),
        ];
        for (place, value) in served {
            let mut ids = BTreeSet::new();
            cited_in(&value, &mut ids);
            add(place, ids);
        }
        out
    }

    fn unresolved(rules: &[Rule], cited: &BTreeMap<String, String>) -> Vec<String> {
        cited
            .iter()
            .filter(|(id, _)| !rules.iter().any(|r| &r.id == *id))
            .map(|(id, place)| format!("{id} (cited in {place})"))
            .collect()
    }

    #[test]
    fn every_rule_id_a_ruleset_cites_anywhere_is_served() {
        for ruleset in RULESETS {
            let rules = (ruleset.rules)();
            let cited = cited(ruleset);
            assert!(
                cited.len() > 20,
                "{}: only {} ids found",
                ruleset.slug,
                cited.len()
            );
            let missing = unresolved(&rules, &cited);
            assert!(missing.is_empty(), "{}: {missing:#?}", ruleset.slug);
        }
    }

    /// The check above can fail: an id no rule explains is reported with where it is cited.
    #[test]
    fn an_unexplained_rule_id_is_caught() {
        let rules = (RULESETS[0].rules)();
        let cited = BTreeMap::from([("G99".to_owned(), "a test".to_owned())]);
        assert_eq!(unresolved(&rules, &cited), ["G99 (cited in a test)"]);
    }

    #[test]
    fn every_rules_reference_line_is_a_rule_and_the_overview_is_served() {
        for ruleset in RULESETS {
            let reference = std::fs::read_to_string(folder(ruleset).join("RULES.md")).expect("RULES.md");
            let listed = reference.lines().filter(|l| l.starts_with("- ")).count();
            let rules = (ruleset.rules)();
            assert_eq!(
                rules.len(),
                listed,
                "{}: a line is not `- ID: **Title.** Text`",
                ruleset.slug
            );
            let mut ids = BTreeSet::new();
            for rule in &rules {
                assert!(ids.insert(rule.id.clone()), "{}: {} twice", ruleset.slug, rule.id);
                assert!(!rule.title.is_empty() && rule.text.len() > 20, "{rule:?}");
            }
            for part in ["goal", "setup", "turn", "end", "scoring"] {
                assert!(ids.contains(part), "{}: no overview part {part}", ruleset.slug);
            }
        }
    }

    #[test]
    fn a_rule_line_reads_as_id_title_text_and_cites_its_see() {
        let rules =
            rules("intro\n- G4: **Completing a song.** Distinct artists (G3, G2; G3).\n- G5: no title");
        assert_eq!(
            rules,
            [Rule {
                id: "G4".into(),
                title: "Completing a song".into(),
                text: "Distinct artists (G3, G2; G3).".into(),
                see: vec!["G3".into(), "G2".into()],
            }]
        );
        assert_eq!(
            cited_ids("G9: R25/R43 (S36) but not R200a, GS1, S123 or x_R2"),
            ["G9", "R25", "R43", "S36"]
        );
    }

    #[test]
    fn every_effect_picks_a_component_and_every_kind_that_acts_has_text() {
        for ruleset in RULESETS {
            let catalogue = (ruleset.components)();
            let plain = crate::texts::with_effects(catalogue.clone(), &[]);
            for (kind, entries) in &catalogue {
                for entry in entries.as_array().into_iter().flatten() {
                    if let Some(text) = entry.get("text") {
                        assert!(
                            text.as_str().is_some_and(|t| t.len() > 20),
                            "{}: {entry}",
                            ruleset.slug
                        );
                    }
                }
                let needs = KINDS_WITH_TEXT
                    .iter()
                    .any(|(slug, kinds)| *slug == ruleset.slug && kinds.contains(&kind.as_str()));
                if needs {
                    let bare: Vec<&Value> = entries
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|e| e.get("text").is_none())
                        .collect();
                    assert!(bare.is_empty(), "{}: {kind} without text: {bare:?}", ruleset.slug);
                }
            }
            assert_eq!(plain.len(), catalogue.len());
        }
    }

    #[test]
    fn every_effect_of_every_game_picks_at_least_one_component() {
        struct Picks(Vec<String>);
        impl crate::EachGame for Picks {
            fn visit<G: crate::Game>(&mut self) {
                let catalogue = G::components();
                for effect in G::EFFECTS {
                    let picked = catalogue
                        .get(effect.kind)
                        .and_then(Value::as_array)
                        .is_some_and(|entries| entries.iter().any(|e| picks(effect, e)));
                    if !picked {
                        self.0.push(format!("{}: {effect:?} picks nothing", G::SLUG));
                    }
                }
            }
        }
        let mut run = Picks(Vec::new());
        crate::for_each_game(&mut run);
        assert!(run.0.is_empty(), "{:#?}", run.0);
    }

    #[test]
    fn every_event_type_has_a_template_naming_only_its_fields() {
        for ruleset in RULESETS {
            let fields = event_fields(&schemas(ruleset), &(ruleset.schemas)().event);
            assert!(
                fields.len() > 15,
                "{}: {} event types",
                ruleset.slug,
                fields.len()
            );
            let problems = message_problems(&fields, &(ruleset.messages)());
            assert!(problems.is_empty(), "{}: {problems:#?}", ruleset.slug);
        }
    }

    /// The check above can fail: a missing template, an unknown field, an object, a stray type.
    #[test]
    fn a_template_off_its_event_is_caught() {
        let ruleset = &RULESETS[1];
        let fields = event_fields(&schemas(ruleset), &(ruleset.schemas)().event);
        let mut messages = (ruleset.messages)();
        messages.remove("die_rolled");
        messages.insert("moved".into(), "{seat|seat} moved to {nowhere}".into());
        messages.insert("declared".into(), "{seat|seat} took {took}".into());
        messages.insert("no_such_event".into(), "x".into());
        messages.insert("turn_started".into(), "{seat|colour}".into());
        let problems = message_problems(&fields, &messages);
        for expected in [
            "die_rolled: no template",
            "moved: no field nowhere",
            "declared: took is an object",
            "no_such_event: a template for no event type",
        ] {
            assert!(
                problems.iter().any(|p| p == expected),
                "{expected}: {problems:#?}"
            );
        }
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("turn_started: {seat|colour}")),
            "{problems:#?}"
        );
    }

    #[test]
    fn a_template_renders_seats_names_lists_and_the_first_complete_alternative() {
        let event = serde_json::json!({"type": "paid", "to": 1, "amount": 300000, "from": {"payer": "bank"},
            "cards": ["C01", "C02"]});
        let seat = |s: u64| format!("seat {s}");
        let name = |id: &Value| format!("<{}>", id.as_str().unwrap_or("?"));
        let template =
            "{from.seat|seat} paid {to|seat} ${amount} || The bank paid {to|seat} ${amount} for {cards|name}";
        assert_eq!(
            render(template, &event, &seat, &name).as_deref(),
            Some("The bank paid seat 1 $300000 for <C01>, <C02>")
        );
        assert_eq!(render("{missing}", &event, &seat, &name), None);
        assert!(parse("{a.b|seat} {c|name} {d} || {e}").is_ok());
        assert!(parse("{a|colour}").is_err());
        assert!(parse("{a").is_err());
        assert!(parse("{A B}").is_err());
    }

    /// Every event of seeded random games renders: its template has an alternative whose
    /// placeholders are all present, every `|name` value is a catalogue id, every `|seat` value a
    /// seat of the game, and no brace is left.
    #[test]
    fn every_event_of_random_games_renders_as_a_sentence() {
        for ruleset in RULESETS {
            let messages = (ruleset.messages)();
            let known = crate::catalogue::ids(&(ruleset.components)());
            let mut failures = BTreeSet::new();
            let mut seen = BTreeSet::new();
            for seed in 0..8u64 {
                let seats = ruleset.seats.start() + (seed as usize % ruleset.seats.clone().count());
                let (mut game, mut events) = AnyGame::setup(ruleset.slug, None, seats, seed).expect("setup");
                let mut rng = GameRng::new(seed ^ 0x7e47);
                for _ in 0..20_000 {
                    for event in events.drain(..) {
                        let body: Value = serde_json::from_str(event.body.get()).expect("JSON");
                        let kind = body["type"].as_str().unwrap_or_default().to_owned();
                        seen.insert(kind.clone());
                        let Some(template) = messages.get(&kind) else {
                            failures.insert(format!("{kind}: no template"));
                            continue;
                        };
                        let bad = std::cell::RefCell::new(Vec::new());
                        let seat = |s: u64| {
                            if s as usize >= seats {
                                bad.borrow_mut().push(format!("seat {s}"));
                            }
                            format!("Seat {s}")
                        };
                        let name = |id: &Value| {
                            let id = id.as_str().map(str::to_owned).unwrap_or_else(|| id.to_string());
                            if !known.contains(&id) {
                                bad.borrow_mut().push(format!("id {id}"));
                            }
                            id
                        };
                        match render(template, &body, &seat, &name) {
                            None => failures.insert(format!("{kind}: nothing renders {body}")),
                            Some(text) if text.contains(['{', '}']) => {
                                failures.insert(format!("{kind}: {text}"))
                            }
                            Some(_) => false,
                        };
                        for b in bad.into_inner() {
                            failures.insert(format!("{kind}: {b} in {body}"));
                        }
                    }
                    let to_act = game.to_act();
                    if to_act.is_empty() {
                        break;
                    }
                    let seat: Seat = to_act[rng.below(to_act.len())];
                    let actions = game.legal_action_list(seat);
                    let action = actions[rng.below(actions.len())].get().to_owned();
                    events = game.apply(seat, &action).expect("a listed action is legal");
                }
            }
            assert!(failures.is_empty(), "{}: {failures:#?}", ruleset.slug);
            assert!(seen.len() > 10, "{}: saw only {seen:?}", ruleset.slug);
        }
    }
}
