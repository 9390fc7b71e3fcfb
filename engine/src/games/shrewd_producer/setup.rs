//! Setting up a game: the Lv.1 songs, the artist deck, the starting lead and the first draft.

use super::actions::Options;
use super::components::{
    ARTISTS_PER_ROUND, ArtistId, BILL, DEAL_3P, DEAL_4P, LEFTOVER_3P, RAISE_BILLS, SCOUT_MONEY_REMOVED_3P,
    ScoutId, SongId,
};
use super::events::GameEvent;
use super::state::{Player, ShrewdProducer, Stage};
use crate::rng::GameRng;
use crate::{BySeat, Event, Seat, SetupError, Started};

/// Game setup, for 3 or 4 players (the contract checks the count).
pub(super) fn new_game(
    options: Options,
    seats: usize,
    seed: u64,
) -> Result<Started<ShrewdProducer>, SetupError> {
    if let Some(lead) = options.starting_lead
        && lead.index() >= seats
    {
        return Err(SetupError::Options(format!(
            "starting_lead {lead} is not a seat of a {seats}-player game"
        )));
    }
    let mut rng = GameRng::new(seed);
    let mut events = Vec::with_capacity(64);

    // G16: the starting lead.
    let lead = match options.starting_lead {
        Some(seat) => seat,
        None => {
            let seat = Seat::new(rng.below(seats));
            events.push(Event::sealed(GameEvent::LeadDrawn { seat }));
            seat
        }
    };
    events.push(Event::public(GameEvent::StartingLead { seat: lead }));

    // Scout Money: 24 cards, or 18 with the 3-player removal.
    let mut scout_removed = Vec::new();
    let mut scout_deck = Vec::with_capacity(24);
    for card in ScoutId::all() {
        if seats == 3 && SCOUT_MONEY_REMOVED_3P.contains(&card.id()) {
            scout_removed.push(card);
        } else {
            scout_deck.push(card);
        }
    }
    if !scout_removed.is_empty() {
        events.push(Event::public(GameEvent::ScoutMoneyRemoved {
            cards: scout_removed.clone(),
        }));
    }

    // Raise Money: 10 each (4 players) or 13 each plus 1 in the discard pile (3 players).
    let (each, supply) = if seats == 3 {
        (DEAL_3P, LEFTOVER_3P)
    } else {
        (DEAL_4P, RAISE_BILLS - DEAL_4P * 4)
    };
    events.push(Event::public(GameEvent::RaiseMoneyDealt {
        each: u32::from(each) * BILL,
        supply: u32::from(supply) * BILL,
    }));

    // Artists: "Shuffle all 24 Artist cards face down to create a draw pile".
    let mut artist_deck: Vec<ArtistId> = ArtistId::all().collect();
    rng.shuffle(&mut artist_deck);
    events.push(Event::sealed(GameEvent::ArtistsShuffled {
        order: artist_deck.iter().rev().copied().collect(),
    }));

    // Songs: "Shuffle the 4 Lv. 1 Song cards face down and deal one to each player" (G21).
    let mut level_one: Vec<SongId> = SongId::all().filter(|s| s.card().level == 1).collect();
    rng.shuffle(&mut level_one);
    events.push(Event::sealed(GameEvent::SongsShuffled {
        order: level_one.iter().rev().copied().collect(),
    }));
    let mut players = BySeat::from_fn(seats, |_| Player {
        bills: each,
        ..Player::default()
    });
    for k in 0..seats {
        let seat = lead.clockwise(k, seats);
        if let Some(song) = level_one.pop() {
            players[seat].songs.push(song);
            events.push(Event::public(GameEvent::SongDealt { seat, song }));
        }
    }
    // G13: the leftover Lv.1 song is removed face down.
    if !level_one.is_empty() {
        events.push(Event::public(GameEvent::SongRemoved));
    }
    let open_songs = SongId::all().filter(|s| s.card().level > 1).collect();

    let mut game = ShrewdProducer {
        options,
        rng,
        stage: Stage::Draft,
        round: 0,
        lead,
        turn: lead,
        draft_step: 0,
        players,
        scout_deck,
        scout_discard: Vec::with_capacity(24),
        scout_removed,
        supply,
        artist_deck,
        revealed: Vec::with_capacity(ARTISTS_PER_ROUND),
        artist_discard: Vec::new(),
        open_songs,
        removed_songs: level_one,
        raise_order: Vec::with_capacity(seats),
        ranking: Vec::with_capacity(2),
        song_queue: Vec::with_capacity(2),
    };
    game.start_draft(&mut events);
    Ok((game, events))
}
