//! Ratings: written as due work when a rated game ends, and read as leaderboards and profiles.
//!
//! The write that ends a rated game files it as [`Work::Rate`]. Any process's rater claims it
//! with a lease, reads its players' standings, computes the change ([`rating::changes`]) and
//! writes every standing in one script that refuses a game rated before (answering the changes
//! it wrote then) and a player whose standing moved meanwhile (the change is computed again).
//! The changes then go into the game through the one write path ([`Settle`]: a public
//! `ratings_changed` event), which files the game for its archive. A process that dies anywhere
//! in between leaves the claim to lapse; the next rater finds the game rated in the store and
//! settles it with the same changes, so each game is counted once.

use std::sync::Arc;
use std::time::Duration;

use roadie_engine::{RULESETS, Ruleset};

use crate::store::ratings::{Board, BoardPage, Rated as Written, RatingWrite};
use crate::store::{DueClaim, DueEnd, HeldShards, Work};
use crate::table::rating::{self, RatingChange, Settle, Standing};
use crate::table::{Code, GameId, Refusal, Table};
use crate::wire::ratings::{Leaderboard, LeaderboardRow, PlayerProfile, RecentGame, RulesetRating};

use super::write::Start;
use super::{Games, now_ms};

/// Games claimed by one sweep of one process, at most.
const CLAIMS_PER_SWEEP: usize = 32;

/// How often a game's ratings are computed again when other games keep moving its players.
const RATE_TRIES: usize = 16;

/// Every how many sweeps the backlog is read.
const BACKLOG_EVERY: u64 = 8;

/// Within how long a write that filed a game has landed or failed.
const WRITE_GRACE: Duration = Duration::from_secs(5);

/// How the ratings are written.
#[derive(Clone, Copy, Debug)]
pub struct RatingConfig {
    /// How often each process looks for finished games to rate.
    pub sweep: Duration,
    /// How long a claim on a game to rate holds.
    pub lease: Duration,
}

impl Default for RatingConfig {
    fn default() -> Self {
        Self {
            sweep: Duration::from_millis(250),
            lease: Duration::from_secs(10),
        }
    }
}

/// A leaderboard's page as a client asks for it.
#[derive(Clone, Debug)]
pub struct BoardRequest {
    /// Where it starts: a place in the leaderboard, and how many rows were shown before it.
    pub cursor: BoardCursor,
    /// At most this many rows.
    pub limit: usize,
    /// Only players with this many rated games or more.
    pub min_games: u32,
}

/// Where a leaderboard's page starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCursor {
    /// The place in the leaderboard, every player counted.
    pub offset: u64,
    /// How many rows the pages before showed.
    pub shown: u64,
}

impl BoardCursor {
    /// The cursor as sent back: `<offset>.<shown>`.
    pub fn encode(self) -> String {
        format!("{}.{}", self.offset, self.shown)
    }

    /// A cursor as a client sent it back: `400 malformed_query` for anything this server did
    /// not write.
    pub fn decode(text: &str) -> Result<Self, Refusal> {
        let bad = || Refusal::new(Code::MalformedQuery, "cursor is not one this server gave");
        let (offset, shown) = text.split_once('.').ok_or_else(bad)?;
        let cursor = Self {
            offset: offset.parse().map_err(|_| bad())?,
            shown: shown.parse().map_err(|_| bad())?,
        };
        if cursor.shown > cursor.offset {
            return Err(bad());
        }
        Ok(cursor)
    }
}

/// What rating a claimed game did.
enum Outcome {
    /// Its ratings are in it.
    Settled,
    /// Nothing to do: it is not a finished rated game waiting for its ratings (or it is gone).
    Nothing,
}

impl Games {
    /// Rates finished game `id`: see the module's documentation.
    async fn rate_game(&self, id: &str) -> Result<Outcome, Refusal> {
        let game = GameId::parse(id).map_err(|_| Refusal::internal())?;
        let (Some(table), _) = self.counted(self.store.load(id, None).await)? else {
            return Ok(Outcome::Nothing);
        };
        if !table.awaits_rating() {
            return Ok(Outcome::Nothing);
        }
        let changes = self.write_ratings(&table).await?;
        self.write(&game, &Settle { changes }, Start::Fresh, None).await?;
        Ok(Outcome::Settled)
    }

    /// Writes the standings finished rated game `table` leaves its players at, once: the
    /// changes, as written now or before.
    async fn write_ratings(&self, table: &Table) -> Result<Vec<RatingChange>, Refusal> {
        let (Some(rated), Some(outcome), Some(app)) = (&table.rated, table.game.outcome(), &table.app) else {
            return Err(Refusal::internal());
        };
        let ruleset = table.game.ruleset().slug;
        let board = Board { app, ruleset };
        let players: Vec<(roadie_engine::Seat, &str, &str)> = rated.players().collect();
        let ids: Vec<&str> = players.iter().map(|(_, player, _)| *player).collect();
        for _ in 0..RATE_TRIES {
            let standings: Vec<Standing> = self.counted(self.store.standings(board, &ids).await)?;
            let changes = rating::changes(rated, ruleset, &outcome, &standings)?;
            let text = serde_json::to_string(&changes).map_err(|_| Refusal::internal())?;
            let now = now_ms();
            let mut writes = Vec::with_capacity(players.len());
            for ((seat, player, name), before) in players.iter().zip(&standings) {
                let change = changes
                    .iter()
                    .find(|c| c.seat == *seat)
                    .ok_or_else(Refusal::internal)?;
                let recent = RecentGame {
                    game: table.id.clone(),
                    ruleset: ruleset.to_owned(),
                    seat: *seat,
                    place: change.place,
                    seats: rated.seats.len(),
                    rating_before: change.before.rating,
                    rating_after: change.after.rating,
                    rated_ms: now,
                    record: String::new(),
                    replay: String::new(),
                };
                writes.push(RatingWrite {
                    player: (*player).to_owned(),
                    name: (*name).to_owned(),
                    games_before: before.games,
                    after: rating::standing_after(*before, change),
                    recent: serde_json::to_string(&recent).map_err(|_| Refusal::internal())?,
                });
            }
            match self.counted(self.store.rate(board, &table.id, &text, &writes).await)? {
                Written::Written => {
                    self.metrics.game_rated();
                    tracing::info!(game = %table.id, players = writes.len(), "rated");
                    return Ok(changes);
                }
                Written::Before(text) => {
                    return serde_json::from_str(&text).map_err(|e| {
                        tracing::error!(game = %table.id, error = %e, "a game's stored ratings do not read");
                        Refusal::internal()
                    });
                }
                Written::Moved => continue,
            }
        }
        tracing::warn!(game = %table.id, "other games kept moving the players' ratings; rating again later");
        Err(Refusal::new(
            Code::Contention,
            "other games kept moving the players' ratings",
        ))
    }

    /// Rates the games of `claims`, ending each claim.
    async fn rate_claims(&self, claims: Vec<DueClaim>) {
        for claim in claims {
            let end = match self.rate_game(&claim.id).await {
                Ok(Outcome::Settled) => DueEnd::Done,
                Ok(Outcome::Nothing) => DueEnd::Idle { grace: WRITE_GRACE },
                Err(refusal) => {
                    tracing::warn!(game = %claim.id, code = refusal.code.as_str(), detail = %refusal.detail, "a finished game could not be rated; it is tried again after its lease");
                    continue;
                }
            };
            if let Err(e) = self.store.release_work(&claim, end).await {
                tracing::warn!(game = %claim.id, error = %e, "a rated game's claim could not be ended; it lapses");
            }
        }
    }

    /// A page of `ruleset`'s leaderboard in `app`.
    pub async fn leaderboard(
        &self,
        app: &str,
        ruleset: &Ruleset,
        request: BoardRequest,
    ) -> Result<Leaderboard, Refusal> {
        let board = Board {
            app,
            ruleset: ruleset.slug,
        };
        let BoardPage { rows, next } = self.counted(
            self.store
                .leaderboard(board, request.cursor.offset, request.limit, request.min_games)
                .await,
        )?;
        let shown = request.cursor.shown;
        let listed = rows.len() as u64;
        Ok(Leaderboard {
            ruleset: ruleset.slug.to_owned(),
            rows: rows
                .into_iter()
                .zip(shown + 1..)
                .map(|(row, rank)| LeaderboardRow {
                    rank,
                    player: row.player,
                    name: row.name,
                    rating: row.standing.skill.shown(),
                    games: row.standing.games,
                    wins: row.standing.wins,
                })
                .collect(),
            next: next.map(|offset| {
                BoardCursor {
                    offset,
                    shown: shown + listed,
                }
                .encode()
            }),
        })
    }

    /// Player `player` of `app`: its ratings in every ruleset and its last rated games;
    /// `404 player_not_found` when it has played no rated game (with `known`, an empty
    /// profile instead: a player's own).
    pub async fn player_profile(
        &self,
        app: &str,
        player: &str,
        known: bool,
    ) -> Result<PlayerProfile, Refusal> {
        let mut profile = PlayerProfile {
            player: player.to_owned(),
            name: String::new(),
            games: 0,
            wins: 0,
            ratings: Vec::new(),
            recent: Vec::new(),
        };
        let mut latest = 0;
        for ruleset in RULESETS {
            let board = Board {
                app,
                ruleset: ruleset.slug,
            };
            let Some(found) = self.counted(self.store.player_standing(board, player).await)? else {
                continue;
            };
            profile.games += found.standing.games;
            profile.wins += found.standing.wins;
            profile.ratings.push(RulesetRating {
                ruleset: ruleset.slug.to_owned(),
                rating: found.standing.skill.shown(),
                mu_milli: found.standing.skill.mu_milli,
                sigma_milli: found.standing.skill.sigma_milli,
                games: found.standing.games,
                wins: found.standing.wins,
                place: found.place,
            });
            for text in &found.recent {
                let Ok(mut game) = serde_json::from_str::<RecentGame>(text) else {
                    tracing::error!(player, "a player's recent game does not read");
                    continue;
                };
                if game.rated_ms >= latest {
                    latest = game.rated_ms;
                    profile.name.clone_from(&found.name);
                }
                game.record = format!("/v1/games/{}/record", game.game);
                game.replay = format!("/play/replay/{}", game.game);
                profile.recent.push(game);
            }
        }
        if profile.ratings.is_empty() && !known {
            return Err(Refusal::new(
                Code::PlayerNotFound,
                format!("the app has no player {player:?} with a rated game"),
            ));
        }
        profile
            .recent
            .sort_by_key(|game| std::cmp::Reverse(game.rated_ms));
        profile.recent.truncate(crate::store::ratings::RECENT_GAMES);
        Ok(profile)
    }
}

/// Starts this process's rater: it claims the finished rated games due every `sweep` and
/// rates them.
pub fn spawn_rater(games: Arc<Games>, config: RatingConfig) {
    actix_web::rt::spawn(async move {
        let mut held = HeldShards::new(config.sweep * 4);
        let mut tick = tokio::time::interval(config.sweep);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for sweep in 0u64.. {
            tick.tick().await;
            let claims = games
                .claim_due(Work::Rate, &mut held, config.lease, CLAIMS_PER_SWEEP)
                .await;
            if !claims.is_empty() {
                games.rate_claims(claims).await;
            }
            // The backlog is read from every shard: once in a while.
            if sweep % BACKLOG_EVERY == 0
                && let Ok(backlog) = games.store.work_backlog(Work::Rate).await
            {
                games.metrics.rating_backlog(backlog);
            }
        }
    });
}
