//! Signing: 1st place chooses an artist, 2nd place receives the other (G25) or it is discarded
//! (G10); then money processing (G9).

use super::Events;
use crate::games::shrewd_producer::components::*;
use crate::games::shrewd_producer::events::GameEvent;
use crate::games::shrewd_producer::state::{ScoutBid, ShrewdProducer, Stage};
use crate::{Event, Seat};

impl ShrewdProducer {
    pub(super) fn choose_artist(&mut self, seat: Seat, artist: ArtistId, events: &mut Events) {
        let revealed = std::mem::take(&mut self.revealed);
        self.players[seat].artists.push(artist);
        events.push(Event::public(GameEvent::ArtistSigned {
            seat,
            artist,
            place: 1,
        }));
        for other in revealed.into_iter().filter(|&a| a != artist) {
            match self.ranking.get(1) {
                // G25: 2nd place receives the remaining artist.
                Some(&second) => {
                    self.players[second].artists.push(other);
                    events.push(Event::public(GameEvent::ArtistSigned {
                        seat: second,
                        artist: other,
                        place: 2,
                    }));
                }
                // G10: with a single participant the other artist is discarded.
                None => {
                    self.artist_discard.push(other);
                    events.push(Event::public(GameEvent::ArtistDiscarded { artist: other }));
                }
            }
        }
        self.process_money(events);
        let mut queue = self.ranking.clone();
        queue.sort_by_key(|&s| self.distance(s));
        queue.retain(|&s| self.may_pick_song(s));
        self.song_queue = queue;
        if self.song_queue.is_empty() {
            self.end_round(events);
        } else {
            self.stage = Stage::Songs;
        }
    }

    /// Money processing: signers pay everything; the others lose their Scout play and only $100
    /// of their Raise-Phase money (G9).
    fn process_money(&mut self, events: &mut Events) {
        for seat in Seat::all(self.seats()) {
            let signer = self.ranking.contains(&seat);
            let p = &mut self.players[seat];
            if let Some(ScoutBid::Card(card)) = p.bid {
                self.scout_discard.push(card);
            }
            if p.participating {
                let (to_supply, returned) = if signer || p.raised == 0 {
                    (p.raised, 0)
                } else {
                    (NON_SIGNER_FEE_BILLS, p.raised - NON_SIGNER_FEE_BILLS)
                };
                self.supply += to_supply;
                p.bills += returned;
                events.push(Event::public(GameEvent::MoneyProcessed {
                    seat,
                    to_supply: u32::from(to_supply) * BILL,
                    returned: u32::from(returned) * BILL,
                }));
            }
            p.bid = None;
            p.participating = false;
            p.raised = 0;
            p.passed = false;
        }
        events.push(Event::public(GameEvent::BidsCleared {
            seats: Seat::all(self.seats()).collect(),
        }));
    }
}
