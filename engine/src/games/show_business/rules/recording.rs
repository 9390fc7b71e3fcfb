//! RECORDING (S20): a song field by field in a studio.

use super::*;

impl ShowBusiness {
    pub(crate) fn pick_song(&mut self, seat: Seat, city: CityId, ev: &mut Events) {
        if let Some(i) = city.studio() {
            self.players[seat].blanks[i] = false;
            tell(ev, GameEvent::StudioUsed { seat, studio: city });
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
            .filter(|a| a.card.card().style(a.side_b) == style)
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
        self.next_song = SongId(self.next_song.0 + 1);
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

/// This module's tasks are decisions: each waits for its seat.
pub(super) fn step(_: &mut ShowBusiness, task: Task, _: &mut Events) -> Option<Task> {
    Some(task)
}

/// The actions `seat` may post at this module's decision `task`.
pub(super) fn legal(_: &ShowBusiness, _: Seat, task: &Task, out: &mut Vec<Action>) {
    if let Task::Record { song, .. } = task {
        if song.style.is_none() {
            out.extend(Style::ALL.map(|style| Action::RecordStyle { style }));
        } else if song.lyrics.is_none() {
            out.extend(LYRICS.map(|lyrics| Action::RecordLyrics { lyrics }));
        } else if song.tempo.is_none() {
            out.extend(TEMPI.map(|tempo| Action::RecordTempo { tempo }));
        } else {
            out.extend(VOLUMES.map(|volume| Action::RecordVolume { volume }));
        }
    }
}

/// Applies `action`, legal at this module's decision `task` (already taken off the queue).
pub(super) fn exec(game: &mut ShowBusiness, seat: Seat, task: Task, action: &Action, ev: &mut Events) {
    match (task, action) {
        (Task::Record { mut song, .. }, a) => match a {
            Action::RecordStyle { style } => {
                song.style = Some(*style);
                game.queue.push_front(Task::Record { seat, song });
            }
            Action::RecordLyrics { lyrics } => {
                song.lyrics = LYRICS.iter().position(|l| l == lyrics).map(|i| i as u8);
                game.queue.push_front(Task::Record { seat, song });
            }
            Action::RecordTempo { tempo } => {
                song.tempo = TEMPI.iter().position(|l| l == tempo).map(|i| i as u8);
                game.queue.push_front(Task::Record { seat, song });
            }
            Action::RecordVolume { volume } => {
                let volume = VOLUMES.iter().position(|l| l == volume).unwrap_or(0) as u8;
                game.finish_song(seat, &song, volume, ev);
            }
            _ => {}
        },
        (t, _) => game.queue.push_front(t),
    }
}

pub(super) const RULES: Rules = Rules { step, legal, exec };
