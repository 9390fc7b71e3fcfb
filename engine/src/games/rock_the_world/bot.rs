//! Rock the World's greedy bot: grow the band and the cash in phase one, declare only when
//! rich enough to outlast the outsiders' gigs, and as an outsider hunt the rocker.
//!
//! Every action the seat may take now is scored by what it is expected to bring at once, in
//! dollars, from the public board (R14: "everything is public except the order of the play
//! deck"): a gig pays "Value of Band X Market Demand X Playcard" (R1: x $10,000, R6: every
//! opponent present pays the same), a claim wins each character whose value the roll meets
//! ("If the roll meets or exceeds the character's value number"), and a travel token is worth
//! spending when the space it reaches is worth more than its price.
//!
//! The expert searches from this heuristic (`crate::search`), and departs from its pick only
//! where the playouts beat it by [`SEARCH_EDGE`], far more than the search's usual edge. The
//! game is one long race that only a rocker wins ("The rocker ... will win the game if he
//! successfully acquires all 16 characters"), so a playout's result is close to all or
//! nothing, decided tens of turns later, and one gig, claim or bus ride moves it by a few
//! hundredths, well inside the noise of the few dozen playouts each action gets at 200
//! iterations. With the usual edge the expert at 3 seats left the heuristic's pick in about half
//! of its decisions, mostly at random: it ended its turn instead of playing a gig that paid, or
//! instead of a claim roll, stayed poorer than the greedy seats and won no more than par. With
//! the higher edge it keeps the heuristic's sound routine and still departs where the playouts
//! show a clear difference, above all in when to declare: it lets a greedy seat declare early
//! and be hunted down by two outsiders ("The other player's (the outsiders) main goal is to
//! deplete the rocker of money in order to eliminate him"), then declares itself against one.

use std::cell::OnceCell;

use rand::RngCore;
use serde::Deserialize;

use super::actions::Action;
use super::components::{CharacterId, Colour, city};
use super::components::{Token, Tokens};
use super::state::RockTheWorld;
use super::view::View;
use crate::Seat;
use crate::heuristic;

/// The edge the greedy pick gets over the other actions' mean playout results in the expert's
/// search (see the module's doc): about one standard error of the difference between two
/// actions' means at 200 iterations, where the search's usual edge is 0.02.
pub(super) const SEARCH_EDGE: f64 = 0.12;
/// R1: a gig's earnings are counted in units of $10,000.
const GIG_UNIT: f64 = 10_000.0;
/// The deck's 8 Super Success (x2), 32 Success (x1) and 16 Fail (x0) cards: the mean multiplier.
const MEAN_MULTIPLIER: f64 = (8.0 * 2.0 + 32.0) / 56.0;
/// R2: a travel token costs $100,000.
const TOKEN_PRICE: f64 = 100_000.0;
/// What one point of band value is worth to a seat still earning: it raises every later gig.
const BAND_POINT: f64 = 150_000.0;
/// What a character is worth to the rocker, who wins on claiming the 16th.
const ROCKER_CLAIM: f64 = 5_000_000.0;
/// What a gig on the rocker's space is worth to an outsider beyond its pay: each one drains
/// the rocker, who "will be eliminated from the game if he is unable to pay a debt".
const HUNT: f64 = 3_000_000.0;
/// Declare with at least this much cash, so as to outlast the outsiders' gigs...
const DECLARE_CASH: u64 = 3_000_000;
/// ...and at least this many characters already held, so that few remain to claim.
const DECLARE_BAND: usize = 7;
/// Planes held before the bot stops buying ("It's good strategy to quickly earn $200,000 and
/// buy 2 planes early in the game").
const PLANES_WANTED: u8 = 2;
/// Cash kept after buying a token.
const RESERVE: u64 = 300_000;

/// The seat's view, as far as the heuristic reads it.
#[derive(Debug, Deserialize)]
struct Seen {
    you: Option<Seat>,
    rocker: Option<Seat>,
    players: Vec<Player>,
    board: Vec<Space>,
}

#[derive(Debug, Deserialize)]
struct Player {
    seat: Seat,
    colour: Colour,
    space: Option<u8>,
    cash: u64,
    tokens: Tokens,
    band: Vec<Member>,
    band_value: u64,
    eliminated: bool,
}

#[derive(Debug, Deserialize)]
struct Member {
    character: CharacterId,
    family: bool,
}

#[derive(Debug, Deserialize)]
struct Space {
    space: u8,
    icons: [u8; 4],
    character: Option<CharacterId>,
    open: bool,
    cutouts: Vec<Seat>,
}

/// What the heuristic reads of the table, from the seat's view ([`Seen`]) or, in the expert's
/// playouts, from the state as that view shows it ([`InState`]), each part only when a score
/// asks for it.
trait Table {
    /// The seat the heuristic plays.
    fn you(&self) -> Option<Seat>;
    /// R18: the rocker, once declared.
    fn rocker(&self) -> Option<Seat>;
    /// A seat's public standing.
    fn seated(&self, seat: Seat) -> Option<Seated>;
    /// R25: a seat's band value.
    fn band_value(&self, seat: Seat) -> u64;
    /// A space of the board, by its number.
    fn place(&self, space: u8) -> Option<Place>;
}

/// A seat as the heuristic reads it.
#[derive(Clone, Copy, Debug)]
struct Seated {
    seat: Seat,
    colour: Colour,
    /// Its cutout's space, while the cutout is on the board.
    space: Option<u8>,
    cash: u64,
    tokens: Tokens,
    band: Band,
    eliminated: bool,
}

/// A band: the characters held, a bit each by [`CharacterId::index`], and which of them are
/// family (of the holder's Lead colour, R12).
#[derive(Clone, Copy, Debug, Default)]
struct Band {
    held: u16,
    family: u16,
}

impl Band {
    fn add(&mut self, character: CharacterId, family: bool) {
        let bit = 1u16 << (character.index() % 16);
        self.held |= bit;
        if family {
            self.family |= bit;
        }
    }

    fn len(self) -> usize {
        self.held.count_ones() as usize
    }

    /// The characters whose bits are in `mask`, ascending.
    fn members(mask: u16) -> impl Iterator<Item = CharacterId> {
        bits(u32::from(mask)).filter_map(|i| CharacterId::ALL.get(i).copied())
    }

    fn family(self) -> impl Iterator<Item = CharacterId> {
        Self::members(self.held & self.family)
    }

    fn extras(self) -> impl Iterator<Item = CharacterId> {
        Self::members(self.held & !self.family)
    }
}

/// A space of the board as the heuristic reads it.
#[derive(Clone, Copy, Debug)]
struct Place {
    icons: [u8; 4],
    character: Option<CharacterId>,
    open: bool,
    /// The seats whose cutout stands there, a bit each by [`Seat::index`].
    cutouts: u32,
}

impl Place {
    fn has(&self, seat: Seat) -> bool {
        seat.index() < 32 && self.cutouts & (1 << seat.index()) != 0
    }

    /// The seats whose cutout stands there, ascending.
    fn cutouts(self) -> impl Iterator<Item = Seat> {
        bits(self.cutouts).map(Seat::new)
    }
}

/// The places of the bits set in `mask`, ascending.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let next = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (next < 32).then_some(next)
    })
}

/// The seats in `seats` as [`Place::cutouts`]' bits.
fn seat_bits(seats: impl IntoIterator<Item = Seat>) -> u32 {
    seats
        .into_iter()
        .filter(|s| s.index() < 32)
        .fold(0, |bits, s| bits | 1 << s.index())
}

impl Table for Seen {
    fn you(&self) -> Option<Seat> {
        self.you
    }

    fn rocker(&self) -> Option<Seat> {
        self.rocker
    }

    fn seated(&self, seat: Seat) -> Option<Seated> {
        let p = self.players.iter().find(|p| p.seat == seat)?;
        let mut band = Band::default();
        for m in &p.band {
            band.add(m.character, m.family);
        }
        Some(Seated {
            seat: p.seat,
            colour: p.colour,
            space: p.space,
            cash: p.cash,
            tokens: p.tokens,
            band,
            eliminated: p.eliminated,
        })
    }

    fn band_value(&self, seat: Seat) -> u64 {
        self.players
            .iter()
            .find(|p| p.seat == seat)
            .map_or(0, |p| p.band_value)
    }

    /// The board lists the spaces as `BOARD` does (`BOARD[s - 1]` is space `s`), so `space` is
    /// looked up by its place first.
    fn place(&self, space: u8) -> Option<Place> {
        let listed = usize::from(space).checked_sub(1).and_then(|i| self.board.get(i));
        let s = listed
            .filter(|s| s.space == space)
            .or_else(|| self.board.iter().find(|s| s.space == space))?;
        Some(Place {
            icons: s.icons,
            character: s.character,
            open: s.open,
            cutouts: seat_bits(s.cutouts.iter().copied()),
        })
    }
}

/// The state, read for `you` as its view shows it (R14: everything the heuristic reads is
/// public).
struct InState<'a> {
    game: &'a RockTheWorld,
    you: Option<Seat>,
}

impl Table for InState<'_> {
    fn you(&self) -> Option<Seat> {
        self.you
    }

    fn rocker(&self) -> Option<Seat> {
        self.game.rocker
    }

    fn seated(&self, seat: Seat) -> Option<Seated> {
        let game = self.game;
        let (_, p) = game.players.seats().find(|&(s, _)| s == seat)?;
        let mut band = Band::default();
        for character in game.band(seat) {
            band.add(character, !game.is_extra(seat, character));
        }
        Some(Seated {
            seat,
            colour: p.colour,
            space: game.cutout_on_board(seat).then_some(p.space),
            cash: p.cash,
            tokens: p.tokens,
            band,
            eliminated: p.out,
        })
    }

    fn band_value(&self, seat: Seat) -> u64 {
        self.game.band_value(seat)
    }

    fn place(&self, space: u8) -> Option<Place> {
        let c = city(space)?;
        Some(Place {
            icons: c.icons,
            character: self.game.board_character(space),
            open: self.game.is_open(space),
            cutouts: seat_bits(
                self.game
                    .players
                    .seats()
                    .filter(|&(s, p)| p.space == space && self.game.cutout_on_board(s))
                    .map(|(s, _)| s),
            ),
        })
    }
}

/// The greedy pick, as an index into `legal`.
pub(super) fn greedy(view: &View, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let seen: Seen = heuristic::read(view)?;
    pick(&seen, legal, rng)
}

/// The same pick for `seat` in `game`, read from the state as the view shows it. The playouts
/// ask this at every step, so nothing is built that the scores of `legal` do not read: a
/// seat's band, a space of the board, when a score asks for it ([`InState`]).
pub(super) fn greedy_in(
    game: &RockTheWorld,
    seat: Seat,
    legal: &[Action],
    rng: &mut dyn RngCore,
) -> Option<usize> {
    let you = Some(seat).filter(|s| s.index() < game.seats());
    pick(&InState { game, you }, legal, rng)
}

fn pick(table: &impl Table, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let me = table.seated(table.you()?)?;
    let bot = Bot {
        table,
        me,
        band_value: OnceCell::new(),
        rocker: table.rocker(),
        family_held: me.band.family().filter(|c| c.card().colour == me.colour).count(),
    };
    heuristic::best_by(legal, rng, |action| bot.score(action))
}

/// The bot in its seat.
struct Bot<'a, T> {
    table: &'a T,
    me: Seated,
    /// Its band value, asked only by a gig's worth.
    band_value: OnceCell<u64>,
    rocker: Option<Seat>,
    /// The family characters of its own colour it holds.
    family_held: usize,
}

impl<T: Table> Bot<'_, T> {
    fn is_rocker(&self) -> bool {
        self.rocker == Some(self.me.seat)
    }

    fn here(&self) -> Option<u8> {
        self.me.space
    }

    fn score(&self, action: &Action) -> f64 {
        match action {
            Action::Roll => 0.0,
            Action::Buy { token } => self.buy_score(*token),
            Action::Use { token, to } => self.space_worth(*to) - token_price(*token),
            Action::Declare => {
                if self.me.cash >= DECLARE_CASH && self.me.band.len() >= DECLARE_BAND {
                    1e12
                } else {
                    -1e12
                }
            }
            Action::Claim { take } => take.iter().map(|&c| self.claim_worth(c)).sum(),
            Action::Gig => self.here().map_or(0.0, |s| self.gig_worth(s)),
            Action::EndTurn => 0.0,
        }
    }

    /// Buy planes early while the cash allows: a plane reaches "anywhere on the board".
    fn buy_score(&self, token: Token) -> f64 {
        let affordable = self.me.cash >= RESERVE + TOKEN_PRICE as u64;
        if token == Token::Plane && affordable && self.me.tokens.plane < PLANES_WANTED {
            1e11
        } else {
            -1.0
        }
    }

    /// The expected worth of a claim roll against `character`: the chance a d6 meets its value
    /// times what holding it is worth.
    fn claim_worth(&self, character: CharacterId) -> f64 {
        let card = character.card();
        let chance = f64::from(7u8.saturating_sub(card.value).min(6)) / 6.0;
        let worth = if self.is_rocker() {
            ROCKER_CLAIM
        } else {
            let held = self.family_held;
            // R25: the fourth family character flips the Lead to 30.
            let family_bonus = if card.colour == self.me.colour {
                2.0 + held as f64
            } else {
                0.0
            };
            (f64::from(card.value) + family_bonus) * BAND_POINT
        };
        chance * worth
    }

    /// A gig here: band value x own-colour icons x the mean card x $10,000, from the bank and
    /// from each opponent present; on the rocker's space, a step towards eliminating him.
    fn gig_worth(&self, space: u8) -> f64 {
        let Some(s) = self.table.place(space) else {
            return 0.0;
        };
        self.gig_worth_at(&s)
    }

    fn gig_worth_at(&self, s: &Place) -> f64 {
        if self.is_rocker() || !s.open {
            return 0.0;
        }
        let icons = f64::from(s.icons[self.me.colour.index()]);
        let others = s.cutouts & !seat_bits([self.me.seat]);
        let payers = 1 + others.count_ones() as usize;
        let band_value = *self
            .band_value
            .get_or_init(|| self.table.band_value(self.me.seat));
        let pay = band_value as f64 * icons * MEAN_MULTIPLIER * GIG_UNIT * payers as f64;
        let rocker_here = self.rocker.is_some_and(|r| s.has(r));
        pay + if rocker_here { HUNT } else { 0.0 }
    }

    /// What ending a turn on `space` may bring: its best claim or its gig.
    fn stay_worth(&self, space: u8) -> f64 {
        let Some(s) = self.table.place(space) else {
            return 0.0;
        };
        let mut claim = s.character.map_or(0.0, |c| self.claim_worth(c));
        if s.character.is_some() || self.is_rocker() {
            for other in s.cutouts().filter(|&c| c != self.me.seat) {
                let best = self
                    .table
                    .seated(other)
                    .filter(|p| !p.eliminated && Some(p.seat) != self.rocker)
                    .and_then(|p| {
                        p.band
                            .extras()
                            .map(|c| self.claim_worth(c))
                            .max_by(f64::total_cmp)
                    });
                claim += best.unwrap_or(0.0);
            }
        }
        claim.max(self.gig_worth_at(&s))
    }

    /// Moving to `space` by token is worth what staying there brings.
    fn space_worth(&self, space: u8) -> f64 {
        self.stay_worth(space)
    }
}

/// What spending a token costs: its price, planes dearer for their reach.
fn token_price(token: Token) -> f64 {
    match token {
        Token::Bus => TOKEN_PRICE,
        Token::Train => 1.5 * TOKEN_PRICE,
        Token::Plane => 3.0 * TOKEN_PRICE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_bands_list_their_members_in_ascending_order() {
        assert_eq!(bits(0).count(), 0);
        assert_eq!(bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(bits(1 << 31).collect::<Vec<_>>(), vec![31]);
        let mut band = Band::default();
        let [a, b, c, ..] = CharacterId::ALL;
        band.add(c, true);
        band.add(a, false);
        band.add(b, true);
        assert_eq!(band.len(), 3);
        assert_eq!(band.family().collect::<Vec<_>>(), vec![b, c]);
        assert_eq!(band.extras().collect::<Vec<_>>(), vec![a]);
        let place = Place {
            icons: [0; 4],
            character: None,
            open: true,
            cutouts: seat_bits([Seat::new(3), Seat::new(1)]),
        };
        assert_eq!(
            place.cutouts().collect::<Vec<_>>(),
            vec![Seat::new(1), Seat::new(3)]
        );
        assert!(place.has(Seat::new(3)) && !place.has(Seat::new(2)));
    }
}
