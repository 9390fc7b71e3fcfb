//! Show Business's greedy bot: take the money and the popularity on offer, spend neither.
//!
//! "Each player adds 10% of the owned cash (rounded down) to the figure determined by the
//! number of the field occupied by her/his octogon on the POPULARITY TRACK. The winner is the
//! player with the highest result" (END OF GAME). So the bot plays each decision for what it
//! brings at once: a concert token's FONS ("pick up concert token "L" with value 10"), a token
//! on an EXPERIENCE FIELD ("1 field towards field 50 for each CONCERT TOKEN collected"), a song
//! placed on the CHARTS; it bids nothing, buys and removes nothing, never fires an artist
//! ("DISMISSAL ... -1 satisfaction") and advertises as little as a payment needs ("moves her/his
//! marker on the POPULARITY TRACK any number of fields towards field -25").

use rand::RngCore;
use serde::Deserialize;

use super::actions::Action;
use super::components::{CityId, TokenId};
use super::state::ShowBusiness;
use super::view::View;
use crate::{Seat, heuristic, search};

/// What a REGROUPMENT or a STYLE CHANGE scores, and a DISMISSAL twice over: the anytime
/// actions (S9) never move the game on, so they rank below every other action and the bot
/// cannot loop on them.
const ANYTIME: f64 = -1000.0;

/// The seat's view, as far as the heuristic reads it.
#[derive(Debug, Deserialize)]
struct Seen {
    me: Option<Seat>,
    map_tokens: Vec<Token>,
}

#[derive(Debug, Deserialize)]
struct Token {
    id: TokenId,
    city: CityId,
    value: u32,
}

/// The greedy pick, as an index into `legal`.
pub(super) fn greedy(view: &View, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    let seen: Seen = heuristic::read(view)?;
    pick(&seen, legal, rng)
}

/// The same pick for `seat` in `game`, read from the state: the concert tokens on the map are
/// public, and the view shows each with its city and value.
pub(super) fn greedy_in(
    game: &ShowBusiness,
    seat: Seat,
    legal: &[Action],
    rng: &mut dyn RngCore,
) -> Option<usize> {
    pick(&seen_in(game, seat), legal, rng)
}

/// The playouts' action for `seat` ([`crate::Game::greedy_action`]): the action [`greedy_in`]
/// picks among every legal action, from the same draws, without listing the anytime actions
/// (S8, S9) while an action of the decision itself scores above them, as nearly always. They
/// end the legal list and score below the rest, so the best actions tied and their places in
/// the list are the same without them.
pub(super) fn greedy_action(game: &ShowBusiness, seat: Seat, rng: &mut dyn RngCore) -> Option<Action> {
    let decision = game.decision_legal(seat);
    if !game.lists_anytime(seat) || game.players[seat].band.is_empty() {
        return search::greedy_among(game, seat, decision, rng);
    }
    let seen = seen_in(game, seat);
    let scores: Vec<f64> = decision.iter().map(|a| score(&seen, a)).collect();
    if scores.iter().any(|&s| s > ANYTIME) {
        let pick = heuristic::best_by(&scores, rng, |&s| s)?;
        return decision.into_iter().nth(pick);
    }
    let mut legal = decision;
    game.anytime_actions(seat, &mut legal);
    search::greedy_among(game, seat, legal, rng)
}

/// What the heuristic reads of `game` for `seat`.
fn seen_in(game: &ShowBusiness, seat: Seat) -> Seen {
    Seen {
        me: Some(seat),
        map_tokens: game
            .map_tokens
            .iter()
            .map(|&id| {
                let token = id.token();
                Token {
                    id,
                    city: token.city,
                    value: token.value,
                }
            })
            .collect(),
    }
}

fn pick(seen: &Seen, legal: &[Action], rng: &mut dyn RngCore) -> Option<usize> {
    seen.me?;
    heuristic::best_by(legal, rng, |action| score(seen, action))
}

fn token_value(view: &Seen, id: TokenId) -> f64 {
    view.map_tokens
        .iter()
        .find(|t| t.id == id)
        .map_or(0.0, |t| f64::from(t.value))
}

/// The best concert token waiting in `city`.
fn city_value(view: &Seen, city: CityId) -> f64 {
    view.map_tokens
        .iter()
        .filter(|t| t.city == city)
        .map(|t| f64::from(t.value))
        .fold(0.0, f64::max)
}

fn score(view: &Seen, action: &Action) -> f64 {
    match action {
        // Cash is a tenth of the score: the cheapest bid keeps it.
        Action::Bid { amount } => -f64::from(*amount),
        Action::GiveUpBid => 1.0,
        Action::JoinBid => 0.0,
        // A concert "pays at once".
        Action::PickToken { token } | Action::PilotToken { token } => 20.0 + token_value(view, *token),
        Action::Move { city } | Action::CarTo { city } => city_value(view, *city) / 2.0 - 1.0,
        // Each token on an EXPERIENCE FIELD is a popularity point every QUARTER END.
        Action::PlaceToken { .. } => 10.0,
        Action::DiscardToken => -10.0,
        Action::Promote { .. } => 30.0,
        Action::PickSong { .. } | Action::PilotSong { .. } => 15.0,
        Action::RecordStyle { .. }
        | Action::RecordLyrics { .. }
        | Action::RecordTempo { .. }
        | Action::RecordVolume { .. } => 1.0,
        Action::Recruit { .. } => 12.0,
        Action::Integration => 5.0,
        Action::FemmeFatale => 2.0,
        Action::Defend { .. } => 3.0,
        Action::Draw => 2.0,
        Action::ActivateHand | Action::TakeMarket { .. } => 1.0,
        // Spending: each FONS kept is a tenth of a point.
        Action::Remove { field, .. } | Action::Buy { field } => -2.0 - f64::from(*field),
        Action::Advertise { fields } => -5.0 * f64::from(*fields),
        Action::Dismiss { .. } => 2.0 * ANYTIME,
        Action::Regroup { .. } | Action::Flip { .. } => ANYTIME,
        Action::Pass => -2.0,
        Action::GiveUp => -4.0,
        Action::EndAction => -1.0,
        // Steps that move the game on.
        Action::EndRound
        | Action::EndReview
        | Action::Stop
        | Action::Done
        | Action::DjDone
        | Action::Decline
        | Action::Discard { .. }
        | Action::ChooseFirst { .. }
        | Action::ChooseSong { .. } => 0.0,
        _ => -0.5,
    }
}
