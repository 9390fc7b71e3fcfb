//! Which write a game is at: a count of writes and a random id that no other write has.
//!
//! A count alone does not name a write: after Redis loses its latest writes (a restart from an
//! older snapshot, a failover to a lagging replica) the same numbers come back with other
//! contents. Every write therefore draws a 128-bit id at random, and every comparison (the
//! compare-and-set, a process's copy, a client's `If-Match` and `If-None-Match`) compares both,
//! so a copy or an `ETag` from a lost timeline never matches again.

use std::fmt;
use std::str::FromStr;

use rand::RngCore;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A game's revision: `number` counts its writes (`1` after creation), `write` names the one
/// write that produced it. Written `<number>.<write as 32 hex digits>`, which is the `ETag`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Revision {
    /// How many writes the game has had.
    pub number: u64,
    /// The write's random id.
    pub write: u128,
}

impl Revision {
    /// The revision of a game's creation.
    pub fn first() -> Self {
        Self {
            number: 1,
            write: random_write(),
        }
    }

    /// The revision the write after this one will produce.
    pub fn next(&self) -> Self {
        Self {
            number: self.number.saturating_add(1),
            write: random_write(),
        }
    }
}

fn random_write() -> u128 {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    u128::from_be_bytes(bytes)
}

impl Revision {
    /// The revision's text, on the stack: a post writes it four times (the compare-and-set's
    /// two, the `ETag`, the answer), and `format_args!` with a `String` each time took a few
    /// percent of the service's instructions.
    pub fn text(&self) -> RevisionText {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; RevisionText::MAX];
        let mut start = 20;
        let mut number = self.number;
        loop {
            start -= 1;
            text[start] = b'0' + (number % 10) as u8;
            number /= 10;
            if number == 0 {
                break;
            }
        }
        text[20] = b'.';
        for (i, byte) in self.write.to_be_bytes().into_iter().enumerate() {
            text[21 + 2 * i] = HEX[usize::from(byte >> 4)];
            text[22 + 2 * i] = HEX[usize::from(byte & 0xf)];
        }
        RevisionText { text, start }
    }
}

/// A [`Revision`] written out: `<number>.<32 hex digits>`.
pub struct RevisionText {
    text: [u8; RevisionText::MAX],
    start: usize,
}

impl RevisionText {
    /// `u64::MAX` has 20 digits; then the dot and 32 hex digits.
    const MAX: usize = 20 + 1 + 32;

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits, the dot and hex digits are ever written.
        std::str::from_utf8(&self.text[self.start..]).unwrap_or_default()
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

/// Text that is not `<number>.<32 hex digits>`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("a revision is <number>.<32 hex digits>")]
pub struct MalformedRevision;

impl FromStr for Revision {
    type Err = MalformedRevision;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (number, write) = text.split_once('.').ok_or(MalformedRevision)?;
        let digits = |s: &str, max: usize| !s.is_empty() && s.len() <= max;
        if !digits(number, 20)
            || !number.bytes().all(|b| b.is_ascii_digit())
            || write.len() != 32
            || !write.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(MalformedRevision);
        }
        Ok(Self {
            number: number.parse().map_err(|_| MalformedRevision)?,
            write: u128::from_str_radix(write, 16).map_err(|_| MalformedRevision)?,
        })
    }
}

impl Serialize for Revision {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.text().as_str())
    }
}

impl<'de> Deserialize<'de> for Revision {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revision_reads_back_from_its_text() {
        let revision = Revision::first().next().next();
        assert_eq!(revision.number, 3);
        let text = revision.to_string();
        assert_eq!(text.len(), 2 + 32);
        assert_eq!(text.parse::<Revision>(), Ok(revision));
    }

    #[test]
    fn a_revision_is_written_as_its_number_a_dot_and_32_hex_digits() {
        for (number, write, text) in [
            (0, 0, "0.00000000000000000000000000000000"),
            (1, 0xabc, "1.00000000000000000000000000000abc"),
            (10, u128::MAX, "10.ffffffffffffffffffffffffffffffff"),
            (
                u64::MAX,
                0x0123456789abcdef0011223344556677,
                "18446744073709551615.0123456789abcdef0011223344556677",
            ),
        ] {
            assert_eq!(Revision { number, write }.to_string(), text);
        }
    }

    #[test]
    fn the_same_number_written_twice_is_two_revisions() {
        let base = Revision::first();
        assert_ne!(base.next(), base.next());
    }

    #[test]
    fn text_that_names_no_write_is_refused() {
        for bad in [
            "7",
            "7.",
            ".00000000000000000000000000000000",
            "7.xyz",
            "-1.0",
            "7.0000",
        ] {
            assert_eq!(bad.parse::<Revision>(), Err(MalformedRevision), "{bad}");
        }
    }
}
