//! Matchmaking: tickets that wait in a queue of the store until enough tickets want the same
//! game, then are seated in it together (or with bots, once a ticket has waited as long as it
//! allowed). Any process completes any queue: a look at a queue takes a full batch as a claim
//! with a lease, the game is created under the claim's id (so a second process completing the
//! same claim finds it created), and the tickets are then told their seats. A process that
//! dies holding a claim loses nothing: its lease runs out, and the queue's next look, by any
//! process, hands the claim on.

use std::sync::Arc;
use std::time::Duration;

use roadie_engine::{AnyGame, BotLevel};

use crate::metrics::TicketResult;
use crate::store::HeldShards;
use crate::store::ratings::Board;
use crate::table::rating::Rated;
use crate::table::seats::{SeatSpec, display_name};
use crate::table::tickets::{
    Claim, MatchWindow, QueueSpec, Seated, Ticket, TicketId, TicketState, claim_id, ticket_token, token_hash,
};
use crate::table::{Code, GameId, Refusal};

use super::create::{find_ruleset, setup_refused};
use super::{Games, MAX_WAIT, NewGame, now_ms};

/// How many due queues one sweep looks at most.
const SWEEP_QUEUES: usize = 100;

/// How many claims one look at a queue completes at most before it moves on.
const CLAIMS_PER_LOOK: usize = 64;

/// How soon a long poll of a ticket reads it again when it cannot wait on the ticket's updates.
const POLL_EVERY: Duration = Duration::from_millis(100);

/// The shortest wait worth subscribing for: a long poll with less left answers at once.
const MIN_WAIT: Duration = Duration::from_millis(5);

/// How tickets live.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    /// How long a ticket waits before it expires; a ticket that ended is kept this long too.
    pub ticket_ttl: Duration,
    /// How long a process holds a claim before another may complete it.
    pub lease: Duration,
    /// How near in rating the tickets of an app's players must be to sit together; `None`
    /// seats them whatever their ratings.
    pub window: Option<MatchWindow>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        Self {
            ticket_ttl: Duration::from_secs(300),
            lease: Duration::from_secs(10),
            window: Some(MatchWindow::default()),
        }
    }
}

/// A new ticket, as the edge parsed it.
#[derive(Clone, Debug)]
pub struct NewTicket {
    /// The ruleset's slug.
    pub ruleset: String,
    /// How many seats the game has.
    pub seats: usize,
    /// The ruleset's options.
    pub options: Option<serde_json::Value>,
    /// The display name the seat gets.
    pub name: String,
    /// After this long waiting, the game may start with bots in the seats nobody took.
    pub bots_after_secs: Option<u64>,
    /// The level of those bots.
    pub bot_level: Option<BotLevel>,
    /// The app whose player opens it, where apps are configured.
    pub app: Option<Arc<str>>,
    /// The app's id of the player, when a player token opens it.
    pub player: Option<String>,
}

/// A ticket just opened: its bearer token is answered only here.
#[derive(Clone, Debug)]
pub struct OpenedTicket {
    /// The ticket's id.
    pub id: String,
    /// Its bearer token.
    pub token: String,
    /// When it expires unmatched (Unix ms).
    pub expires_ms: u64,
}

/// A ticket as its holder sees it.
#[derive(Clone, Debug)]
pub struct TicketView {
    /// The ticket's id.
    pub id: String,
    /// Where it is.
    pub state: TicketState,
    /// When it expires unmatched (Unix ms).
    pub expires_ms: u64,
    /// Its game, seat and the seat's token, once matched.
    pub seat: Option<Seated>,
    /// While it waits in its queue, its place there (1: the first).
    pub position: Option<u64>,
}

impl Games {
    /// Opens a ticket: checks what it asks for as a creation would, files it in its queue and
    /// looks at the queue at once (a full batch is seated before this answers).
    pub async fn open_ticket(&self, request: NewTicket) -> Result<OpenedTicket, Refusal> {
        let ruleset = find_ruleset(&request.ruleset)?;
        let name = display_name(&request.name)?;
        let ttl_secs = self.matching.ticket_ttl.as_secs();
        if let Some(after) = request.bots_after_secs
            && after > ttl_secs
        {
            return Err(Refusal::new(
                Code::InvalidTicket,
                format!("bots_after_secs is at most the ticket's lifetime, {ttl_secs}; it was {after}"),
            ));
        }
        // `"options": null` asks for the defaults, as leaving them out does: one queue for both.
        let options = request.options.filter(|o| !o.is_null());
        AnyGame::setup(ruleset.slug, options.as_ref(), request.seats, 0).map_err(setup_refused)?;
        let spec = QueueSpec {
            ruleset: ruleset.slug.to_owned(),
            seats: request.seats,
            options,
            app: request.app.as_ref().map(|a| a.to_string()),
        };
        let rating = match (&request.app, &request.player, &self.matching.window) {
            (Some(app), Some(player), Some(_)) => self
                .counted(
                    self.store
                        .standings(
                            Board {
                                app,
                                ruleset: ruleset.slug,
                            },
                            &[player],
                        )
                        .await,
                )?
                .first()
                .map(|standing| standing.skill.shown()),
            _ => None,
        };
        let queue = spec.key();
        let id = TicketId::random(&queue);
        let token = ticket_token();
        let now = now_ms();
        let ttl_ms = u64::try_from(self.matching.ticket_ttl.as_millis()).unwrap_or(u64::MAX);
        let ticket = Ticket {
            state: TicketState::Waiting,
            name,
            player: request.player,
            token_hash: token_hash(&token),
            expires_ms: now.saturating_add(ttl_ms),
            bots_ms: request
                .bots_after_secs
                .map_or(0, |secs| now.saturating_add(secs.saturating_mul(1000))),
            bot_level: request.bot_level.unwrap_or(BotLevel::Random),
            rating,
            opened_ms: now,
            game: None,
            seat: None,
            seat_token: None,
        };
        self.counted(
            self.store
                .enqueue(&id, &spec, &ticket, self.matching.ticket_ttl * 2, now)
                .await,
        )?;
        self.metrics.ticket(TicketResult::Opened);
        tracing::debug!(ticket = %id, ruleset = ruleset.slug, seats = spec.seats, "ticket opened");
        if let Err(e) = self.match_queue(&queue).await {
            tracing::warn!(queue = %queue, error = %e, "a new ticket's queue could not be looked at; the sweep will");
        }
        Ok(OpenedTicket {
            id: id.to_string(),
            token,
            expires_ms: ticket.expires_ms,
        })
    }

    async fn held_ticket(&self, id: &TicketId, token: &str) -> Result<(Ticket, Option<u64>), Refusal> {
        let (ticket, position) = self
            .counted(self.store.ticket(id).await)?
            .ok_or_else(|| Refusal::ticket_not_found(id.as_str()))?;
        ticket.admit(token)?;
        Ok((ticket, position))
    }

    /// The ticket as its holder (proven by `token`) sees it; with `wait`, once it is no longer
    /// waiting or after `wait` (at most [`MAX_WAIT`]).
    pub async fn ticket(&self, id: &TicketId, token: &str, wait: Duration) -> Result<TicketView, Refusal> {
        let until = tokio::time::Instant::now() + wait.min(MAX_WAIT);
        loop {
            let (ticket, position) = self.held_ticket(id, token).await?;
            let now = now_ms();
            let state = ticket.shown_state(now);
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            if state != TicketState::Waiting || left < MIN_WAIT {
                if state == TicketState::Expired {
                    self.metrics.ticket(TicketResult::Expired);
                }
                let position = position.filter(|_| state == TicketState::Waiting);
                return Ok(view_of(id, &ticket, state, position));
            }
            // Woken by the write that seats the ticket; otherwise at its expiry or the wait's end.
            let expiry = Duration::from_millis(ticket.expires_ms.saturating_sub(now));
            let within = left.min(expiry).max(MIN_WAIT);
            if let Err(e) = self.store.wait_for_ticket(id, within).await {
                tracing::warn!(ticket = %id, error = %e, "could not wait on a ticket's updates; reading it again shortly");
                tokio::time::sleep(POLL_EVERY.min(within)).await;
            }
        }
    }

    /// Cancels a waiting ticket: `409 ticket_matched` once it is matched or being seated.
    /// Cancelling an ended ticket again changes nothing.
    pub async fn cancel_ticket(&self, id: &TicketId, token: &str) -> Result<(), Refusal> {
        self.held_ticket(id, token).await?;
        match self.counted(self.store.cancel_ticket(id).await)? {
            None => Err(Refusal::ticket_not_found(id.as_str())),
            Some(TicketState::Claimed | TicketState::Matched) => Err(Refusal::new(
                Code::TicketMatched,
                "the ticket was matched and can no longer be cancelled; GET it for its seat",
            )),
            Some(found) => {
                if found == TicketState::Waiting {
                    self.metrics.ticket(TicketResult::Cancelled);
                }
                tracing::debug!(ticket = %id, "ticket cancelled");
                Ok(())
            }
        }
    }

    /// Looks at `queue` until no batch can start, completing every claim it is handed; answers
    /// when the queue next needs a look.
    pub async fn match_queue(&self, queue: &str) -> Result<Option<u64>, Refusal> {
        let mut next = None;
        for _ in 0..CLAIMS_PER_LOOK {
            let (spec, look) = self.counted(
                self.store
                    .look(
                        queue,
                        &claim_id(),
                        now_ms(),
                        self.matching.lease,
                        self.matching.window.as_ref(),
                    )
                    .await,
            )?;
            next = look.next_ms;
            let (Some(spec), Some(claim)) = (spec, look.claim) else {
                break;
            };
            self.seat_claim(queue, &spec, &claim).await?;
        }
        Ok(next)
    }

    /// Creates a claim's game (or finds it created) with every seat named, then tells each of
    /// its tickets its seat.
    async fn seat_claim(&self, queue: &str, spec: &QueueSpec, claim: &Claim) -> Result<(), Refusal> {
        let game = GameId::parse(&claim.id).map_err(|_| {
            tracing::error!(claim = %claim.id, "a claim's id is not a game id");
            Refusal::internal()
        })?;
        let mut specs: Vec<SeatSpec> = claim
            .tickets
            .iter()
            .map(|t| match &t.player {
                Some(player) => SeatSpec::Member {
                    player: player.clone(),
                    name: Some(t.name.clone()),
                },
                None => SeatSpec::Player(t.name.clone()),
            })
            .collect();
        specs.extend(std::iter::repeat_n(SeatSpec::Bot(claim.level), claim.bots));
        // Matched between an app's players (each once), the game is rated; bots anchor it.
        let rated = spec.app.is_some() && Rated::of_seats(&specs).is_ok();
        let created = self
            .create(NewGame {
                ruleset: spec.ruleset.clone(),
                seats: spec.seats,
                specs: Some(specs),
                open: false,
                options: spec.options.clone(),
                seed: None,
                webhook: None,
                clock: None,
                announce_seats: true,
                id: Some(game),
                app: None,
                owner: spec.app.clone(),
                fork: None,
                rated,
            })
            .await?;
        let seated: Vec<Seated> = claim
            .tickets
            .iter()
            .zip(&created.seats)
            .map(|(ticket, seat)| Seated {
                ticket: ticket.id.clone(),
                game: created.id.clone(),
                seat: seat.seat,
                seat_token: seat.token.clone(),
            })
            .collect();
        let recorded = self.counted(
            self.store
                .seat_tickets(queue, &claim.id, &seated, self.matching.ticket_ttl)
                .await,
        )?;
        if recorded {
            self.metrics.tickets_matched(seated.len());
            self.time_waits(claim).await;
            tracing::info!(game = %created.id, tickets = seated.len(), bots = claim.bots, "tickets matched");
        }
        Ok(())
    }

    /// Records how long each ticket of a seated claim waited: from its opening (its expiry less
    /// the tickets' lifetime) to now. One read per ticket, only when tickets are matched; a ticket
    /// that cannot be read is left out.
    async fn time_waits(&self, claim: &Claim) {
        let ttl_ms = u64::try_from(self.matching.ticket_ttl.as_millis()).unwrap_or(u64::MAX);
        let reads = claim
            .tickets
            .iter()
            .filter_map(|t| TicketId::parse(&t.id).ok())
            .map(|id| async move { self.store.ticket(&id).await });
        let now = now_ms();
        for read in futures_util::future::join_all(reads).await {
            if let Ok(Some((ticket, _))) = read {
                let opened = ticket.expires_ms.saturating_sub(ttl_ms);
                self.metrics
                    .ticket_waited(Duration::from_millis(now.saturating_sub(opened)));
            }
        }
    }

    /// One sweep of the index of queues: in every shard this process holds (or can lease now),
    /// every queue due now (at most [`SWEEP_QUEUES`] a shard) is looked at and filed again. Queues
    /// an earlier version filed in its single index are moved into their shards first.
    pub async fn sweep_tickets(&self, held: &mut HeldShards) -> Result<(), Refusal> {
        let moved = self.counted(self.store.move_unsharded_queues(SWEEP_QUEUES).await)?;
        if moved > 0 {
            tracing::info!(
                queues = moved,
                "queues of the unsharded index moved into their shards"
            );
        }
        for shard in held.rotation() {
            let store = &self.store;
            let mine = held
                .hold(shard, async |holder, lease| {
                    store.lease_queue_shard(shard, holder, lease).await
                })
                .await;
            if !self.counted(mine)? {
                continue;
            }
            let due = self.counted(self.store.due_queues(shard, now_ms(), SWEEP_QUEUES).await)?;
            for (queue, seen) in due {
                match self.match_queue(&queue).await {
                    Ok(next) => self.counted(self.store.reschedule_queue(&queue, seen, next).await)?,
                    Err(e) => {
                        tracing::warn!(queue = %queue, error = %e, "could not look at a matchmaking queue")
                    }
                }
            }
        }
        Ok(())
    }
}

fn view_of(id: &TicketId, ticket: &Ticket, state: TicketState, position: Option<u64>) -> TicketView {
    let seat = match (&ticket.game, ticket.seat, &ticket.seat_token) {
        (Some(game), Some(seat), Some(token)) if state == TicketState::Matched => Some(Seated {
            ticket: id.to_string(),
            game: game.clone(),
            seat,
            seat_token: token.clone(),
        }),
        _ => None,
    };
    TicketView {
        id: id.to_string(),
        state,
        expires_ms: ticket.expires_ms,
        seat,
        position,
    }
}

/// Sweeps the index of queues every `interval`, for as long as the process runs, under shard
/// leases of twice that.
pub fn spawn_ticket_sweeper(games: Arc<Games>, interval: Duration) {
    actix_web::rt::spawn(async move {
        let mut held = HeldShards::new(interval * 2);
        let mut tick = tokio::time::interval(interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = games.sweep_tickets(&mut held).await {
                tracing::warn!(error = %e, "the matchmaking sweep could not read the store");
            }
        }
    });
}
