//! Ratings: one per (app, ruleset, player), by the Weng–Lin model for free-for-all games with
//! ranks and ties (Weng and Lin, "A Bayesian Approximation Method for Online Ranking", JMLR
//! 2011; the model OpenSkill implements), as the `skillratings` crate computes it, each seat a
//! team of one.
//!
//! A rating is a belief about a player's skill: its mean `mu` and its uncertainty `sigma`.
//! What a listing shows is the conservative `mu − 3σ`: a new player starts at 0 and rises as the
//! games make the belief surer. The scale is the model's defaults times 60 (a start of
//! 1,500 ± 500, and β = 250: the difference in skill that wins about two games of three).
//! Values are kept in thousandths of a point, as integers, so that a record holds each
//! seat's rating before and after exactly and anyone can compute the change again.
//!
//! A finished game is rated when it was created rated and nobody aborted it. Its places come
//! from its outcome's ranks (tied seats share a place), except that a seat whose player
//! resigned, ran out of time, or left the seat to someone else ranks last.

use roadie_engine::{BotLevel, Outcome, Seat};
use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use utoipa::ToSchema;

use super::refusal::{Code, Refusal};
use super::seats::SeatSpec;
use super::{Change, Refused, StoredEvent, Table, Transition};

/// Points per unit of the model's own scale (whose start is 25 ± 25/3).
const SCALE: f64 = 60.0;

/// Thousandths of a point per point.
const MILLI: f64 = 1000.0;

/// Every new player's rating: 1,500 ± 500, shown as 0.
pub const START: Skill = Skill {
    mu_milli: 1_500_000,
    sigma_milli: 500_000,
};

/// β, the difference in skill that wins about two games of three: the model's 25/6 × 60.
const BETA: f64 = 250.0;

/// A belief about a player's skill, in thousandths of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Skill {
    /// The mean, in thousandths of a point.
    pub mu_milli: i64,
    /// The uncertainty (one standard deviation), in thousandths of a point.
    pub sigma_milli: i64,
}

impl Skill {
    /// The conservative rating shown: `mu − 3σ`, in whole points.
    pub fn shown(self) -> i64 {
        let milli = self.mu_milli - 3 * self.sigma_milli;
        // Rounded half away from zero, in integers.
        if milli >= 0 {
            (milli + 500) / 1000
        } else {
            (milli - 500) / 1000
        }
    }

    fn model(self) -> WengLinRating {
        WengLinRating {
            rating: self.mu_milli as f64 / MILLI / SCALE,
            uncertainty: self.sigma_milli as f64 / MILLI / SCALE,
        }
    }

    fn from_model(rating: WengLinRating) -> Self {
        Self {
            mu_milli: (rating.rating * SCALE * MILLI).round() as i64,
            sigma_milli: (rating.uncertainty * SCALE * MILLI).round() as i64,
        }
    }
}

/// A bot's fixed rating in `ruleset` at `level`: an anchor that rated games against bots are
/// measured against, never changed by them. Measured with the `bots` tool's `rate` mode
/// (`docs/playing.md`); a ruleset or level it has not measured starts where a new player does.
pub fn bot_skill(ruleset: &str, level: BotLevel) -> Skill {
    let mu = BOT_RATINGS
        .iter()
        .find(|(slug, at, _)| *slug == ruleset && *at == level)
        .map_or(START.mu_milli, |(_, _, mu)| mu * 1000);
    Skill {
        mu_milli: mu,
        sigma_milli: BOT_SIGMA_MILLI,
    }
}

/// How sure an anchor's rating is: the spread of the measurement, a tenth of a new player's.
const BOT_SIGMA_MILLI: i64 = 50_000;

/// Each bot's `mu` by ruleset and level, in whole points, from `cargo run --release -p
/// roadie-tests --bin bots -- rate --games 100 --iterations 50` (100 three-seat games per
/// ruleset among the three levels, the expert at 50 playouts a decision; the table in
/// `docs/playing.md`).
const BOT_RATINGS: &[(&str, BotLevel, i64)] = &[
    ("shrewd-producer", BotLevel::Random, 122),
    ("shrewd-producer", BotLevel::Greedy, 1887),
    ("shrewd-producer", BotLevel::Expert, 2344),
    ("rock-the-world", BotLevel::Random, -131),
    ("rock-the-world", BotLevel::Greedy, 2288),
    ("rock-the-world", BotLevel::Expert, 2052),
    ("show-business", BotLevel::Random, 241),
    ("show-business", BotLevel::Greedy, 2126),
    ("show-business", BotLevel::Expert, 1971),
];

/// Who a seat of a rated game counts for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RatedSeat {
    /// An app's player, rated by the game.
    Player {
        /// The app's id of the player.
        player: String,
        /// The name it played under.
        name: String,
    },
    /// A bot: a fixed anchor.
    Bot {
        /// Its level.
        level: BotLevel,
    },
}

/// A rated game's account: who each seat counts for, which seats forfeited, and the change
/// once it is rated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rated {
    /// Who each seat counts for, in seat order, fixed when the game was created.
    pub seats: Vec<RatedSeat>,
    /// The seats ranked last whatever their score: their player resigned, ran out of time or
    /// left the seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<Seat>,
    /// Each seat's rating before and after, once the game is rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<RatingChange>>,
}

impl Rated {
    /// Marks `seat` as forfeited (at most once).
    pub fn forfeit(&mut self, seat: Seat) {
        if !self.forfeits.contains(&seat) {
            self.forfeits.push(seat);
        }
    }

    /// The players rated, with their seats.
    pub fn players(&self) -> impl Iterator<Item = (Seat, &str, &str)> {
        self.seats.iter().enumerate().filter_map(|(i, seat)| match seat {
            RatedSeat::Player { player, name } => Some((Seat::new(i), player.as_str(), name.as_str())),
            RatedSeat::Bot { .. } => None,
        })
    }
}

impl Rated {
    /// The account of a game created rated with seats `specs`: `422 not_ratable` unless every
    /// seat is an app's player or a bot (an anchor), at least one is a player, and no player
    /// holds two seats.
    pub fn of_seats(specs: &[SeatSpec]) -> Result<Self, Refusal> {
        let refused = |why: &str| Refusal::new(Code::NotRatable, format!("a rated game {why}"));
        let mut seats = Vec::with_capacity(specs.len());
        for spec in specs {
            seats.push(match spec {
                SeatSpec::Member { player, name } => {
                    if seats
                        .iter()
                        .any(|s| matches!(s, RatedSeat::Player { player: p, .. } if p == player))
                    {
                        return Err(refused("seats each player once"));
                    }
                    RatedSeat::Player {
                        player: player.clone(),
                        name: name.clone().unwrap_or_else(|| player.clone()),
                    }
                }
                SeatSpec::Bot(level) => RatedSeat::Bot { level: *level },
                SeatSpec::Open | SeatSpec::Player(_) => {
                    return Err(refused(
                        "seats only an app's players (`{\"player\": id}`) and bots: an open or named seat has no one to rate",
                    ));
                }
            });
        }
        if !seats.iter().any(|s| matches!(s, RatedSeat::Player { .. })) {
            return Err(refused("needs at least one of an app's players"));
        }
        Ok(Self {
            seats,
            forfeits: Vec::new(),
            changes: None,
        })
    }
}

/// A rating as a game's change shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    /// The conservative rating shown, `mu − 3σ`, in whole points.
    pub rating: i64,
    /// The mean of the belief it is drawn from, in thousandths of a point.
    pub mu_milli: i64,
    /// Its uncertainty, in thousandths of a point.
    pub sigma_milli: i64,
    /// Rated games played, this one included in `after`.
    pub games: u32,
}

impl RatingPoint {
    fn of(skill: Skill, games: u32) -> Self {
        Self {
            rating: skill.shown(),
            mu_milli: skill.mu_milli,
            sigma_milli: skill.sigma_milli,
            games,
        }
    }

    /// The belief it is drawn from.
    pub fn skill(&self) -> Skill {
        Skill {
            mu_milli: self.mu_milli,
            sigma_milli: self.sigma_milli,
        }
    }
}

/// One seat's rating before and after a rated game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    /// The seat.
    pub seat: Seat,
    /// The app's id of its player; none for a bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The bot's level, for a bot (whose rating is fixed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<BotLevel>,
    /// Its place: 1 for the winners, tied seats sharing one; forfeited seats last.
    pub place: usize,
    /// Its rating before the game.
    pub before: RatingPoint,
    /// Its rating after it.
    pub after: RatingPoint,
}

/// A player's standing in one ruleset of one app, as the store keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The belief about its skill.
    pub skill: Skill,
    /// Rated games played.
    pub games: u32,
    /// Rated games won (place 1, a tie included).
    pub wins: u32,
}

impl Default for Standing {
    fn default() -> Self {
        Self {
            skill: START,
            games: 0,
            wins: 0,
        }
    }
}

/// Each seat's place: 1 plus the seats that finished strictly ahead of it, where every seat
/// not in `forfeits` finishes ahead of every seat in it, and the rest keep their outcome's order
/// ("a resignation or timeout ranks that seat last").
pub fn places(outcome: &Outcome, forfeits: &[Seat]) -> Vec<usize> {
    let ranks: Vec<(usize, bool)> = outcome
        .scores
        .iter()
        .map(|score| (score.rank, forfeits.contains(&score.seat)))
        .collect();
    ranks
        .iter()
        .map(|&(rank, forfeited)| {
            let ahead = ranks
                .iter()
                .filter(|&&(other, other_forfeited)| match (forfeited, other_forfeited) {
                    (false, false) | (true, true) => other < rank && !forfeited,
                    (true, false) => true,
                    (false, true) => false,
                })
                .count();
            1 + ahead
        })
        .collect()
}

/// Every seat's skill after a game in which seat `i` (of skill `before[i]`) took place
/// `places[i]`; a seat in `anchored` keeps its skill. The order of the seats does not change
/// anyone's result.
pub fn update(before: &[Skill], places: &[usize], anchored: &[bool]) -> Vec<Skill> {
    let teams: Vec<[WengLinRating; 1]> = before.iter().map(|skill| [skill.model()]).collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(places)
        .map(|(team, place)| (&team[..], MultiTeamOutcome::new(*place)))
        .collect();
    let config = WengLinConfig {
        beta: BETA / SCALE,
        ..WengLinConfig::new()
    };
    let after = weng_lin_multi_team(&ranked, &config);
    before
        .iter()
        .zip(after)
        .zip(anchored)
        .map(|((skill, team), anchor)| match team.first() {
            Some(rating) if !anchor => Skill::from_model(*rating),
            _ => *skill,
        })
        .collect()
}

/// Each seat's change in a rated game whose players stood at `standings` (in the order of
/// [`Rated::players`]), in `ruleset`.
pub fn changes(
    rated: &Rated,
    ruleset: &str,
    outcome: &Outcome,
    standings: &[Standing],
) -> Result<Vec<RatingChange>, Refusal> {
    let places = places(outcome, &rated.forfeits);
    if places.len() != rated.seats.len() {
        return Err(Refusal::internal());
    }
    let mut players = standings.iter();
    let mut before = Vec::with_capacity(rated.seats.len());
    for seat in &rated.seats {
        before.push(match seat {
            RatedSeat::Player { .. } => *players.next().ok_or_else(Refusal::internal)?,
            RatedSeat::Bot { level } => Standing {
                skill: bot_skill(ruleset, *level),
                ..Standing::default()
            },
        });
    }
    let anchored: Vec<bool> = rated
        .seats
        .iter()
        .map(|seat| matches!(seat, RatedSeat::Bot { .. }))
        .collect();
    let skills: Vec<Skill> = before.iter().map(|standing| standing.skill).collect();
    let after = update(&skills, &places, &anchored);
    Ok(rated
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let (player, bot, games) = match seat {
                RatedSeat::Player { player, .. } => (Some(player.clone()), None, before[i].games),
                RatedSeat::Bot { level } => (None, Some(*level), 0),
            };
            let played = if bot.is_some() {
                games
            } else {
                games.saturating_add(1)
            };
            RatingChange {
                seat: Seat::new(i),
                player,
                bot,
                place: places[i],
                before: RatingPoint::of(before[i].skill, games),
                after: RatingPoint::of(after[i], played),
            }
        })
        .collect())
}

/// The standing a player reaches with `change`, from `before`.
pub fn standing_after(before: Standing, change: &RatingChange) -> Standing {
    Standing {
        skill: change.after.skill(),
        games: change.after.games,
        wins: before.wins + u32::from(change.place == 1),
    }
}

/// `ratings_changed`, the only value of [`RatingsChanged::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RatingsChangedType {
    /// The game was rated.
    RatingsChanged,
}

/// The finished game was rated: each seat's rating before and after. Public; it follows
/// `game_over` in a rated game's log, once the players' ratings are written (a rating is
/// due work apart from the game: several games may rate one player at once).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct RatingsChanged {
    /// `ratings_changed`.
    #[serde(rename = "type")]
    pub kind: RatingsChangedType,
    /// Each seat's change, in seat order.
    pub ratings: Vec<RatingChange>,
}

/// Settle a finished rated game's ratings as the ratings' store wrote them.
#[derive(Clone, Debug)]
pub struct Settle {
    /// Each seat's change.
    pub changes: Vec<RatingChange>,
}

impl Change for Settle {
    /// Keeps the changes in the game and announces them; nothing when the game is rated
    /// already (a second worker, or a retry), `409 game_not_finished` before its end.
    fn apply(&self, table: &Table, now: u64) -> Result<Option<Transition>, Refused> {
        let Some(rated) = &table.rated else {
            return Ok(None);
        };
        if rated.changes.is_some() || table.aborted {
            return Ok(None);
        }
        if !table.is_over() {
            return Err(Refusal::new(Code::GameNotFinished, "a running game is not rated").into());
        }
        let event = RatingsChanged {
            kind: RatingsChangedType::RatingsChanged,
            ratings: self.changes.clone(),
        };
        let body = serde_json::value::to_raw_value(&event).map_err(|_| Refusal::internal())?;
        let events = vec![StoredEvent {
            audience: roadie_engine::Audience::Everyone,
            body,
        }];
        let mut next = table.succeeded_by(table.game.clone(), events.len() as u64, table.clock.clone(), now);
        next.notices.clear();
        if let Some(rated) = &mut next.rated {
            rated.changes = Some(self.changes.clone());
        }
        Ok(Some(Transition {
            next,
            events,
            actions: Vec::new(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use roadie_engine::SeatScore;

    use super::*;

    fn outcome(ranks: &[usize]) -> Outcome {
        Outcome {
            scores: ranks
                .iter()
                .enumerate()
                .map(|(i, rank)| SeatScore {
                    seat: Seat::new(i),
                    total: 0,
                    lines: Vec::new(),
                    tiebreaks: Vec::new(),
                    rank: *rank,
                })
                .collect(),
            winners: Vec::new(),
        }
    }

    fn skill(mu: f64, sigma: f64) -> Skill {
        Skill::from_model(WengLinRating {
            rating: mu,
            uncertainty: sigma,
        })
    }

    fn close(a: Skill, mu: f64, sigma: f64) {
        let model = a.model();
        assert!(
            (model.rating - mu).abs() < 1e-5,
            "mu {} against {mu}",
            model.rating
        );
        assert!(
            (model.uncertainty - sigma).abs() < 1e-5,
            "sigma {} against {sigma}",
            model.uncertainty
        );
    }

    /// The crate's published two-player example (`weng_lin`, two new players, the first wins),
    /// at this scale.
    #[test]
    fn a_win_between_new_players_moves_them_as_the_published_example() {
        let after = update(&[START, START], &[1, 2], &[false, false]);
        close(after[0], 27.635_231_383_473_65, 8.065_506_316_323_548);
        close(after[1], 22.364_768_616_526_35, 8.065_506_316_323_548);
        let drawn = update(&[skill(42.0, 1.3), START], &[1, 1], &[false, false]);
        close(drawn[0], 41.944_283_200_044_92, 1.299_823_053_277_078_3);
        close(drawn[1], 27.289_480_603_019_403, 8.029_022_445_649_298);
    }

    /// The crate's published free-for-all example (`expected_score_multi_team` of four new
    /// players: a quarter each) read as places: a four-seat game between equals moves the
    /// winner up and the last down by the same amount, the middle by less.
    #[test]
    fn a_four_seat_game_between_equals_is_symmetric() {
        let after = update(&[START; 4], &[1, 2, 3, 4], &[false; 4]);
        let gains: Vec<i64> = after.iter().map(|s| s.mu_milli - START.mu_milli).collect();
        assert!(gains[0] > gains[1] && gains[1] > 0 && gains[2] < 0 && gains[3] < gains[2]);
        assert!((gains[0] + gains[3]).abs() <= 1, "{gains:?}");
        assert!((gains[1] + gains[2]).abs() <= 1, "{gains:?}");
        assert!(after.iter().all(|s| s.sigma_milli < START.sigma_milli));
    }

    #[test]
    fn the_order_of_the_seats_does_not_change_anyones_update() {
        let mut rng = rand::rng();
        for _ in 0..500 {
            let seats = rand::random_range(2..=5);
            let before: Vec<Skill> = (0..seats)
                .map(|_| skill(rand::random_range(10.0..40.0), rand::random_range(0.5..8.4)))
                .collect();
            let places: Vec<usize> = (0..seats).map(|_| rand::random_range(1..=seats)).collect();
            let anchored: Vec<bool> = (0..seats).map(|_| rand::random_range(0..4) == 0).collect();
            let after = update(&before, &places, &anchored);
            let mut order: Vec<usize> = (0..seats).collect();
            order.shuffle(&mut rng);
            let shuffled = update(
                &order.iter().map(|&i| before[i]).collect::<Vec<_>>(),
                &order.iter().map(|&i| places[i]).collect::<Vec<_>>(),
                &order.iter().map(|&i| anchored[i]).collect::<Vec<_>>(),
            );
            for (k, &i) in order.iter().enumerate() {
                assert!((shuffled[k].mu_milli - after[i].mu_milli).abs() <= 1, "seat {i}");
                assert!(
                    (shuffled[k].sigma_milli - after[i].sigma_milli).abs() <= 1,
                    "seat {i}"
                );
            }
        }
    }

    #[test]
    fn an_anchor_keeps_its_rating_and_moves_the_others() {
        let bot = bot_skill("shrewd-producer", BotLevel::Expert);
        let after = update(&[START, bot], &[2, 1], &[false, true]);
        assert_eq!(after[1], bot);
        assert!(after[0].mu_milli < START.mu_milli);
    }

    #[test]
    fn forfeited_seats_rank_last_whatever_their_score() {
        assert_eq!(places(&outcome(&[1, 2, 3]), &[]), vec![1, 2, 3]);
        assert_eq!(places(&outcome(&[1, 2, 3]), &[Seat::new(0)]), vec![3, 1, 2]);
        assert_eq!(places(&outcome(&[1, 1, 3, 4]), &[]), vec![1, 1, 3, 4]);
        assert_eq!(
            places(&outcome(&[1, 2, 2, 4]), &[Seat::new(3), Seat::new(0)]),
            vec![3, 1, 1, 3]
        );
    }

    #[test]
    fn a_new_player_shows_zero_and_a_change_counts_the_game() {
        assert_eq!(START.shown(), 0);
        let rated = Rated {
            seats: vec![
                RatedSeat::Player {
                    player: "ann".into(),
                    name: "Ann".into(),
                },
                RatedSeat::Bot {
                    level: BotLevel::Greedy,
                },
                RatedSeat::Player {
                    player: "bob".into(),
                    name: "Bob".into(),
                },
            ],
            forfeits: vec![Seat::new(0)],
            changes: None,
        };
        let standings = [Standing::default(), Standing::default()];
        let changes = changes(&rated, "rock-the-world", &outcome(&[1, 2, 3]), &standings).expect("rated");
        assert_eq!(changes.iter().map(|c| c.place).collect::<Vec<_>>(), vec![3, 1, 2]);
        assert_eq!(changes[0].after.games, 1);
        assert_eq!(changes[1].after, changes[1].before);
        assert!(changes[0].after.rating < changes[2].after.rating);
        let ann = standing_after(standings[0], &changes[0]);
        assert_eq!((ann.games, ann.wins), (1, 0));
    }
}
