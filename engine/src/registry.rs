//! Every game Roadie hosts, by slug, behind one enum: the service never names a game type.
//!
//! A new game is a folder under `games/` and one line in the `registry!` call below.

use std::borrow::Cow;
use std::ops::RangeInclusive;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;
use utoipa::openapi::{RefOr, Schema};

use crate::games;
use crate::{
    BotLevel, Budget, Catalogue, Considered, Event, Game, Machine, Outcome, Rejection, Seat, SetupError,
    Started, Timeout, Viewer,
};

/// A game's JSON, produced once by serde and passed through untouched.
pub type Json = Box<RawValue>;

/// What the service knows of a ruleset without holding a game of it.
pub struct Ruleset {
    /// The slug clients name it by.
    pub slug: &'static str,
    /// The game's title.
    pub title: &'static str,
    /// How many seats it allows.
    pub seats: RangeInclusive<usize>,
    /// The version of its rules ([`Game::RULES_VERSION`]).
    pub version: u32,
    /// The phase machine.
    pub machine: fn() -> Machine,
    /// What a seat whose clock runs out does.
    pub on_timeout: Timeout,
    /// Every printed component, by kind, each with the `text` of what it does.
    pub components: fn() -> Catalogue,
    /// The rules as served: the "how to play" overview and every ruling the ruleset cites.
    pub rules: fn() -> Vec<crate::texts::Rule>,
    /// A sentence template for each of the game's event types (see [`crate::texts`]).
    pub messages: fn() -> std::collections::BTreeMap<String, String>,
    /// The default options, as JSON.
    pub default_options: fn() -> serde_json::Value,
    /// The OpenAPI schemas of its options, actions, events and views.
    pub schemas: fn() -> RulesetSchemas,
}

/// A ruleset's named OpenAPI schemas.
pub struct RulesetSchemas {
    /// Schema name of the options.
    pub options: String,
    /// Schema name of an action.
    pub action: String,
    /// Schema name of an event.
    pub event: String,
    /// Schema name of a view.
    pub view: String,
    /// Every schema the four above need, by name.
    pub all: Vec<(String, RefOr<Schema>)>,
}

fn schemas_of<G: Game>() -> RulesetSchemas {
    let mut all = Vec::new();
    fn add<T: ToSchema>(all: &mut Vec<(String, RefOr<Schema>)>) -> String {
        let name: Cow<'static, str> = T::name();
        T::schemas(all);
        all.push((name.to_string(), T::schema()));
        name.into_owned()
    }
    let options = add::<G::Options>(&mut all);
    let action = add::<G::Action>(&mut all);
    let event = add::<G::Event>(&mut all);
    let view = add::<G::View>(&mut all);
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all.dedup_by(|a, b| a.0 == b.0);
    RulesetSchemas {
        options,
        action,
        event,
        view,
        all,
    }
}

fn default_options_of<G: Game>() -> serde_json::Value {
    serde_json::to_value(G::Options::default()).unwrap_or(serde_json::Value::Null)
}

fn components_of<G: Game>() -> Catalogue {
    crate::texts::with_effects(G::components(), G::EFFECTS)
}

fn rules_of<G: Game>() -> Vec<crate::texts::Rule> {
    crate::texts::rules(G::RULES)
}

fn messages_of<G: Game>() -> std::collections::BTreeMap<String, String> {
    crate::texts::messages(G::MESSAGES)
}

const fn ruleset_of<G: Game>() -> Ruleset {
    Ruleset {
        slug: G::SLUG,
        title: G::TITLE,
        seats: G::SEATS,
        version: G::RULES_VERSION,
        machine: G::machine,
        on_timeout: G::ON_TIMEOUT,
        components: components_of::<G>,
        rules: rules_of::<G>,
        messages: messages_of::<G>,
        default_options: default_options_of::<G>,
        schemas: schemas_of::<G>,
    }
}

fn to_json<T: Serialize>(value: &T) -> Json {
    // Engine types serialize infallibly (string keys, no non-finite floats).
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// A game of any ruleset, seen through JSON: what the service stores and serves.
trait Erased {
    fn seat_count(&self) -> usize;
    fn to_act(&self) -> Vec<Seat>;
    fn phase(&self) -> &'static str;
    fn legal_actions(&self, seat: Seat) -> Json;
    fn legal_action_list(&self, seat: Seat) -> Vec<Json>;
    fn apply(&mut self, seat: Seat, action: &str) -> Result<Vec<Event<Json>>, Rejection>;
    fn view(&self, viewer: Viewer) -> Json;
    fn outcome(&self) -> Option<Outcome>;
    fn secrets(&self, viewer: Viewer) -> Vec<String>;
    fn bot_action(&self, seat: Seat, level: BotLevel, budget: Budget, rng: &mut dyn RngCore) -> Option<Json>;
    fn deliberate(&self, seat: Seat, budget: Budget, rng: &mut dyn RngCore) -> Vec<Considered<Json>>;
}

impl<G: Game> Erased for G {
    fn seat_count(&self) -> usize {
        Game::seat_count(self)
    }

    fn to_act(&self) -> Vec<Seat> {
        Game::to_act(self)
    }

    fn phase(&self) -> &'static str {
        Game::phase(self)
    }

    fn legal_actions(&self, seat: Seat) -> Json {
        to_json(&Game::legal_actions(self, seat))
    }

    fn legal_action_list(&self, seat: Seat) -> Vec<Json> {
        Game::legal_actions(self, seat).iter().map(to_json).collect()
    }

    fn apply(&mut self, seat: Seat, action: &str) -> Result<Vec<Event<Json>>, Rejection> {
        let events = crate::contract::play(self, seat, || parse_action::<G>(action))?;
        Ok(erase_events(events))
    }

    fn view(&self, viewer: Viewer) -> Json {
        to_json(&Game::view(self, viewer))
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn secrets(&self, viewer: Viewer) -> Vec<String> {
        Game::secrets(self, viewer)
    }

    fn bot_action(&self, seat: Seat, level: BotLevel, budget: Budget, rng: &mut dyn RngCore) -> Option<Json> {
        Game::bot_action_within(self, seat, level, budget, rng).map(|action| to_json(&action))
    }

    fn deliberate(&self, seat: Seat, budget: Budget, rng: &mut dyn RngCore) -> Vec<Considered<Json>> {
        Game::deliberate(self, seat, budget, rng)
            .into_iter()
            .map(|c| Considered {
                action: to_json(&c.action),
                share: c.share,
            })
            .collect()
    }
}

fn erase_events<E: Serialize>(events: Vec<Event<E>>) -> Vec<Event<Json>> {
    events
        .into_iter()
        .map(|e| Event {
            audience: e.audience,
            body: to_json(&e.body),
        })
        .collect()
}

/// Something done once for each registered game type: the conformance test and the benches
/// iterate the registry with it, so a new game is checked and measured with no further wiring.
pub trait EachGame {
    /// Called once per registered game, in registry order.
    fn visit<G: Game>(&mut self);
}

macro_rules! registry {
    ($($variant:ident => $ty:ty),+ $(,)?) => {
        /// A game of any registered ruleset. Serializes with its ruleset, for storage.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "ruleset", content = "state")]
        pub enum AnyGame {
            $(
                #[doc = concat!("A game of `", stringify!($ty), "`.")]
                $variant(Box<$ty>),
            )+
        }

        /// Every ruleset, in the order they are listed.
        pub static RULESETS: &[Ruleset] = &[$(ruleset_of::<$ty>()),+];

        /// Calls `visitor` once with each registered game type, in the order they are listed.
        pub fn for_each_game(visitor: &mut impl EachGame) {
            $(visitor.visit::<$ty>();)+
        }

        impl AnyGame {
            /// Sets up a game of the ruleset `slug`; `options` of `None` are the defaults.
            pub fn setup(
                slug: &str,
                options: Option<&serde_json::Value>,
                seats: usize,
                seed: u64,
            ) -> Result<(Self, Vec<Event<Json>>), SetupError> {
                $(
                    if slug == <$ty as Game>::SLUG {
                        let (game, events) = setup_typed::<$ty>(options, seats, seed)?;
                        return Ok((AnyGame::$variant(Box::new(game)), erase_events(events)));
                    }
                )+
                Err(SetupError::UnknownRuleset(slug.to_owned()))
            }

            /// This game's ruleset.
            pub fn ruleset(&self) -> &'static Ruleset {
                let slug = match self {
                    $(AnyGame::$variant(_) => <$ty as Game>::SLUG,)+
                };
                Ruleset::find(slug).expect("every variant is registered")
            }

            fn erased(&self) -> &dyn Erased {
                match self {
                    $(AnyGame::$variant(g) => g.as_ref(),)+
                }
            }

            fn erased_mut(&mut self) -> &mut dyn Erased {
                match self {
                    $(AnyGame::$variant(g) => g.as_mut(),)+
                }
            }
        }
    };
}

registry! {
    ShrewdProducer => games::shrewd_producer::ShrewdProducer,
    RockTheWorld => games::rock_the_world::RockTheWorld,
    ShowBusiness => games::show_business::ShowBusiness,
}

fn setup_typed<G: Game>(
    options: Option<&serde_json::Value>,
    seats: usize,
    seed: u64,
) -> Result<Started<G>, SetupError> {
    let options = match options {
        None | Some(serde_json::Value::Null) => G::Options::default(),
        Some(value) => G::Options::deserialize(value).map_err(|e| SetupError::Options(e.to_string()))?,
    };
    G::setup(options, seats, seed)
}

impl Ruleset {
    /// The ruleset with this slug.
    pub fn find(slug: &str) -> Option<&'static Ruleset> {
        RULESETS.iter().find(|r| r.slug == slug)
    }
}

impl AnyGame {
    /// How many seats the game has.
    pub fn seat_count(&self) -> usize {
        self.erased().seat_count()
    }

    /// The seats that may act now.
    pub fn to_act(&self) -> Vec<Seat> {
        self.erased().to_act()
    }

    /// The current phase.
    pub fn phase(&self) -> &'static str {
        self.erased().phase()
    }

    /// The legal actions of `seat`, as one JSON array.
    pub fn legal_actions(&self, seat: Seat) -> Json {
        self.erased().legal_actions(seat)
    }

    /// The legal actions of `seat`, each as its own JSON.
    pub fn legal_action_list(&self, seat: Seat) -> Vec<Json> {
        self.erased().legal_action_list(seat)
    }

    /// Plays `action` (JSON) for `seat`. On `Err` the game is unchanged.
    pub fn apply(&mut self, seat: Seat, action: &str) -> Result<Vec<Event<Json>>, Rejection> {
        self.erased_mut().apply(seat, action)
    }

    /// What `viewer` may see, as JSON.
    pub fn view(&self, viewer: Viewer) -> Json {
        self.erased().view(viewer)
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.erased().outcome()
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// What `viewer` must not see (see [`Game::secrets`]): for tests that check responses.
    pub fn secrets(&self, viewer: Viewer) -> Vec<String> {
        self.erased().secrets(viewer)
    }

    /// The action a `level` bot in `seat` plays now, as JSON; `None` when the seat has nothing
    /// to do. It reads only the seat's view and legal actions (see [`Game::bot_action`]).
    pub fn bot_action(&self, seat: Seat, level: BotLevel, rng: &mut impl RngCore) -> Option<Json> {
        self.erased().bot_action(seat, level, Budget::DEFAULT, rng)
    }

    /// [`AnyGame::bot_action`], with the expert's search bounded by `budget` (see
    /// [`Game::bot_action_within`]).
    pub fn bot_action_within(
        &self,
        seat: Seat,
        level: BotLevel,
        budget: Budget,
        rng: &mut impl RngCore,
    ) -> Option<Json> {
        self.erased().bot_action(seat, level, budget, rng)
    }

    /// What an expert in `seat` would weigh now, best first, each action as JSON with its share
    /// of the search (see [`Game::deliberate`]); empty when the seat has nothing to do.
    pub fn deliberate(&self, seat: Seat, budget: Budget, rng: &mut impl RngCore) -> Vec<Considered<Json>> {
        self.erased().deliberate(seat, budget, rng)
    }
}

/// `action` as one of `G`'s actions. A field the action does not carry is refused rather than
/// ignored: serde lets a tagged unit variant (`{"type": "roll", "extra": true}`) through.
fn parse_action<G: Game>(action: &str) -> Result<G::Action, Rejection> {
    let malformed =
        |e: &dyn std::fmt::Display| Rejection::malformed(format!("not a {} action: {e}", G::SLUG));
    let sent: serde_json::Value = serde_json::from_str(action).map_err(|e| malformed(&e))?;
    let parsed = G::Action::deserialize(&sent).map_err(|e| malformed(&e))?;
    if let Ok(serde_json::Value::Object(kept)) = serde_json::to_value(&parsed)
        && let Some(extra) = sent
            .as_object()
            .and_then(|sent| sent.keys().find(|key| !kept.contains_key(*key)))
    {
        return Err(malformed(&format_args!("unknown field `{extra}`")));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{self, Config};

    /// Runs the conformance suite on a game with its default options, every seat count it allows.
    struct Conformance {
        games_per_seat_count: usize,
        checked: Vec<&'static str>,
        failures: Vec<String>,
    }

    impl EachGame for Conformance {
        fn visit<G: Game>(&mut self) {
            let seats: Vec<usize> = G::SEATS.collect();
            let config = Config {
                games: self.games_per_seat_count * seats.len(),
                seed: 1,
                max_steps: 50_000,
                exhaustive: false,
            };
            let each = self.games_per_seat_count;
            match conformance::run::<G>(&config, |i| seats[i % seats.len()], |_| G::Options::default()) {
                Ok(report) if seats.iter().all(|&n| report.by_seats[n] == each) => {}
                Ok(report) => self.failures.push(format!("{}: played {report:?}", G::SLUG)),
                Err(e) => self.failures.push(e),
            }
            self.checked.push(G::SLUG);
        }
    }

    #[test]
    fn conformance_of_every_registered_game_at_every_seat_count() {
        let mut run = Conformance {
            games_per_seat_count: 6,
            checked: Vec::new(),
            failures: Vec::new(),
        };
        for_each_game(&mut run);
        assert!(run.failures.is_empty(), "{:#?}", run.failures);
        let registered: Vec<&str> = RULESETS.iter().map(|r| r.slug).collect();
        assert_eq!(run.checked, registered);
    }

    /// Records seeded games of each registered game and shows that its announcements check is
    /// no formality: for most event types the table lists and the games produced, dropping it
    /// from the table, or dropping its events from the games, fails the check. (An event that in
    /// these games always came with another announcer of the same field, as a reshuffle with the
    /// draw that caused it, is not caught on its own.)
    struct Removals(Vec<String>);

    impl EachGame for Removals {
        fn visit<G: Game>(&mut self) {
            let seats: Vec<usize> = G::SEATS.collect();
            let mut uniform =
                |_: &G, _: Seat, list: &[G::Action], r: &mut crate::rng::GameRng| r.below(list.len());
            let steps = match conformance::announcements::record::<G>(
                2 * seats.len(),
                300,
                |i| seats[i % seats.len()],
                |_| G::Options::default(),
                &mut uniform,
            ) {
                Ok(steps) => steps,
                Err(e) => return self.0.push(e),
            };
            let seen: std::collections::BTreeSet<&str> = steps
                .iter()
                .flat_map(|s| s.public.iter().map(conformance::announcements::kind))
                .collect();
            let listed: Vec<&str> = G::ANNOUNCEMENTS
                .table
                .iter()
                .map(|(k, _)| *k)
                .filter(|k| seen.contains(k))
                .collect();
            let missed: Vec<String> = listed
                .iter()
                .filter_map(|k| {
                    conformance::announcements::removal_caught(&steps, &G::ANNOUNCEMENTS, k).err()
                })
                .collect();
            if listed.is_empty() || missed.len() * 4 > listed.len() {
                self.0.push(format!(
                    "{}: of {} event types, {missed:?}",
                    G::SLUG,
                    listed.len()
                ));
            }
        }
    }

    #[test]
    fn removing_any_announcing_event_of_any_registered_game_is_caught() {
        let mut run = Removals(Vec::new());
        for_each_game(&mut run);
        assert!(run.0.is_empty(), "{:#?}", run.0);
    }

    /// An action with a field its ruleset does not know is malformed, whatever the game: the
    /// client meant something the rules never saw.
    #[test]
    fn an_action_with_an_unknown_field_is_refused_as_malformed_in_every_game() {
        for ruleset in RULESETS {
            let seats = *ruleset.seats.start();
            let (game, _) = AnyGame::setup(ruleset.slug, None, seats, 5).expect("setup");
            let seat = *game.to_act().first().expect("someone acts at the start");
            let listed = game.legal_action_list(seat);
            let mut action: serde_json::Value =
                serde_json::from_str(listed[0].get()).expect("a listed action is JSON");
            action["extra"] = serde_json::json!(true);
            let mut tried = game.clone();
            let refused = tried.apply(seat, &action.to_string()).expect_err(ruleset.slug);
            assert_eq!(
                refused.code,
                crate::RejectionCode::MalformedAction,
                "{}: {refused:?}",
                ruleset.slug
            );
            assert_eq!(tried, game, "{}: a refused action changed the game", ruleset.slug);
        }
    }

    /// Each diagram parses structurally: composite states open and close in balance, each
    /// grouped phase is declared once in its group, every phase of the machine appears, and no
    /// two edges join the same states.
    #[test]
    fn every_phase_diagram_is_balanced_and_names_each_phase() {
        for ruleset in RULESETS {
            let machine = (ruleset.machine)();
            let diagram = machine.mermaid();
            let slug = ruleset.slug;
            assert!(diagram.starts_with("stateDiagram-v2\n"), "{slug}");
            let mut depth = 0i32;
            for line in diagram.lines() {
                depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
                assert!((0..=1).contains(&depth), "{slug}: unbalanced at {line:?}");
            }
            assert_eq!(depth, 0, "{slug}: a composite state is not closed");
            let grouped: Vec<&str> = machine
                .groups
                .iter()
                .flat_map(|g| g.phases.iter().copied())
                .collect();
            for phase in &machine.phases {
                let declared = diagram.lines().filter(|l| l.trim() == phase.name).count();
                if machine.groups.is_empty() {
                    assert!(
                        diagram
                            .split_whitespace()
                            .any(|w| w.trim_end_matches(':') == phase.name),
                        "{slug}: {} is not drawn",
                        phase.name
                    );
                } else {
                    assert_eq!(declared, 1, "{slug}: {} is declared {declared} times", phase.name);
                    assert_eq!(
                        grouped.iter().filter(|&&p| p == phase.name).count(),
                        1,
                        "{}",
                        phase.name
                    );
                }
            }
            assert_eq!(
                grouped.len(),
                if machine.groups.is_empty() {
                    0
                } else {
                    machine.phases.len()
                }
            );
            let edges: Vec<&str> = diagram
                .lines()
                .filter(|l| l.contains("-->"))
                .map(|l| l.split(':').next().unwrap_or(l))
                .collect();
            let mut unique = edges.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(
                unique.len(),
                edges.len(),
                "{slug}: parallel edges are drawn apart"
            );
        }
    }
}
