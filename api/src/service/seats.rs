//! Seat changes: join, reissue, resign and replace, each a [`SeatChange`] written through the
//! one write path, answered with the seat's new token or description.

use roadie_engine::{BotLevel, Seat};

use crate::table::seats::{SeatChange, display_name};
use crate::table::{Code, GameId, Holder, Refusal, Table};
use crate::wire::seats::{SeatChanged, SeatGrant};

use super::Games;
use super::write::{Start, Written};

pub use crate::table::seats::Wanted;

impl Games {
    /// Writes `change`: the table written and the seat it changed (the one whose grant it drew).
    async fn change_seat(
        &self,
        id: &GameId,
        change: SeatChange,
    ) -> Result<(std::sync::Arc<Table>, Seat), Refusal> {
        match self.write(id, &change, Start::Fresh, None).await? {
            Written::Applied { prior, next, .. } => {
                let seat = next.seats.regranted(&prior.seats).ok_or_else(Refusal::internal)?;
                Ok((next, seat))
            }
            Written::Unchanged(_) | Written::Replayed { .. } => Err(Refusal::internal()),
        }
    }

    /// Seats a person named `name` in the seat `wanted` (an app's player by its id, when the
    /// caller holds a player token): its token.
    pub async fn join(
        &self,
        id: &GameId,
        wanted: Wanted,
        name: &str,
        holder: Holder,
    ) -> Result<SeatGrant, Refusal> {
        let name = display_name(name)?;
        let player = match &holder {
            Holder::Player(who) => Some(who.player.clone()),
            _ => None,
        };
        let (next, seat) = self
            .change_seat(id, SeatChange::Join { wanted, name, holder })
            .await?;
        if let Some(player) = player {
            self.index_seated(&next, &player).await;
        }
        tracing::info!(game = %id, seat = seat.index(), "seat joined");
        self.grant(&next, seat)
    }

    /// A new token for the player of `seat`; every earlier one is refused from now on.
    pub async fn reissue(&self, id: &GameId, seat: Seat) -> Result<SeatGrant, Refusal> {
        let (next, seat) = self.change_seat(id, SeatChange::Reissue { seat }).await?;
        tracing::info!(game = %id, seat = seat.index(), "seat token reissued");
        self.grant(&next, seat)
    }

    /// `404 game_not_found` unless `app` owns game `id`, then `403 host_required` unless its
    /// credential `manages` (an API key, not a player's token). Without an app the caller holds
    /// the game's host token, checked at the edge. The owner of a game never changes, so the
    /// check holds for the change that follows it.
    pub async fn check_host(&self, id: &GameId, app: Option<(&str, bool)>) -> Result<(), Refusal> {
        let Some((app, manages)) = app else {
            return Ok(());
        };
        self.read(id).await?.owned_by(app)?;
        if manages {
            Ok(())
        } else {
            Err(Refusal::new(
                Code::HostRequired,
                "only the host token or the game's app key may do this",
            ))
        }
    }

    /// The host gives `seat` to a bot of `level`.
    pub async fn give_to_bot(
        &self,
        id: &GameId,
        seat: Seat,
        level: BotLevel,
    ) -> Result<SeatChanged, Refusal> {
        self.to_bot(id, SeatChange::Replace { seat, level }).await
    }

    /// The player of `seat`, holding `holder`, resigns; a bot of `level` plays on.
    pub async fn resign(
        &self,
        id: &GameId,
        seat: Seat,
        holder: Holder,
        level: BotLevel,
    ) -> Result<SeatChanged, Refusal> {
        self.to_bot(id, SeatChange::Resign { seat, holder, level }).await
    }

    /// The game's app hands `seat` to its player `player`; every earlier token of the seat is
    /// refused from now on.
    pub async fn hand(
        &self,
        id: &GameId,
        seat: Seat,
        player: String,
        name: Option<String>,
    ) -> Result<SeatChanged, Refusal> {
        let name = name.as_deref().map(display_name).transpose()?;
        let changed = self
            .to_bot(
                id,
                SeatChange::Hand {
                    seat,
                    player: player.clone(),
                    name,
                },
            )
            .await?;
        if let Ok(game) = self.read(id).await {
            self.index_seated(&game, &player).await;
        }
        Ok(changed)
    }

    async fn to_bot(&self, id: &GameId, change: SeatChange) -> Result<SeatChanged, Refusal> {
        let resigned = matches!(change, SeatChange::Resign { .. });
        let (next, seat) = self.change_seat(id, change).await?;
        let level = next.seats.bot(seat).map(BotLevel::as_str).unwrap_or_default();
        tracing::info!(game = %id, seat = seat.index(), level, resigned, "seat changed hands");
        let seats = next.game.seat_count();
        Ok(SeatChanged {
            id: next.id.clone(),
            version: next.revision.number,
            revision: next.revision.to_string(),
            seat: next.seats.describe(seats).swap_remove(seat.index()),
        })
    }

    fn grant(&self, game: &Table, seat: Seat) -> Result<SeatGrant, Refusal> {
        Ok(SeatGrant {
            id: game.id.clone(),
            version: game.revision.number,
            revision: game.revision.to_string(),
            seat,
            token: self
                .keys
                .issue_seat(&game.id, seat, game.seats.entry(seat).credential())?,
        })
    }
}
