//! The contract every game implements, and the types it speaks in.

use std::fmt;
use std::ops::{Index, IndexMut, RangeInclusive};

use rand::{Rng, RngCore};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::search::{Budget, Considered};

/// A seat at the table, numbered `0..seats` in clockwise order. On the wire, in messages and in
/// logs it is the plain number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(usize);

impl Seat {
    /// The seat numbered `index`.
    pub const fn new(index: usize) -> Self {
        Self(index)
    }

    /// This seat's number, `0..seats`.
    pub const fn index(self) -> usize {
        self.0
    }

    /// The seat `steps` places clockwise from this one at a table of `count` seats.
    pub const fn clockwise(self, steps: usize, count: usize) -> Self {
        Self((self.0 + steps) % count)
    }

    /// The seats of a table of `count`, in clockwise order.
    pub fn all(count: usize) -> impl DoubleEndedIterator<Item = Seat> + ExactSizeIterator + Clone {
        (0..count).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl utoipa::PartialSchema for Seat {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .minimum(Some(0))
            .description(Some("A seat of the game, numbered from 0."))
            .into()
    }
}

impl ToSchema for Seat {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("Seat")
    }
}

/// One value per seat, indexed by [`Seat`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(pub Vec<T>);

impl<T> BySeat<T> {
    /// `seats` values made by `f(seat)`.
    pub fn from_fn(seats: usize, f: impl FnMut(Seat) -> T) -> Self {
        Self(Seat::all(seats).map(f).collect())
    }

    /// The value of `seat`, if the table has that seat.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.0)
    }

    /// The value of `seat`, mutably, if the table has that seat.
    pub fn get_mut(&mut self, seat: Seat) -> Option<&mut T> {
        self.0.get_mut(seat.0)
    }

    /// How many seats.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there is no seat.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The values in seat order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The values in seat order, mutably.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    /// `(seat, value)` pairs in seat order.
    pub fn seats(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i), v))
    }

    /// `(seat, value)` pairs in seat order, mutably.
    pub fn seats_mut(&mut self) -> impl Iterator<Item = (Seat, &mut T)> {
        self.0.iter_mut().enumerate().map(|(i, v)| (Seat(i), v))
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.0]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.0]
    }
}

/// Who is looking at the game: one seat, or a spectator who sees only public information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Anyone without a seat.
    Spectator,
}

impl Viewer {
    /// The seat, if the viewer has one.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// Who may see an event while the game runs. Once the game is over every event is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "to", content = "seats", rename_all = "snake_case")]
pub enum Audience {
    /// Every seat and every spectator.
    Everyone,
    /// Only these seats.
    Seats(Vec<Seat>),
    /// Nobody until the game ends: random outcomes (shuffles, rolls) kept for the audit.
    Nobody,
}

impl Audience {
    /// Only one seat.
    pub fn seat(seat: Seat) -> Self {
        Audience::Seats(vec![seat])
    }

    /// Whether `viewer` may see an event with this audience; `finished` makes everything public.
    pub fn admits(&self, viewer: Viewer, finished: bool) -> bool {
        if finished {
            return true;
        }
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (Audience::Seats(seats), Viewer::Seat(s)) => seats.contains(&s),
            _ => false,
        }
    }
}

/// Something that happened, and who may know it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event<E> {
    /// Who may see it while the game runs.
    pub audience: Audience,
    /// What happened.
    pub body: E,
}

impl<E> Event<E> {
    /// An event every seat and spectator sees.
    pub fn public(body: E) -> Self {
        Self {
            audience: Audience::Everyone,
            body,
        }
    }

    /// An event only `seat` sees.
    pub fn private(seat: Seat, body: E) -> Self {
        Self {
            audience: Audience::seat(seat),
            body,
        }
    }

    /// An event nobody sees until the game ends (a random outcome, for the audit).
    pub fn sealed(body: E) -> Self {
        Self {
            audience: Audience::Nobody,
            body,
        }
    }
}

/// Why an action was refused. Stable codes for machines, a sentence for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RejectionCode {
    /// The seat may not act now.
    NotYourTurn,
    /// The action is well formed but not legal now.
    IllegalAction,
    /// The game is over; nothing more can be played.
    GameOver,
    /// The seat does not exist in this game.
    NoSuchSeat,
    /// The JSON is not an action of this ruleset.
    MalformedAction,
}

impl RejectionCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            RejectionCode::NotYourTurn => "not_your_turn",
            RejectionCode::IllegalAction => "illegal_action",
            RejectionCode::GameOver => "game_over",
            RejectionCode::NoSuchSeat => "no_such_seat",
            RejectionCode::MalformedAction => "malformed_action",
        }
    }
}

/// A refused action. The state it was applied to is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    /// Stable machine-readable code.
    pub code: RejectionCode,
    /// A sentence a person understands. Never names another seat's hidden information.
    pub reason: String,
}

impl Rejection {
    /// `not_your_turn` with a reason.
    pub fn not_your_turn(reason: impl Into<String>) -> Self {
        Self {
            code: RejectionCode::NotYourTurn,
            reason: reason.into(),
        }
    }

    /// `illegal_action` with a reason.
    pub fn illegal(reason: impl Into<String>) -> Self {
        Self {
            code: RejectionCode::IllegalAction,
            reason: reason.into(),
        }
    }

    /// `game_over`.
    pub fn game_over() -> Self {
        Self {
            code: RejectionCode::GameOver,
            reason: "the game is over".into(),
        }
    }

    /// `no_such_seat`.
    pub fn no_such_seat(seat: Seat, seats: usize) -> Self {
        Self {
            code: RejectionCode::NoSuchSeat,
            reason: format!(
                "seat {seat} does not exist; this game has seats 0 to {}",
                seats.saturating_sub(1)
            ),
        }
    }

    /// `malformed_action` with a reason.
    pub fn malformed(reason: impl Into<String>) -> Self {
        Self {
            code: RejectionCode::MalformedAction,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.reason)
    }
}

impl std::error::Error for Rejection {}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The ruleset does not seat that many players.
    Seats {
        /// Seats asked for.
        asked: usize,
        /// Fewest seats allowed.
        min: usize,
        /// Most seats allowed.
        max: usize,
    },
    /// The options are not valid for this ruleset.
    Options(String),
    /// No ruleset has this slug.
    UnknownRuleset(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Seats { asked, min, max } => {
                write!(f, "{asked} seats asked; this ruleset seats {min} to {max}")
            }
            SetupError::Options(reason) => write!(f, "invalid options: {reason}"),
            SetupError::UnknownRuleset(slug) => write!(f, "no ruleset is called {slug:?}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// One line of a seat's score, as the rulebook names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScoreLine {
    /// The rulebook's name for the line ("Completed song", "Debt").
    pub label: String,
    /// Points this line gives (negative for penalties).
    pub points: i64,
}

/// A seat's final score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatScore {
    /// The seat.
    pub seat: Seat,
    /// The sum of the lines.
    pub total: i64,
    /// The score, line by line.
    pub lines: Vec<ScoreLine>,
    /// Values the rulebook's tie-breaks compare, in order, each named.
    pub tiebreaks: Vec<ScoreLine>,
    /// 1 for the winners; tied seats share a rank.
    pub rank: usize,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Outcome {
    /// Every seat's score, in seat order.
    pub scores: Vec<SeatScore>,
    /// The winning seats (several when the rulebook lets a tie stand).
    pub winners: Vec<Seat>,
}

/// A transition of the phase machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Transition {
    /// The phase it leads to.
    pub to: &'static str,
    /// When it is taken, in the rulebook's words.
    pub when: &'static str,
}

/// One phase of a game: what may be done in it and where it leads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Phase {
    /// Stable name, as [`Game::phase`] reports it.
    pub name: &'static str,
    /// What happens in this phase, from the rulebook.
    pub description: &'static str,
    /// The `type` of each action legal in this phase.
    pub actions: Vec<&'static str>,
    /// Where the phase can go next.
    pub transitions: Vec<Transition>,
}

/// A part of a game's turn or round: phases the diagram draws together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PhaseGroup {
    /// Stable name (snake_case), distinct from every phase's.
    pub name: &'static str,
    /// The part's title, from the rulebook.
    pub title: &'static str,
    /// Its phases, each in exactly one group.
    pub phases: Vec<&'static str>,
}

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal action, each as likely.
    Random,
    /// The game's own heuristic, [`Game::greedy_pick`].
    Greedy,
    /// A search over the game's own rules from sampled positions the seat cannot tell apart
    /// ([`Game::determinize`]), bounded by a [`Budget`]: see [`crate::search`].
    Expert,
}

impl BotLevel {
    /// Every level.
    pub const ALL: [BotLevel; 3] = [BotLevel::Random, BotLevel::Greedy, BotLevel::Expert];

    /// The level as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
            BotLevel::Expert => "expert",
        }
    }
}

/// What the service does for a seat whose clock runs out (see the `clock` option of a new game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Timeout {
    /// A bot of this level plays the seat's decision, from the seat's view and legal actions.
    Bot {
        /// How well it plays.
        level: BotLevel,
    },
    /// The seat plays this action (its JSON, as a client would post it) when it is legal, such
    /// as a pass where the rules have one; when it is not, a random bot decides.
    Action {
        /// The action's JSON.
        action: &'static str,
    },
}

/// The phase machine of a game, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Machine {
    /// The phase a new game starts in.
    pub initial: &'static str,
    /// Every phase; the game is over in a phase with no transition.
    pub phases: Vec<Phase>,
    /// The parts of the round the phases belong to; empty for a machine small enough to read
    /// whole.
    pub groups: Vec<PhaseGroup>,
    /// What a seat whose clock runs out does: [`Game::ON_TIMEOUT`].
    pub on_timeout: Timeout,
}

impl Machine {
    /// The machine as a Mermaid `stateDiagram-v2`. Parallel transitions (same phases, several
    /// conditions) are one edge with the conditions joined by ` / `. With groups, each group
    /// is a composite state holding its phases and the transitions among them; a transition
    /// that leaves its group is drawn as the phase's exit (`--> [*]`) and an edge between the
    /// two groups, and a phase entered from outside its group is its group's entry (`[*] -->`).
    pub fn mermaid(&self) -> String {
        let mut out = String::from("stateDiagram-v2\n");
        let group_of = |phase: &str| {
            self.groups
                .iter()
                .find(|g| g.phases.contains(&phase))
                .map(|g| g.name)
        };
        let mut edges: Vec<(String, String, Vec<&str>)> = Vec::new();
        let add = |edges: &mut Vec<(String, String, Vec<&str>)>, from: &str, to: &str, when: &'static str| {
            match edges.iter_mut().find(|(f, t, _)| f == from && t == to) {
                Some((_, _, labels)) => {
                    if !when.is_empty() && !labels.contains(&when) {
                        labels.push(when);
                    }
                }
                None => edges.push((
                    from.to_owned(),
                    to.to_owned(),
                    [when].into_iter().filter(|w| !w.is_empty()).collect(),
                )),
            }
        };
        let start = group_of(self.initial).unwrap_or(self.initial);
        add(&mut edges, "[*]", start, "");
        for phase in &self.phases {
            if phase.transitions.is_empty() && group_of(phase.name).is_none() {
                add(&mut edges, phase.name, "[*]", "");
            }
            for t in &phase.transitions {
                match (group_of(phase.name), group_of(t.to)) {
                    (Some(from), Some(to)) if from != to => add(&mut edges, from, to, ""),
                    _ => add(&mut edges, phase.name, t.to, t.when),
                }
            }
        }
        for group in &self.groups {
            let mut inner: Vec<(String, String, Vec<&str>)> = Vec::new();
            if group.phases.contains(&self.initial) {
                add(&mut inner, "[*]", self.initial, "");
            }
            for phase in self.phases.iter().filter(|p| group.phases.contains(&p.name)) {
                if phase.transitions.is_empty() {
                    add(&mut inner, phase.name, "[*]", "the game is over");
                }
                for t in &phase.transitions {
                    if group.phases.contains(&t.to) {
                        add(&mut inner, phase.name, t.to, t.when);
                    } else {
                        add(&mut inner, phase.name, "[*]", "");
                    }
                }
            }
            for other in self.phases.iter().filter(|p| !group.phases.contains(&p.name)) {
                for t in other.transitions.iter().filter(|t| group.phases.contains(&t.to)) {
                    add(&mut inner, "[*]", t.to, "");
                }
            }
            out.push_str(&format!(
                "    state \"{}\" as {} {{\n",
                group.title.replace('"', "'"),
                group.name
            ));
            for phase in &group.phases {
                out.push_str(&format!("        {phase}\n"));
            }
            for (from, to, labels) in &inner {
                out.push_str(&mermaid_edge("        ", from, to, labels));
            }
            out.push_str("    }\n");
        }
        for (from, to, labels) in &edges {
            out.push_str(&mermaid_edge("    ", from, to, labels));
        }
        out
    }

    /// The phase with this name.
    pub fn phase(&self, name: &str) -> Option<&Phase> {
        self.phases.iter().find(|p| p.name == name)
    }
}

fn mermaid_edge(indent: &str, from: &str, to: &str, labels: &[&str]) -> String {
    let label = labels
        .iter()
        .map(|l| mermaid_label(l))
        .collect::<Vec<_>>()
        .join(" / ");
    if label.is_empty() {
        format!("{indent}{from} --> {to}\n")
    } else {
        format!("{indent}{from} --> {to}: {label}\n")
    }
}

/// A transition's condition as a Mermaid edge label: `:` would start another label and `;` would
/// end the statement, so they become ` -` and `,`.
fn mermaid_label(when: &str) -> String {
    when.replace(':', " -").replace(';', ",")
}

/// A ruleset's component catalogue: each kind (a snake_case plural: `cards`, `cities`,
/// `die_faces`) lists its components in table order, each an object with the `id` views, actions
/// and events carry, its printed `name` and every printed attribute.
pub type Catalogue = serde_json::Map<String, serde_json::Value>;

/// Which event types announce which fields of a game's view: "every change is a typed event".
///
/// Fields are the top-level keys of the view's JSON; a field of a per-seat list (objects with a
/// `seat`) is written `list.field`, `players.cash`. The conformance suite checks every step of
/// its games against the table: each public field of the spectator's view that changed is
/// announced by a public event of that step whose type the table lists for the field, and for a
/// per-seat field that event names the seat under one of the `seat_keys`.
#[derive(Clone, Copy, Debug)]
pub struct Announcements<'a> {
    /// `(event type, the view fields it announces)`.
    pub table: &'a [(&'a str, &'a [&'a str])],
    /// View fields that follow the flow of decisions (whose turn, which phase) and need no event.
    pub flow: &'a [&'a str],
    /// Event fields that name seats: a seat number, a list of them, or a list of pairs whose
    /// first element is a seat.
    pub seat_keys: &'a [&'a str],
}

/// How a client that holds a spectator's view and reads only the public events keeps some of
/// the view's fields: "events describe changes in the order they happened". Applying a step's
/// public events to the view before it, one by one and in order, gives each of the `fields` as
/// the view after the step shows it; the conformance suite checks this after every step.
#[derive(Clone, Copy, Debug)]
pub struct Replay {
    /// The top-level view fields the events alone keep (piles, decks, markets).
    pub fields: &'static [&'static str],
    /// Applies one public event (its JSON) to a spectator's view (its JSON); an error names an
    /// event that does not fit the view, such as a draw from a pile the view shows empty.
    pub apply: fn(&mut serde_json::Value, &serde_json::Value) -> Result<(), String>,
}

impl Replay {
    /// Moves the count `field` of `view` by `by`; a count never goes below zero.
    pub fn count(view: &mut serde_json::Value, field: &str, by: i64) -> Result<(), String> {
        let now = view
            .get(field)
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| format!("the view has no count {field:?}"))?;
        let next = (now as i64)
            .checked_add(by)
            .filter(|n| *n >= 0)
            .ok_or_else(|| format!("{field} would go from {now} to {}", now as i64 + by))?;
        view[field] = next.into();
        Ok(())
    }
}

/// A new game and the events its setup produced.
pub type Started<G> = (G, Vec<Event<<G as Game>::Event>>);

/// A board game's rules: the one trait every game implements.
///
/// The implementing type is the whole position, including its seeded RNG. It is plain data:
/// clone it, compare it, serialize it. `apply` is the only way it changes.
///
/// The contract owns every check a game would otherwise repeat, as shakmaty's `play` checks a
/// move and then calls the position's `play_unchecked`: [`Game::setup`] checks the seat count
/// against [`Game::SEATS`] before [`Game::new_game`] runs, and [`Game::apply`] refuses an action
/// (in this order: the game is over, the seat does not exist, the seat may not act, the action
/// is not legal) before [`Game::apply_legal`] runs. A game implements only the required methods;
/// the provided ones are the contract and are not overridden, except [`Game::may_act`] and
/// [`Game::check_legal`], which a game may answer faster than its lists do.
///
/// A bot seat plays through [`Game::bot_action`]: the contract hands the game's heuristic,
/// [`Game::greedy_pick`], nothing but the seat's view and legal actions, so a bot learns nothing
/// a person in that seat would not.
pub trait Game:
    Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The ruleset's slug (`shrewd-producer`).
    const SLUG: &'static str;
    /// The game's title.
    const TITLE: &'static str;
    /// How many seats the rules allow: the only place a game states it.
    const SEATS: RangeInclusive<usize>;
    /// The version of the rules as played: bumped whenever a change to the game would play a
    /// recorded game differently, so that a record names the rules it replays under.
    const RULES_VERSION: u32 = 1;
    /// What a seat whose clock runs out does; [`Game::machine`] documents it.
    const ON_TIMEOUT: Timeout;
    /// The edge the heuristic's own pick gets over the other actions when the expert compares
    /// their mean playout results ([`crate::search`]): the search departs from the heuristic
    /// only where an action's playouts beat the pick's by more. A game whose single decisions
    /// move the result little against the noise of its playouts sets it higher.
    const SEARCH_GREEDY_EDGE: f64 = crate::search::GREEDY_EDGE;
    /// Which of the game's event types announce which fields of its view: no game is registered
    /// without them. Each game states them in its `events.rs`.
    const ANNOUNCEMENTS: Announcements<'static>;
    /// Which view fields a client keeps by applying the public events in order, and how. Each
    /// game states it in its `events.rs`, beside its announcements.
    const REPLAY: Replay;
    /// The game folder's `RULES.md`: the "how to play" overview and every ruling the game cites,
    /// one a line, as [`crate::texts::rules`] reads them.
    const RULES: &'static str;
    /// What each component does, in Roadie's words: the catalogue's `text` fields. Each game
    /// states them in its `texts.rs`.
    const EFFECTS: &'static [crate::texts::Effect];
    /// A sentence template for each event type (`(type, template)`, see [`crate::texts`]). Each
    /// game states them in its `texts.rs`.
    const MESSAGES: &'static [(&'static str, &'static str)];

    /// Game options, each documented with the ruling it sets; `Default` is the rulebook's game.
    type Options: Clone + fmt::Debug + Default + Serialize + DeserializeOwned + ToSchema;
    /// An action a seat posts: a tagged enum whose JSON is exactly what clients send.
    type Action: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + ToSchema;
    /// What happened, as reported to those in the event's audience.
    type Event: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + ToSchema;
    /// What one viewer may see of the game.
    type View: Serialize + ToSchema;

    /// The game's own setup, for a seat count within [`Game::SEATS`]. All randomness comes from
    /// `seed`, through an RNG kept in the state; the events report every random outcome with
    /// [`Audience::Nobody`].
    fn new_game(options: Self::Options, seats: usize, seed: u64) -> Result<Started<Self>, SetupError>;

    /// How many seats this game has.
    fn seat_count(&self) -> usize;

    /// The seats that may act now, in ascending order. Empty when the game is over.
    fn to_act(&self) -> Vec<Seat>;

    /// Every action `seat` may post now, exactly, for a seat in [`Game::to_act`] of a running game.
    fn actions_for(&self, seat: Seat) -> Vec<Self::Action>;

    /// What a legal `action` of `seat` does. The contract has checked that the game runs, that
    /// `seat` may act and that `action` is legal.
    fn apply_legal(&mut self, seat: Seat, action: &Self::Action) -> Vec<Event<Self::Event>>;

    /// What `viewer` may see: other seats' hidden cards, deck order and the RNG never appear.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The current phase's name, one of [`Game::machine`]'s phases.
    fn phase(&self) -> &'static str;

    /// Final scores once the game is over, `None` while it runs.
    fn outcome(&self) -> Option<Outcome>;

    /// The phase machine.
    fn machine() -> Machine;

    /// Every printed component, by kind: the ids views, actions and events carry resolve here.
    fn components() -> Catalogue;

    /// Strings (card ids and the like) that must appear nowhere in `viewer`'s view or in the
    /// events `viewer` may see: the conformance suite checks this after every step.
    fn secrets(&self, viewer: Viewer) -> Vec<String>;

    /// The game's own invariants (cards and money conserved, ...); `Err` names the broken one.
    fn check_invariants(&self) -> Result<(), String>;

    /// The greedy bot's pick among `legal`, the legal actions of the seat that sees `view`, as an
    /// index into `legal`; `None` leaves the pick to chance. Each game writes its heuristic in its
    /// `bot.rs`; it is given no game, so it cannot read what the seat may not see.
    fn greedy_pick(view: &Self::View, legal: &[Self::Action], rng: &mut dyn RngCore) -> Option<usize>;

    /// [`Game::greedy_pick`] for `seat` in this position, the same pick from the same rng, only
    /// without building the view: the expert's playouts ask it at every step of every sampled
    /// game. By default it builds the seat's view and asks the heuristic; a game may read its
    /// state directly instead, provided it reads only what that view shows. The conformance
    /// suite checks that both give the same pick.
    fn greedy_pick_in(&self, seat: Seat, legal: &[Self::Action], rng: &mut dyn RngCore) -> Option<usize> {
        Self::greedy_pick(&self.view(Viewer::Seat(seat)), legal, rng)
    }

    /// The heuristic's action for `seat`, a seat that may act, as the expert's playouts play
    /// it: [`Game::greedy_pick_in`] among [`Game::actions_for`], a forced action without asking
    /// and chance where the heuristic has no pick; `None` when the seat has no action. A game
    /// may leave out of the list the actions its heuristic would not pick, provided the action
    /// and the rng's draws stay the same: the conformance suite checks that they do.
    fn greedy_action(&self, seat: Seat, rng: &mut dyn RngCore) -> Option<Self::Action> {
        crate::search::greedy_among(self, seat, self.actions_for(seat), rng)
    }

    /// A full position that `seat` cannot tell apart from this one, drawn with `rng`: the expert
    /// bot searches from such samples. It keeps all that `seat` sees (its view) and all the
    /// public log told, and draws the rest (other seats' hidden cards, the order of face-down
    /// piles and bags, the dice to come) from what is left. Each game writes it in its
    /// `determinize.rs`; it must read nothing `seat` may not see, so two games that differ only
    /// in what `seat` cannot see give the same sample for the same `rng`.
    fn determinize(&self, seat: Seat, rng: &mut dyn RngCore) -> Self;

    /// What an expert in `seat` would weigh now, best first (see [`crate::search`]), within
    /// `budget`: empty when the seat has nothing to do. Like the expert bot, it reads only the
    /// seat's legal actions and [`Game::determinize`]'s samples for that seat.
    fn deliberate(&self, seat: Seat, budget: Budget, rng: &mut dyn RngCore) -> Vec<Considered<Self::Action>> {
        let legal = self.legal_actions(seat);
        crate::search::deliberate(self, seat, &legal, budget, rng)
    }

    /// A new game of `seats` seats, refused unless [`Game::SEATS`] allows that many.
    fn setup(options: Self::Options, seats: usize, seed: u64) -> Result<Started<Self>, SetupError> {
        if !Self::SEATS.contains(&seats) {
            return Err(SetupError::Seats {
                asked: seats,
                min: *Self::SEATS.start(),
                max: *Self::SEATS.end(),
            });
        }
        Self::new_game(options, seats, seed)
    }

    /// True once the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether `seat` is in [`Game::to_act`]. A game may answer without building the list; the
    /// conformance suite checks that the answer agrees with it.
    fn may_act(&self, seat: Seat) -> bool {
        self.to_act().contains(&seat)
    }

    /// `Ok` when `seat` may act now: the game runs, the seat exists and it is in [`Game::to_act`].
    fn check_seat(&self, seat: Seat) -> Result<(), Rejection> {
        if self.may_act(seat) {
            return Ok(());
        }
        if self.is_over() {
            return Err(Rejection::game_over());
        }
        let seats = self.seat_count();
        if seat.index() >= seats {
            return Err(Rejection::no_such_seat(seat, seats));
        }
        Err(Rejection::not_your_turn(format!(
            "seat {seat} may not act now; waiting for seat(s) {:?} (phase {})",
            self.to_act(),
            self.phase()
        )))
    }

    /// Why `action` is not legal for `seat`, a seat that may act; `Ok` when it is. By default it
    /// is looked up in [`Game::actions_for`]; a game may answer faster with a better reason, and
    /// the conformance suite checks that the answer agrees with the list.
    fn check_legal(&self, seat: Seat, action: &Self::Action) -> Result<(), String> {
        if self.actions_for(seat).contains(action) {
            Ok(())
        } else {
            Err(format!(
                "not a legal action of seat {seat} in phase {}",
                self.phase()
            ))
        }
    }

    /// Every action `seat` may post now, exactly: each is accepted by [`Game::apply`] and
    /// nothing else is. Empty for a seat that may not act.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action> {
        match self.check_seat(seat) {
            Ok(()) => self.actions_for(seat),
            Err(_) => Vec::new(),
        }
    }

    /// The action a `level` bot in `seat` plays now; `None` when the seat has nothing to do. A
    /// random bot picks any legal action, each as likely; a greedy one plays
    /// [`Game::greedy_pick`] from the seat's view, or at random where the heuristic has no pick;
    /// an expert one searches within [`Budget::DEFAULT`].
    fn bot_action(&self, seat: Seat, level: BotLevel, rng: &mut dyn RngCore) -> Option<Self::Action> {
        self.bot_action_within(seat, level, Budget::DEFAULT, rng)
    }

    /// [`Game::bot_action`], with the expert's search bounded by `budget` (the other levels do
    /// not search). The expert reads the seat's legal actions and [`Game::determinize`]'s
    /// samples for that seat, nothing else of the game.
    fn bot_action_within(
        &self,
        seat: Seat,
        level: BotLevel,
        budget: Budget,
        rng: &mut dyn RngCore,
    ) -> Option<Self::Action> {
        let mut legal = self.legal_actions(seat);
        if legal.is_empty() {
            return None;
        }
        let pick = match level {
            BotLevel::Random => None,
            BotLevel::Greedy => Self::greedy_pick(&self.view(Viewer::Seat(seat)), &legal, rng),
            BotLevel::Expert => crate::search::expert(self, seat, &legal, budget, rng),
        };
        let pick = match pick {
            Some(i) if i < legal.len() => i,
            _ => rng.random_range(0..legal.len()),
        };
        Some(legal.swap_remove(pick))
    }

    /// Plays one action, after the contract's checks. On `Err` the state is untouched.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<Vec<Event<Self::Event>>, Rejection> {
        play(self, seat, || Ok(action))
    }
}

/// The one place an action is checked: the game is over, the seat does not exist, the seat may
/// not act, `parse` refuses the action, the action is not legal; only then does the game apply it.
pub(crate) fn play<G: Game, A: std::borrow::Borrow<G::Action>>(
    game: &mut G,
    seat: Seat,
    parse: impl FnOnce() -> Result<A, Rejection>,
) -> Result<Vec<Event<G::Event>>, Rejection> {
    game.check_seat(seat)?;
    let action = parse()?;
    let action = action.borrow();
    game.check_legal(seat, action).map_err(Rejection::illegal)?;
    Ok(game.apply_legal(seat, action))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_audience_admits_only_its_seats_until_the_end() {
        let audience = Audience::Seats(vec![Seat::new(1), Seat::new(3)]);
        assert!(audience.admits(Viewer::Seat(Seat::new(1)), false));
        assert!(!audience.admits(Viewer::Seat(Seat::new(2)), false));
        assert!(!audience.admits(Viewer::Spectator, false));
        assert!(audience.admits(Viewer::Spectator, true));
    }

    #[test]
    fn sealed_events_are_seen_by_nobody_until_the_game_ends() {
        let event = Event::sealed("shuffled");
        for viewer in [
            Viewer::Seat(Seat::new(0)),
            Viewer::Seat(Seat::new(1)),
            Viewer::Spectator,
        ] {
            assert!(!event.audience.admits(viewer, false));
            assert!(event.audience.admits(viewer, true));
        }
        assert!(Event::public(()).audience.admits(Viewer::Spectator, false));
        assert!(
            !Event::private(Seat::new(2), ())
                .audience
                .admits(Viewer::Seat(Seat::new(0)), false)
        );
    }

    #[test]
    fn audience_serializes_with_a_tag() {
        let json = serde_json::to_string(&Audience::Seats(vec![Seat::new(2)])).expect("serializes");
        assert_eq!(json, r#"{"to":"seats","seats":[2]}"#);
        assert_eq!(
            serde_json::to_string(&Audience::Nobody).expect("serializes"),
            r#"{"to":"nobody"}"#
        );
    }

    #[test]
    fn rejection_codes_are_stable_on_the_wire() {
        for code in [
            RejectionCode::NotYourTurn,
            RejectionCode::IllegalAction,
            RejectionCode::GameOver,
            RejectionCode::NoSuchSeat,
            RejectionCode::MalformedAction,
        ] {
            let json = serde_json::to_string(&code).expect("serializes");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn mermaid_lists_every_transition_and_the_end() {
        let machine = Machine {
            initial: "a",
            phases: vec![
                Phase {
                    name: "a",
                    description: "first",
                    actions: vec!["go"],
                    transitions: vec![Transition {
                        to: "b",
                        when: "after go: always; even twice",
                    }],
                },
                Phase {
                    name: "b",
                    description: "over",
                    actions: vec![],
                    transitions: vec![],
                },
            ],
            groups: vec![],
            on_timeout: Timeout::Bot {
                level: BotLevel::Random,
            },
        };
        let diagram = machine.mermaid();
        assert!(diagram.starts_with("stateDiagram-v2\n    [*] --> a\n"));
        assert!(diagram.contains("a --> b: after go - always, even twice\n"));
        assert!(diagram.contains("b --> [*]"));
    }

    fn code<T>(result: Result<T, Rejection>) -> Option<RejectionCode> {
        result.err().map(|r| r.code)
    }

    #[test]
    fn the_contract_refuses_in_order_game_over_seat_turn_parse_legality() {
        use RejectionCode::*;
        let options = serde_json::json!({"first_seat": 0, "max_turns_per_seat": 1});
        let (mut game, _) = crate::AnyGame::setup("rock-the-world", Some(&options), 2, 1).expect("setup");
        let garbage = r#"{"type":"nonsense"}"#;
        assert_eq!(code(game.apply(Seat::new(2), garbage)), Some(NoSuchSeat));
        assert_eq!(code(game.apply(Seat::new(1), garbage)), Some(NotYourTurn));
        assert_eq!(code(game.apply(Seat::new(0), garbage)), Some(MalformedAction));
        assert_eq!(
            code(game.apply(Seat::new(0), r#"{"type":"gig"}"#)),
            Some(IllegalAction)
        );
        for (seat, action) in [(0, "roll"), (0, "end_turn"), (1, "roll"), (1, "end_turn")] {
            let action = format!(r#"{{"type":"{action}"}}"#);
            assert_eq!(code(game.apply(Seat::new(seat), &action)), None, "{action}");
        }
        assert!(game.is_over());
        assert_eq!(code(game.apply(Seat::new(2), garbage)), Some(GameOver));
        assert_eq!(
            code(game.apply(Seat::new(0), r#"{"type":"roll"}"#)),
            Some(GameOver)
        );
    }

    #[test]
    fn setup_refuses_a_seat_count_outside_the_declared_bounds() {
        use crate::games::rock_the_world::RockTheWorld;
        for seats in [0, 1, 5] {
            assert_eq!(
                RockTheWorld::setup(Default::default(), seats, 1).err(),
                Some(SetupError::Seats {
                    asked: seats,
                    min: 2,
                    max: 4
                })
            );
        }
        assert!(RockTheWorld::setup(Default::default(), 4, 1).is_ok());
    }

    #[test]
    fn by_seat_indexes_by_seat() {
        let mut money = BySeat::from_fn(3, |s| s.index() * 10);
        money[Seat::new(2)] += 1;
        assert_eq!(money.0, vec![0, 10, 21]);
        assert_eq!(
            money.seats().map(|(s, _)| s).collect::<Vec<_>>(),
            vec![Seat::new(0), Seat::new(1), Seat::new(2)]
        );
    }
}
