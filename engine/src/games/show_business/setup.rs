//! Setup (S4): bands, cash, hands, markets, the map, the dice and the opening bid.

use std::collections::VecDeque;

use super::actions::Options;
use super::components::{ArtistId, CardId, SongId, Style, TokenId, components};
use super::events::{GameEvent, StartingArtist, ToMap};
use super::rules::{Events, MAP_TOKENS, MAX_SATISFACTION, START_CASH, START_HAND, placements, tell};
use super::state::{BandArtist, Bidding, Player, ShowBusiness, Task};
use crate::rng::GameRng;
use crate::{BySeat, Event, Seat, SetupError, Started};

/// A new game of `seats` seats, up to its first decision (the opening bids).
pub(super) fn new_game(
    options: Options,
    seats: usize,
    seed: u64,
) -> Result<Started<ShowBusiness>, SetupError> {
    let (mut game, mut events) = ShowBusiness::new(options, seats, seed);
    game.advance(&mut events);
    Ok((game, events))
}

impl ShowBusiness {
    pub(crate) fn new(options: Options, seats: usize, seed: u64) -> (Self, Events) {
        let c = components();
        let mut ev = Events::new();
        let mut rng = GameRng::new(seed);
        let mut players = Vec::new();
        let mut in_bands = Vec::new();
        for seat in 0..seats {
            let colour = Style::ALL[seat];
            let mut band = Vec::new();
            for artist in ArtistId::all() {
                if artist.card().start_board == Some(colour) {
                    let fields = placements(artist, [false; 6])
                        .iter()
                        .max_by_key(|p| p.len())
                        .unwrap_or_default()
                        .to_vec();
                    band.push(BandArtist {
                        card: artist,
                        side_b: false,
                        fields,
                        tokens: vec![],
                    });
                    in_bands.push(artist);
                }
            }
            players.push(Player {
                colour,
                cash: START_CASH,
                popularity: 0,
                scandal: false,
                satisfaction: MAX_SATISFACTION,
                time: Some(0),
                hand: vec![],
                influence_field: vec![],
                band,
                songs: vec![],
                blanks: [true; 3],
                car: c.start,
                bankrupt: None,
            });
        }
        let mut influence_pile: Vec<CardId> = CardId::all().collect();
        rng.shuffle(&mut influence_pile);
        ev.push(Event::sealed(GameEvent::Shuffled {
            pile: "influence".into(),
            order: influence_pile.iter().rev().map(|x| x.id().to_owned()).collect(),
        }));
        let mut artist_pile: Vec<ArtistId> = ArtistId::all().filter(|a| !in_bands.contains(a)).collect();
        rng.shuffle(&mut artist_pile);
        ev.push(Event::sealed(GameEvent::Shuffled {
            pile: "artist".into(),
            order: artist_pile.iter().rev().map(|x| x.id().to_owned()).collect(),
        }));
        let mut game = ShowBusiness {
            options,
            players: BySeat(players),
            influence_pile,
            influence_discard: vec![],
            influence_market: [None; 4],
            artist_pile,
            artist_discard: vec![],
            artist_market: [None; 4],
            bag: TokenId::all().collect(),
            reformed: [false; 3],
            used_tokens: vec![],
            concert_market: [None; 5],
            map_tokens: vec![],
            revealed: vec![],
            dice: [None; 4],
            trend_expert: None,
            rondel: 0,
            chart: vec![Vec::new(); c.chart.len()],
            charts_work: None,
            order: Seat::all(seats).collect(),
            turn: 0,
            qe_done: [false; 4],
            qe_pending: false,
            last_turn: false,
            triggered_this_round: false,
            next_song: SongId(1),
            bankruptcies: 0,
            bid_rounds: 0,
            known: vec![],
            queue: VecDeque::new(),
            result: None,
            rng,
        };
        for (seat, p) in game.players.seats() {
            tell(
                &mut ev,
                GameEvent::StartingBand {
                    seat,
                    artists: p
                        .band
                        .iter()
                        .map(|a| StartingArtist {
                            artist: a.card,
                            fields: a.fields.clone(),
                        })
                        .collect(),
                    cash: p.cash,
                },
            );
        }
        for seat in Seat::all(seats) {
            for _ in 0..START_HAND {
                game.draw_to_hand(seat, &mut ev);
            }
        }
        game.refill_influence_market(&mut ev);
        game.refill_artist_market(&mut ev);
        for _ in 0..MAP_TOKENS {
            if let Some(t) = game.draw_token(&mut ev) {
                game.map_tokens.push(t);
                game.tell_to_map(t, ToMap::Setup, None, &mut ev);
            }
        }
        game.refill_concert_market(&mut ev);
        game.roll_dice(&mut ev);
        game.bid_rounds += 1;
        game.queue.push_back(Task::Bid(Bidding {
            setup: true,
            seats: Seat::all(seats).collect(),
            bids: BySeat::from_fn(seats, |_| None),
            round: game.bid_rounds,
        }));
        (game, ev)
    }
}
