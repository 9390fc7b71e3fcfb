//! Show Business (Grzegorz Majewski, Sinonis 2010): 2-5 music managers build bands, tour,
//! record and chart songs over one year of weeks.
//!
//! The game runs as a queue of steps: each is either automatic (run at once) or a decision
//! one seat (or several, for sealed bids and the step 9 poll) must post. The front of the
//! queue is what the game waits for; RULINGS.md's "Decision points" fix the order.
//!
//! Where neither the rulebook nor RULINGS.md decides, this implementation rules:
//! - S5 at setup: when every participant of a bidding round bids 0, the first player is drawn
//!   uniformly among that round's participants (all seats in the first round).
//! - When every band is bankrupt the game ends at once and is scored.
//! - A bankrupt seat's time marker stays where it was but no longer matters (S34).
//! - Hand cards another seat legitimately knows (bought from the market, shown to a SPONSOR,
//!   exchanged) appear in that seat's view until they leave the hand.
//! - Views show the discard piles and the used token pool as counts (with the top influence
//!   discard); pile order, the bag and other seats' hands never leave the engine.

mod actions;
mod components;
mod rules;
mod scoring;
mod state;
mod view;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

pub use actions::{Action, GameEvent, Market, Options, PaparazziBlock, Restock, RoyaltyBasis, SongContent};
pub use components::{Character, Die, Instrument, Lyrics, Style, Tempo, TokenColour, Volume};
pub use state::ShowBusiness;
pub use view::{ArtistView, PlayerView, SongView, TokenView, View};

use components::components;
use state::Task;

use crate::{Event, Game, Machine, Outcome, Phase, Rejection, Seat, SetupError, Started, Transition, Viewer};

/// Joins runs of public log lines into one event, one line each.
fn coalesce(events: Vec<Event<GameEvent>>) -> Vec<Event<GameEvent>> {
    let mut out: Vec<Event<GameEvent>> = Vec::with_capacity(events.len());
    for e in events {
        if let (Some(last), GameEvent::Log { seat, text }) = (out.last_mut(), &e.body)
            && last.audience == crate::Audience::Everyone
            && e.audience == crate::Audience::Everyone
            && let GameEvent::Log { seat: s0, text: t0 } = &mut last.body
        {
            if *s0 != *seat {
                *s0 = None;
            }
            t0.push('\n');
            t0.push_str(text);
            continue;
        }
        out.push(e);
    }
    out
}

const ANYTIME: [&str; 3] = ["dismiss", "regroup", "flip"];

fn with_anytime(mut actions: Vec<&'static str>) -> Vec<&'static str> {
    actions.extend(ANYTIME);
    actions
}

impl ShowBusiness {
    fn phase_name(&self) -> &'static str {
        if self.result.is_some() {
            return "game_over";
        }
        match self.queue.front() {
            Some(Task::Bid(b)) if b.setup => "opening_bid",
            Some(Task::Bid(_)) => "sequence_bid",
            Some(Task::Poll { .. }) => "sequence_bid_poll",
            Some(Task::ChooseFirst { .. }) => "choose_first",
            Some(Task::Review { .. }) => "market_review",
            Some(Task::TimeLapse { .. }) => "time_lapse",
            Some(Task::Activate { .. }) => "activation",
            Some(Task::Record { .. }) => "recording",
            Some(Task::Defend { .. }) => "defence",
            Some(Task::Influences { .. }) => "influences",
            Some(Task::EndRound { .. }) => "end_round",
            Some(Task::HandDiscard { .. }) => "hand_discard",
            Some(Task::Advertise { .. }) => "advertising",
            Some(Task::Charts) => "charts",
            Some(_) => "action",
            None => "game_over",
        }
    }

    fn card_count(&self) -> Result<(), String> {
        let c = components();
        let mut cards: Vec<u8> = Vec::new();
        for p in &self.players {
            cards.extend(&p.hand);
            cards.extend(&p.influence_field);
        }
        cards.extend(&self.influence_pile);
        cards.extend(&self.influence_discard);
        cards.extend(self.influence_market.iter().flatten());
        cards.extend(&self.revealed);
        cards.extend(self.trend_expert.map(|t| t.0));
        let set: BTreeSet<u8> = cards.iter().copied().collect();
        if cards.len() != c.influence.len() || set.len() != cards.len() {
            return Err(format!(
                "{} influence cards in play, {} distinct",
                cards.len(),
                set.len()
            ));
        }
        let mut artists: Vec<u8> = Vec::new();
        let mut tokens: Vec<u8> = Vec::new();
        for p in &self.players {
            for a in &p.band {
                artists.push(a.card);
                tokens.extend(&a.tokens);
            }
        }
        artists.extend(&self.artist_pile);
        artists.extend(&self.artist_discard);
        artists.extend(self.artist_market.iter().flatten());
        let set: BTreeSet<u8> = artists.iter().copied().collect();
        if artists.len() != c.artists.len() || set.len() != artists.len() {
            return Err(format!(
                "{} artist cards in play, {} distinct",
                artists.len(),
                set.len()
            ));
        }
        tokens.extend(&self.bag);
        tokens.extend(&self.used_tokens);
        tokens.extend(&self.map_tokens);
        tokens.extend(self.concert_market.iter().flatten());
        for t in &self.queue {
            if let Task::PlaceToken { token, .. } = t {
                tokens.push(*token);
            }
        }
        let set: BTreeSet<u8> = tokens.iter().copied().collect();
        if tokens.len() != c.tokens.len() || set.len() != tokens.len() {
            return Err(format!(
                "{} concert tokens in play, {} distinct",
                tokens.len(),
                set.len()
            ));
        }
        Ok(())
    }
}

impl Game for ShowBusiness {
    const SLUG: &'static str = "show-business";
    const TITLE: &'static str = "Show Business";
    const SEATS: RangeInclusive<usize> = 2..=5;
    type Options = Options;
    type Action = Action;
    type Event = GameEvent;
    type View = View;

    fn setup(options: Options, seats: usize, seed: u64) -> Result<Started<Self>, SetupError> {
        if !Self::SEATS.contains(&seats) {
            return Err(SetupError::Seats {
                asked: seats,
                min: 2,
                max: 5,
            });
        }
        let (mut game, mut events) = ShowBusiness::new(options, seats, seed);
        game.advance(&mut events);
        Ok((game, coalesce(events)))
    }

    fn seat_count(&self) -> usize {
        self.players.len()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.to_act_now()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat >= self.n() {
            return vec![];
        }
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event<GameEvent>>, Rejection> {
        if self.result.is_some() {
            return Err(Rejection::game_over());
        }
        if seat >= self.n() {
            return Err(Rejection::no_such_seat(seat, self.n()));
        }
        if !self.to_act_now().contains(&seat) {
            return Err(Rejection::not_your_turn(format!(
                "seat {seat} may not act now; waiting for {:?} ({})",
                self.to_act_now(),
                self.phase_name()
            )));
        }
        let legal = self.legal(seat);
        if !legal.contains(action) {
            let kinds: BTreeSet<&str> = legal.iter().map(Action::kind).collect();
            return Err(Rejection::illegal(format!(
                "not legal now in phase {}; the legal action types are {kinds:?}",
                self.phase_name()
            )));
        }
        let mut events = Vec::new();
        self.exec(seat, action, &mut events);
        self.advance(&mut events);
        Ok(coalesce(events))
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer, self.phase_name())
    }

    fn phase(&self) -> &'static str {
        self.phase_name()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }

    fn machine() -> Machine {
        let t = |to, when| Transition { to, when };
        let phase = |name, description, actions, transitions| Phase {
            name,
            description,
            actions,
            transitions,
        };
        Machine {
            initial: "opening_bid",
            phases: vec![
                phase(
                    "opening_bid",
                    "Setup 10: sealed, simultaneous bids; all pay; ties re-bid.",
                    vec!["bid"],
                    vec![
                        t("choose_first", "a unique highest positive bid"),
                        t("market_review", "all bid 0: a random seat starts"),
                    ],
                ),
                phase(
                    "choose_first",
                    "S7: the bid winner decides who starts the turn.",
                    vec!["choose_first"],
                    vec![
                        t("market_review", "at setup, the first round begins"),
                        t("charts", "a quarter end is pending"),
                        t("market_review", "the next turn begins"),
                    ],
                ),
                phase(
                    "market_review",
                    "Step 2 MARKET REVIEW: remove market cards for their field number.",
                    with_anytime(vec!["remove", "end_review"]),
                    vec![
                        t("time_lapse", "end_review"),
                        t("advertising", "a removal costs more than the cash"),
                        t("hand_discard", "a dismissal leaves too many cards"),
                    ],
                ),
                phase(
                    "time_lapse",
                    "Step 3 TIME LAPSE: play a card and move the time marker by its POWER.",
                    with_anytime(vec!["play", "give_up"]),
                    vec![t("activation", "a card is played"), t("influences", "give_up")],
                ),
                phase(
                    "activation",
                    "Step 4: act with the played card or a market card from a field at most its POWER.",
                    with_anytime(vec!["activate_hand", "take_market"]),
                    vec![t("action", "the active card is set")],
                ),
                phase(
                    "action",
                    "Step 4 ACTION: TREND, RECRUITMENT, TOURNEE, PROMOTION or CHARACTER, step by step.",
                    with_anytime(vec![
                        "pass",
                        "set_die",
                        "recruit",
                        "move",
                        "pick_token",
                        "pick_song",
                        "end_action",
                        "place_token",
                        "discard_token",
                        "promote",
                        "a_and_r",
                        "sponsor",
                        "swap",
                        "stop",
                        "groupie",
                        "groupie_take",
                        "groupie_give",
                        "groupie_place_mine",
                        "groupie_place_theirs",
                        "femme_fatale",
                        "integration",
                        "disorder",
                        "paparazzi",
                        "reporter",
                        "trend_expert_place",
                        "trend_expert_remove",
                        "pilot_token",
                        "pilot_song",
                        "car_to",
                        "dj_remove",
                        "dj_done",
                        "dj_from_market",
                        "dj_from_bag",
                    ]),
                    vec![
                        t("recording", "a song is picked up"),
                        t("defence", "a hostile activity is declared"),
                        t("advertising", "a promotion costs more than the cash"),
                        t(
                            "time_lapse",
                            "the first action ends and no quarter end was triggered",
                        ),
                        t("influences", "the last action ends"),
                    ],
                ),
                phase(
                    "recording",
                    "RECORDING: style, lyrics, tempo, volume, one field at a time.",
                    vec!["record_style", "record_lyrics", "record_tempo", "record_volume"],
                    vec![t("action", "the song is recorded")],
                ),
                phase(
                    "defence",
                    "Hostile activity: the target defends with a card or declines.",
                    vec!["defend", "decline"],
                    vec![t("action", "the attack is settled")],
                ),
                phase(
                    "influences",
                    "Step 5 INFLUENCES: draw or buy up to the hand limit.",
                    with_anytime(vec!["draw", "buy"]),
                    vec![
                        t("end_round", "the hand is full (step 6 MARKET REFRESHMENT runs)"),
                        t("advertising", "a purchase costs more than the cash"),
                    ],
                ),
                phase(
                    "end_round",
                    "S10: end the round; steps 7-10 follow for the last seat.",
                    with_anytime(vec!["end_round"]),
                    vec![
                        t("market_review", "the next seat's round"),
                        t("sequence_bid_poll", "the last seat's round: step 9"),
                        t("charts", "a quarter end is pending"),
                        t("game_over", "the last turn is over"),
                    ],
                ),
                phase(
                    "sequence_bid_poll",
                    "Step 9 (S6): each solvent seat gives up or joins the bid.",
                    vec!["give_up_bid", "join_bid"],
                    vec![
                        t("sequence_bid", "someone joins"),
                        t("market_review", "everyone gives up"),
                    ],
                ),
                phase(
                    "sequence_bid",
                    "Step 9: sealed bids; all pay; ties re-bid.",
                    vec!["bid"],
                    vec![
                        t("choose_first", "a unique highest positive bid"),
                        t("market_review", "all bid 0"),
                    ],
                ),
                phase(
                    "hand_discard",
                    "S11: discard down to the hand limit after losing artists.",
                    vec!["discard"],
                    vec![t("action", "the hand fits")],
                ),
                phase(
                    "advertising",
                    "S33: PERFORM IN ADVERTISING to cover a payment.",
                    vec!["advertise"],
                    vec![t("action", "the payment is made")],
                ),
                phase(
                    "charts",
                    "QUARTER END 1 CHARTS: SPONSOR laps and choices for tied songs.",
                    vec!["sponsor_tie", "done", "choose_song"],
                    vec![
                        t("market_review", "the quarter end is over"),
                        t("game_over", "the last quarter ends the game"),
                    ],
                ),
                phase(
                    "game_over",
                    "END OF GAME: popularity + 10% of cash.",
                    vec![],
                    vec![],
                ),
            ],
        }
    }

    fn secrets(&self, viewer: Viewer) -> Vec<String> {
        self.hidden_from(viewer)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.card_count()?;
        for (seat, p) in self.players.iter().enumerate() {
            if p.cash < 0 {
                return Err(format!("seat {seat} has negative cash"));
            }
            if p.satisfaction > rules::MAX_SATISFACTION || p.time > rules::LAST_WEEK {
                return Err(format!("seat {seat}: a track is out of bounds"));
            }
            if p.popularity < rules::POPULARITY_FLOOR {
                return Err(format!("seat {seat}: popularity below -25"));
            }
            if p.band.len() > rules::MAX_ARTISTS || p.songs.len() > rules::SONG_FIELDS {
                return Err(format!("seat {seat}: too many artists or songs"));
            }
            let mut fields = BTreeSet::new();
            for a in &p.band {
                for &f in &a.fields {
                    if !fields.insert(f) {
                        return Err(format!("seat {seat}: field {f} holds two artists"));
                    }
                }
                if a.tokens.len() > components().artists[a.card as usize].experience_fields as usize {
                    return Err(format!("seat {seat}: too many tokens on an artist"));
                }
            }
        }
        if self.map_tokens.len() > 5 + 5 {
            return Err("too many tokens on the map".into());
        }
        Ok(())
    }
}
