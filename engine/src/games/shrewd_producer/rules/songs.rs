//! Songs (G12, G26): signers whose current song is complete take or decline the next level;
//! then the next lead and the next round, the redraft (G28) or the end.

use super::Events;
use crate::games::shrewd_producer::components::*;
use crate::games::shrewd_producer::events::GameEvent;
use crate::games::shrewd_producer::state::{ShrewdProducer, Stage};
use crate::{Event, Seat};

impl ShrewdProducer {
    /// The open songs one level above the seat's current song.
    pub(super) fn next_songs(&self, seat: Seat) -> impl Iterator<Item = SongId> + '_ {
        let level = self.players[seat].songs.last().map_or(0, |s| s.card().level);
        self.open_songs
            .iter()
            .copied()
            .filter(move |s| s.card().level == level + 1)
    }

    pub(super) fn take_song(&mut self, seat: Seat, song: SongId, events: &mut Events) {
        self.open_songs.retain(|&s| s != song);
        self.players[seat].songs.push(song);
        events.push(Event::public(GameEvent::SongTaken { seat, song }));
        // G12: chaining; the seat keeps picking while its new song is complete too.
        if !self.may_pick_song(seat) {
            self.next_song_pick(events);
        }
    }

    pub(super) fn decline_song(&mut self, seat: Seat, events: &mut Events) {
        events.push(Event::public(GameEvent::SongDeclined { seat }));
        self.next_song_pick(events);
    }

    fn next_song_pick(&mut self, events: &mut Events) {
        if !self.song_queue.is_empty() {
            self.song_queue.remove(0);
        }
        if self.song_queue.is_empty() {
            self.end_round(events);
        }
    }

    /// Next lead, then the next round, the redraft after round 6 (G28) or the end after round 12.
    pub(super) fn end_round(&mut self, events: &mut Events) {
        // "If there was no 1st place player (e.g., only one bidder ...), the previous lead
        // player continues as lead player."
        if self.ranking.len() >= 2 {
            self.lead = self.ranking[0];
        }
        events.push(Event::public(GameEvent::NextLead { seat: self.lead }));
        self.ranking.clear();
        self.raise_order.clear();
        self.song_queue.clear();
        if self.round >= ROUNDS {
            self.stage = Stage::Over;
            self.turn = self.lead;
            let winners = self.result().winners;
            events.push(Event::public(GameEvent::GameOver { winners }));
        } else if self.round == REDRAFT_AFTER_ROUND {
            // G14: all Scout Money, from the discard pile and the hands, is redrafted.
            events.push(Event::public(GameEvent::ScoutMoneyGathered));
            let mut gathered = std::mem::take(&mut self.scout_discard);
            for p in self.players.iter_mut() {
                gathered.append(&mut p.hand);
            }
            gathered.sort();
            self.scout_deck = gathered;
            self.start_draft(events);
        } else {
            self.start_round(events);
        }
    }
}
