//! How one logged event is kept in a game's event list.
//!
//! The log is most of a finished game's bytes (a Shrewd Producer game logs about 380 events), and
//! the audience written as JSON (`{"audience":{"to":"everyone"},"body":…}`) was a third of each
//! entry. An entry is now one letter for the audience, then the body's JSON as the ruleset wrote
//! it:
//!
//! | entry | audience |
//! | --- | --- |
//! | `E{…}` | everyone |
//! | `N{…}` | nobody until the game ends |
//! | `S0,2:{…}` | seats 0 and 2 |
//!
//! An entry that starts with `{` is the whole event as JSON, as it was written before, and still
//! reads.

use roadie_engine::{Audience, Seat};
use serde_json::value::RawValue;

use super::StoreError;
use crate::table::StoredEvent;

/// The entry that keeps `event`.
#[cfg(test)]
pub fn encode_event(event: &StoredEvent) -> Vec<u8> {
    let mut entry = Vec::with_capacity(entry_len(event));
    write_event(event, &mut entry).expect("a Vec takes every byte");
    entry
}

/// About how many bytes the entry of `event` takes (exactly, for up to ten seats).
pub fn entry_len(event: &StoredEvent) -> usize {
    let audience = match &event.audience {
        Audience::Everyone | Audience::Nobody => 1,
        Audience::Seats(seats) => 1 + 2 * seats.len(),
    };
    audience + event.body.get().len()
}

/// Writes the entry that keeps `event` to `out`: its audience letter (`S` with the seats and a
/// colon), then the body.
fn write_event(event: &StoredEvent, out: &mut impl std::io::Write) -> std::io::Result<()> {
    match &event.audience {
        Audience::Everyone => out.write_all(b"E")?,
        Audience::Nobody => out.write_all(b"N")?,
        Audience::Seats(seats) => {
            out.write_all(b"S")?;
            for (i, seat) in seats.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{}", seat.index())?;
            }
            out.write_all(b":")?;
        }
    }
    out.write_all(event.body.get().as_bytes())
}

/// An event written as its entry straight into the command that stores it.
#[derive(Clone, Copy, Debug)]
pub struct EventEntry<'a>(pub &'a StoredEvent);

impl redis::ToRedisArgs for EventEntry<'_> {
    fn write_redis_args<W: ?Sized + redis::RedisWrite>(&self, out: &mut W) {
        // Writing to the command's own buffer cannot fail.
        let _ = write_event(self.0, &mut out.writer_for_next_arg());
    }

    fn num_of_args(&self) -> usize {
        1
    }
}

/// The event an entry keeps.
pub fn decode_event(entry: &[u8]) -> Result<StoredEvent, StoreError> {
    let corrupt = |why: &str| StoreError::Corrupt(format!("event entry: {why}"));
    let (audience, body) = match entry.split_first() {
        Some((b'{', _)) => {
            return serde_json::from_slice(entry).map_err(|e| StoreError::Corrupt(e.to_string()));
        }
        Some((b'E', body)) => (Audience::Everyone, body),
        Some((b'N', body)) => (Audience::Nobody, body),
        Some((b'S', rest)) => {
            let colon = rest
                .iter()
                .position(|&b| b == b':')
                .ok_or_else(|| corrupt("seats without ':'"))?;
            let seats = std::str::from_utf8(&rest[..colon])
                .map_err(|_| corrupt("seats are not text"))?
                .split(',')
                .map(|seat| {
                    seat.parse()
                        .map(Seat::new)
                        .map_err(|_| corrupt("a seat is not a number"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            (Audience::Seats(seats), &rest[colon + 1..])
        }
        _ => return Err(corrupt("unknown form")),
    };
    let body = std::str::from_utf8(body).map_err(|_| corrupt("body is not text"))?;
    let body = RawValue::from_string(body.to_owned()).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(StoredEvent { audience, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(audience: Audience, body: &str) -> StoredEvent {
        StoredEvent {
            audience,
            body: RawValue::from_string(body.to_owned()).expect("JSON"),
        }
    }

    fn same(a: &StoredEvent, b: &StoredEvent) -> bool {
        a.audience == b.audience && a.body.get() == b.body.get()
    }

    #[test]
    fn every_audience_round_trips_with_its_body_unchanged() {
        for audience in [
            Audience::Everyone,
            Audience::Nobody,
            Audience::seat(Seat::new(3)),
            Audience::Seats(vec![Seat::new(0), Seat::new(2), Seat::new(11)]),
        ] {
            let written = event(audience, r#"{"type":"scout_played","seat":3,"note":"a:b,c"}"#);
            let read = decode_event(&encode_event(&written)).expect("decodes");
            assert!(same(&read, &written), "{read:?} from {written:?}");
        }
    }

    #[test]
    fn a_command_carries_each_entry_as_one_argument_of_its_exact_length() {
        let events = [
            event(Audience::Everyone, r#"{"type":"a"}"#),
            event(Audience::Nobody, r#"{"type":"b"}"#),
            event(
                Audience::Seats(vec![Seat::new(0), Seat::new(3)]),
                r#"{"type":"c"}"#,
            ),
        ];
        let mut cmd = redis::Cmd::new();
        for e in &events {
            cmd.arg(EventEntry(e));
        }
        let args: Vec<Vec<u8>> = cmd
            .args_iter()
            .map(|arg| match arg {
                redis::Arg::Simple(bytes) => bytes.to_vec(),
                _ => panic!("only plain arguments here"),
            })
            .collect();
        let expected: Vec<Vec<u8>> = events.iter().map(encode_event).collect();
        assert_eq!(args, expected);
        for e in &events {
            assert_eq!(entry_len(e), encode_event(e).len());
        }
    }

    #[test]
    fn an_entry_is_the_body_and_a_few_bytes_more() {
        let body = r#"{"type":"round_started","round":1}"#;
        assert_eq!(
            encode_event(&event(Audience::Everyone, body)).len(),
            body.len() + 1
        );
        assert_eq!(
            encode_event(&event(Audience::Seats(vec![Seat::new(1), Seat::new(2)]), body)),
            format!("S1,2:{body}").into_bytes()
        );
    }

    #[test]
    fn an_event_written_whole_as_json_still_reads() {
        let written = event(
            Audience::seat(Seat::new(1)),
            r#"{"type":"hand_dealt","cards":["Y400c"]}"#,
        );
        let json = serde_json::to_vec(&written).expect("encodes");
        assert!(json.starts_with(b"{\"audience\""));
        assert!(same(&decode_event(&json).expect("decodes"), &written));
    }

    #[test]
    fn a_damaged_entry_is_refused_as_corrupt() {
        for entry in [
            &b""[..],
            b"X{}",
            b"S1,2{}",
            b"Sx:{}",
            b"E{not json",
            b"{\"audience\":1}",
        ] {
            assert!(
                matches!(decode_event(entry), Err(StoreError::Corrupt(_))),
                "{:?}",
                String::from_utf8_lossy(entry)
            );
        }
    }
}
