//! RECORDING (S20): a song field by field in a studio.

use super::*;

impl ShowBusiness {
    pub(crate) fn pick_song(&mut self, seat: Seat, city: u8, ev: &mut Events) {
        if let Some(i) = components().studios.iter().position(|&s| s == city) {
            self.players[seat].blanks[i] = false;
            tell(
                ev,
                GameEvent::StudioUsed {
                    seat,
                    studio: city_name(city),
                },
            );
            self.queue.push_front(Task::Record {
                seat,
                song: PartialSong {
                    style: None,
                    lyrics: None,
                    tempo: None,
                },
            });
        }
    }

    /// RECORDING: field 5 is the tokens on artists currently playing the song's style.
    pub(crate) fn song_experience(&self, seat: Seat, style: Style) -> u32 {
        self.players[seat]
            .band
            .iter()
            .filter(|a| components().artists[a.card as usize].style(a.side_b) == style)
            .map(|a| a.tokens.len() as u32)
            .sum()
    }

    pub(crate) fn finish_song(&mut self, seat: Seat, song: &PartialSong, volume: u8, ev: &mut Events) {
        let style = song.style.unwrap_or(Style::Rock);
        let s = Song {
            id: self.next_song,
            owner: seat,
            style,
            lyrics: song.lyrics.unwrap_or(0),
            tempo: song.tempo.unwrap_or(0),
            volume,
            experience: self.song_experience(seat, style),
        };
        self.next_song += 1;
        ev.push(Event::private(
            seat,
            GameEvent::Recorded {
                seat,
                song: s.id,
                content: crate::games::show_business::view::content(&s),
            },
        ));
        tell(ev, GameEvent::SongRecorded { seat, song: s.id });
        self.players[seat].songs.push(s);
    }
}
