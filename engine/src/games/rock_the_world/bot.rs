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

use rand::RngCore;
use serde::Deserialize;

use super::actions::Action;
use super::components::{BOARD, CharacterId, Colour};
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

/// The greedy pick, as an index into `legal`.
pub(super) fn greedy(view: &View, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let seen: Seen = heuristic::read(view)?;
    pick(&seen, legal, rng)
}

/// The same pick for `seat` in `game`, read from the state as the view shows it (R14:
/// everything the heuristic reads is public).
///
/// The playouts ask this at every step, so only what the scores of `legal` read is filled in:
/// the board and the other seats' bands only when a gig or a token move is scored (the spaces'
/// icons and cutouts, the claims against those met there), and a band's value for the seat
/// alone. The pick is the one the whole view gives.
pub(super) fn greedy_in(
    game: &RockTheWorld,
    seat: Seat,
    legal: &[Action],
    rng: &mut dyn RngCore,
) -> Option<usize> {
    let you = Some(seat).filter(|s| s.index() < game.seats());
    let on_board = legal
        .iter()
        .any(|action| matches!(action, Action::Gig | Action::Use { .. }));
    let seen = Seen {
        you,
        rocker: game.rocker,
        players: game
            .players
            .seats()
            .map(|(s, p)| {
                let read = on_board || Some(s) == you;
                Player {
                    seat: s,
                    colour: p.colour,
                    space: game.cutout_on_board(s).then_some(p.space),
                    cash: p.cash,
                    tokens: p.tokens,
                    band: if read {
                        // Room for every character at once.
                        let mut band = Vec::with_capacity(CharacterId::ALL.len());
                        band.extend(game.band(s).map(|character| Member {
                            character,
                            family: !game.is_extra(s, character),
                        }));
                        band
                    } else {
                        Vec::new()
                    },
                    band_value: if Some(s) == you { game.band_value(s) } else { 0 },
                    eliminated: p.out,
                }
            })
            .collect(),
        board: if on_board {
            BOARD
                .iter()
                .map(|c| Space {
                    space: c.space,
                    icons: c.icons,
                    character: game.board_character(c.space),
                    open: game.is_open(c.space),
                    cutouts: game.cutouts_at(c.space),
                })
                .collect()
        } else {
            Vec::new()
        },
    };
    pick(&seen, legal, rng)
}

fn pick(seen: &Seen, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let me = seen.players.iter().find(|p| Some(p.seat) == seen.you)?;
    let bot = Bot { view: seen, me };
    heuristic::best_by(legal, rng, |action| bot.score(action))
}

/// The bot in its seat.
struct Bot<'a> {
    view: &'a Seen,
    me: &'a Player,
}

impl Bot<'_> {
    fn is_rocker(&self) -> bool {
        self.view.rocker == Some(self.me.seat)
    }

    fn here(&self) -> Option<u8> {
        self.me.space
    }

    /// The board lists the spaces as `BOARD` does (`BOARD[s - 1]` is space `s`), so `space` is
    /// looked up by its place first.
    fn space(&self, space: u8) -> Option<&Space> {
        let listed = usize::from(space)
            .checked_sub(1)
            .and_then(|i| self.view.board.get(i));
        listed
            .filter(|s| s.space == space)
            .or_else(|| self.view.board.iter().find(|s| s.space == space))
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
            let held = self
                .me
                .band
                .iter()
                .filter(|m| m.family && m.character.card().colour == self.me.colour)
                .count();
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
        let Some(s) = self.space(space) else { return 0.0 };
        if self.is_rocker() || !s.open {
            return 0.0;
        }
        let icons = f64::from(s.icons[self.me.colour.index()]);
        let payers = 1 + s.cutouts.iter().filter(|&&c| c != self.me.seat).count();
        let pay = self.me.band_value as f64 * icons * MEAN_MULTIPLIER * GIG_UNIT * payers as f64;
        let rocker_here = self.view.rocker.is_some_and(|r| s.cutouts.contains(&r));
        pay + if rocker_here { HUNT } else { 0.0 }
    }

    /// What ending a turn on `space` may bring: its best claim or its gig.
    fn stay_worth(&self, space: u8) -> f64 {
        let Some(s) = self.space(space) else { return 0.0 };
        let mut claim = s.character.map_or(0.0, |c| self.claim_worth(c));
        if s.character.is_some() || self.is_rocker() {
            for other in s.cutouts.iter().filter(|&&c| c != self.me.seat) {
                let best = self
                    .view
                    .players
                    .iter()
                    .find(|p| p.seat == *other && !p.eliminated && Some(p.seat) != self.view.rocker)
                    .and_then(|p| {
                        p.band
                            .iter()
                            .filter(|m| !m.family)
                            .map(|m| self.claim_worth(m.character))
                            .max_by(f64::total_cmp)
                    });
                claim += best.unwrap_or(0.0);
            }
        }
        claim.max(self.gig_worth(space))
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
