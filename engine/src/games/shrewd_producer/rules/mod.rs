//! Who acts, the legal actions and how each one plays out; each decision plays out in its own
//! module.

mod draft;
mod raise;
mod scout;
mod signing;
mod songs;

use super::actions::Action;
use super::components::*;
use super::events::GameEvent;
use super::scoring::best_assignment;
use super::state::{ShrewdProducer, Stage};
use crate::{Event, Seat};

type Events = Vec<Event<GameEvent>>;

impl ShrewdProducer {
    /// Seats from the lead, clockwise.
    fn clockwise_from_lead(&self) -> impl Iterator<Item = Seat> + use<> {
        let (lead, seats) = (self.lead, self.seats());
        (0..seats).map(move |k| lead.clockwise(k, seats))
    }

    /// The seats that may act now, ascending.
    pub(crate) fn seats_to_act(&self) -> Vec<Seat> {
        match self.stage {
            Stage::Draft => Seat::all(self.seats())
                .filter(|&s| self.players[s].pair.is_some())
                .collect(),
            Stage::Scout | Stage::Raise => vec![self.turn],
            Stage::Signing => self.ranking.first().copied().into_iter().collect(),
            Stage::Songs => self.song_queue.first().copied().into_iter().collect(),
            Stage::Over => Vec::new(),
        }
    }

    /// Whether `seat` is in [`ShrewdProducer::seats_to_act`].
    pub(crate) fn is_to_act(&self, seat: Seat) -> bool {
        match self.stage {
            Stage::Draft => self.players.get(seat).is_some_and(|p| p.pair.is_some()),
            Stage::Scout | Stage::Raise => seat == self.turn,
            Stage::Signing => self.ranking.first() == Some(&seat),
            Stage::Songs => self.song_queue.first() == Some(&seat),
            Stage::Over => false,
        }
    }

    /// DERIVED 4 / G23: a debt needs a free debt mark and $500 in the supply.
    pub(crate) fn may_take_debt(&self, seat: Seat) -> bool {
        self.players[seat].debts < MAX_DEBTS && self.supply >= DEBT_BILLS
    }

    /// Whether the seat's current song is complete and a next level exists (G12).
    pub(crate) fn may_pick_song(&self, seat: Seat) -> bool {
        let p = &self.players[seat];
        match p.songs.last() {
            Some(song) => {
                song.card().level < TOP_LEVEL
                    && best_assignment(song.card().requires, &p.artists, self.options.dual_fills_both)
                        .is_some()
            }
            None => false,
        }
    }

    /// Every action `seat` may post now.
    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        let Some(p) = self.players.get(seat) else {
            return Vec::new();
        };
        match self.stage {
            Stage::Draft => match p.pair {
                Some([a, b]) => vec![Action::Keep { card: a }, Action::Keep { card: b }],
                None => Vec::new(),
            },
            Stage::Scout if seat == self.turn => {
                let mut out = Vec::with_capacity(p.hand.len() + 2);
                match self.lead_suit() {
                    // G24: the lead plays any card; it sets the suit.
                    None => out.extend(p.hand.iter().map(|&card| Action::Play { card })),
                    Some(suit) if p.hand.iter().any(|c| c.card().suit == suit) => out.extend(
                        p.hand
                            .iter()
                            .filter(|c| c.card().suit == suit)
                            .map(|&card| Action::Play { card }),
                    ),
                    // G7: without the lead suit, option A (any card, out) or B (substitute).
                    Some(_) => {
                        out.extend(p.hand.iter().map(|&card| Action::Play { card }));
                        if p.bills >= SUBSTITUTE_BILLS {
                            out.push(Action::Substitute);
                        }
                    }
                }
                if self.may_take_debt(seat) {
                    out.push(Action::TakeDebt);
                }
                out
            }
            Stage::Raise if seat == self.turn => {
                let mut out = Vec::with_capacity(usize::from(p.bills) + 2);
                out.push(Action::Pass);
                out.extend((1..=u32::from(p.bills)).map(|k| Action::Raise {
                    amount: k * RAISE_STEP,
                }));
                if self.may_take_debt(seat) {
                    out.push(Action::TakeDebt);
                }
                out
            }
            Stage::Signing if self.ranking.first() == Some(&seat) => self
                .revealed
                .iter()
                .map(|&artist| Action::ChooseArtist { artist })
                .collect(),
            Stage::Songs if self.song_queue.first() == Some(&seat) => {
                let mut out: Vec<Action> = self
                    .next_songs(seat)
                    .map(|song| Action::TakeSong { song })
                    .collect();
                out.push(Action::DeclineSong);
                out
            }
            _ => Vec::new(),
        }
    }

    /// Why `action` is not legal for `seat`, a seat that may act, or `Ok`.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), String> {
        if self.legal(seat).contains(action) {
            Ok(())
        } else {
            Err(self.why_illegal(seat, action))
        }
    }

    /// Carries out a legal action.
    pub(crate) fn play(&mut self, seat: Seat, action: &Action) -> Events {
        let mut events = Vec::with_capacity(8);
        match *action {
            Action::Keep { card } => self.keep(seat, card, &mut events),
            Action::TakeDebt => self.take_debt(seat, &mut events),
            Action::Play { card } => self.play_scout(seat, card, &mut events),
            Action::Substitute => self.substitute(seat, &mut events),
            Action::Raise { amount } => self.raise(seat, amount, &mut events),
            Action::Pass => self.pass(seat, &mut events),
            Action::ChooseArtist { artist } => self.choose_artist(seat, artist, &mut events),
            Action::TakeSong { song } => self.take_song(seat, song, &mut events),
            Action::DeclineSong => self.decline_song(seat, &mut events),
        }
        events
    }

    /// A sentence saying why a well-formed action is not legal for a seat that may act.
    fn why_illegal(&self, seat: Seat, action: &Action) -> String {
        let p = &self.players[seat];
        let phase = self.phase_name();
        match (self.stage, *action) {
            (Stage::Draft, Action::Keep { card }) => {
                format!("{} is not one of the two cards you are choosing from", card.id())
            }
            (Stage::Scout | Stage::Raise, Action::TakeDebt) if p.debts >= MAX_DEBTS => {
                format!("you have already taken the maximum of {MAX_DEBTS} debts this game")
            }
            (Stage::Scout | Stage::Raise, Action::TakeDebt) => format!(
                "a debt needs ${} in the supply; it holds ${}",
                u32::from(DEBT_BILLS) * BILL,
                u32::from(self.supply) * BILL
            ),
            (Stage::Scout, Action::Play { card }) if !p.hand.contains(&card) => {
                format!("{} is not in your hand", card.id())
            }
            (Stage::Scout, Action::Play { card }) => format!(
                "you hold Scout Money of the lead suit and must play one; {} is not of that suit",
                card.id()
            ),
            (Stage::Scout, Action::Substitute) if seat == self.lead => {
                "the lead plays a Scout Money card; it cannot substitute (G24)".into()
            }
            (Stage::Scout, Action::Substitute) if p.bills < SUBSTITUTE_BILLS => format!(
                "substituting costs $200 of Raise Money; you hold ${}",
                u32::from(p.bills) * BILL
            ),
            (Stage::Scout, Action::Substitute) => {
                "you hold Scout Money of the lead suit, so you must play it (G7)".into()
            }
            (Stage::Raise, Action::Raise { amount }) => format!(
                "a raise is a multiple of $100 from $100 up to the ${} you hold (G8); ${amount} is not",
                u32::from(p.bills) * BILL
            ),
            (Stage::Signing, Action::ChooseArtist { artist }) => {
                format!("{} is not one of this round's two artists", artist.id())
            }
            (Stage::Songs, Action::TakeSong { song }) => format!(
                "{} is not an open song card of the next level above your current song",
                song.id()
            ),
            (_, Action::TakeDebt) => {
                "debt may be taken only on one's own Scout or Raise Phase turn (G23)".into()
            }
            _ => format!("this action is not legal in the {phase} phase"),
        }
    }
}
