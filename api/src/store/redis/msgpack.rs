//! The stored state's MessagePack, written straight into one buffer.
//!
//! The bytes are exactly those of `rmp_serde::encode::write_named`, which still reads them back
//! (`decode_state`): structs as maps keyed by field name, unit variants as their name, other
//! variants as a one-entry map from the name, `None` and `()` as nil, a unit struct as an empty
//! array, every number in its smallest form, and `is_human_readable` false. `rmp_serde` reaches
//! each value through its generic writer and configuration; written here, a state costs about a
//! third of the instructions, and it is written on every post. The tests compare the two on
//! every state of played games, so any difference fails them.

use std::fmt::Display;

use serde::ser::{self, Serialize};

/// A value that cannot be written: a `Serialize` implementation refused, or a length does not
/// fit MessagePack's 32 bits.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct EncodeError(String);

impl ser::Error for EncodeError {
    fn custom<T: Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// `value` as MessagePack with named fields, into a buffer that starts at `capacity` bytes.
pub fn to_vec_named<T: Serialize + ?Sized>(value: &T, capacity: usize) -> Result<Vec<u8>, EncodeError> {
    let mut packer = Packer {
        out: Vec::with_capacity(capacity),
    };
    value.serialize(&mut packer)?;
    Ok(packer.out)
}

/// Writes MessagePack into its buffer.
struct Packer {
    out: Vec<u8>,
}

/// The name `rmp_serde` gives its extension type: written here it would be an ordinary value,
/// so it is refused rather than written differently.
const EXT_STRUCT_NAME: &str = "_ExtStruct";

fn length(len: usize) -> Result<u32, EncodeError> {
    u32::try_from(len).map_err(|_| EncodeError(format!("a length of {len} does not fit MessagePack")))
}

impl Packer {
    /// Never fails; a `Result` so that the serializer's methods are one call. Most numbers of a
    /// state are small: their one byte is written where the serializer calls this.
    #[inline]
    fn uint(&mut self, v: u64) -> Result<(), EncodeError> {
        if v < 128 {
            self.out.push(v as u8);
            Ok(())
        } else {
            self.wide_uint(v)
        }
    }

    fn wide_uint(&mut self, v: u64) -> Result<(), EncodeError> {
        if v < 256 {
            self.out.extend_from_slice(&[0xcc, v as u8]);
        } else if v < 65_536 {
            self.out.push(0xcd);
            self.out.extend_from_slice(&(v as u16).to_be_bytes());
        } else if v < 4_294_967_296 {
            self.out.push(0xce);
            self.out.extend_from_slice(&(v as u32).to_be_bytes());
        } else {
            self.out.push(0xcf);
            self.out.extend_from_slice(&v.to_be_bytes());
        }
        Ok(())
    }

    /// Never fails, like [`Packer::uint`].
    fn sint(&mut self, v: i64) -> Result<(), EncodeError> {
        if v >= 0 {
            return self.uint(v as u64);
        }
        if v >= -32 {
            self.out.push(v as i8 as u8);
        } else if v >= -128 {
            self.out.extend_from_slice(&[0xd0, v as i8 as u8]);
        } else if v >= -32_768 {
            self.out.push(0xd1);
            self.out.extend_from_slice(&(v as i16).to_be_bytes());
        } else if v >= -2_147_483_648 {
            self.out.push(0xd2);
            self.out.extend_from_slice(&(v as i32).to_be_bytes());
        } else {
            self.out.push(0xd3);
            self.out.extend_from_slice(&v.to_be_bytes());
        }
        Ok(())
    }

    /// A length header: `fix` holds the fixed form's marker (lengths below `fix_max`), `wide` the
    /// 16-bit one, followed by the 32-bit one.
    fn header(&mut self, len: u32, fix: u8, fix_max: u32, wide: u8) {
        if len < fix_max {
            self.out.push(fix | len as u8);
        } else if len < 65_536 {
            self.out.push(wide);
            self.out.extend_from_slice(&(len as u16).to_be_bytes());
        } else {
            self.out.push(wide + 1);
            self.out.extend_from_slice(&len.to_be_bytes());
        }
    }

    fn array_len(&mut self, len: usize) -> Result<(), EncodeError> {
        self.header(length(len)?, 0x90, 16, 0xdc);
        Ok(())
    }

    fn map_len(&mut self, len: usize) -> Result<(), EncodeError> {
        self.header(length(len)?, 0x80, 16, 0xde);
        Ok(())
    }

    /// A string; the short ones (field names, variants, ids) written where the serializer calls
    /// this.
    #[inline]
    fn str(&mut self, s: &str) -> Result<(), EncodeError> {
        if s.len() < 32 {
            self.out.push(0xa0 | s.len() as u8);
            self.out.extend_from_slice(s.as_bytes());
            Ok(())
        } else {
            self.long_str(s)
        }
    }

    fn long_str(&mut self, s: &str) -> Result<(), EncodeError> {
        let len = length(s.len())?;
        if len < 256 {
            self.out.extend_from_slice(&[0xd9, len as u8]);
        } else {
            self.header(len, 0, 0, 0xda);
        }
        self.out.extend_from_slice(s.as_bytes());
        Ok(())
    }

    fn bin(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let len = length(bytes.len())?;
        if len < 256 {
            self.out.extend_from_slice(&[0xc4, len as u8]);
        } else {
            self.header(len, 0, 0, 0xc5);
        }
        self.out.extend_from_slice(bytes);
        Ok(())
    }

    /// A sequence or map: its header now when its length is known, else once it has ended.
    fn compound(&mut self, len: Option<usize>, map: bool) -> Result<Compound<'_>, EncodeError> {
        let unknown = match len {
            Some(len) if map => self.map_len(len).map(|()| None)?,
            Some(len) => self.array_len(len).map(|()| None)?,
            None => Some(Unknown {
                start: self.out.len(),
                count: 0,
                map,
            }),
        };
        Ok(Compound {
            packer: self,
            unknown,
        })
    }
}

/// Where a compound of unknown length began, and how many elements (or entries) it has so far.
struct Unknown {
    start: usize,
    count: usize,
    map: bool,
}

/// A sequence, tuple, map or struct being written.
struct Compound<'a> {
    packer: &'a mut Packer,
    unknown: Option<Unknown>,
}

impl Compound<'_> {
    fn counted(&mut self) {
        if let Some(unknown) = &mut self.unknown {
            unknown.count += 1;
        }
    }

    /// Puts the header of a compound of unknown length before its elements.
    fn finish(self) -> Result<(), EncodeError> {
        if let Some(Unknown { start, count, map }) = self.unknown {
            let elements = self.packer.out.split_off(start);
            if map {
                self.packer.map_len(count)?;
            } else {
                self.packer.array_len(count)?;
            }
            self.packer.out.extend_from_slice(&elements);
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Packer {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.out.push(if v { 0xc3 } else { 0xc2 });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.sint(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.sint(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.sint(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.sint(v)
    }

    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        self.bin(&v.to_be_bytes())
    }

    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.uint(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.uint(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.uint(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.uint(v)
    }

    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        self.bin(&v.to_be_bytes())
    }

    fn serialize_f32(self, v: f32) -> Result<(), EncodeError> {
        self.out.push(0xca);
        self.out.extend_from_slice(&v.to_bits().to_be_bytes());
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), EncodeError> {
        self.out.push(0xcb);
        self.out.extend_from_slice(&v.to_bits().to_be_bytes());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.str(v)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        self.bin(v)
    }

    fn serialize_none(self) -> Result<(), EncodeError> {
        self.out.push(0xc0);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), EncodeError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), EncodeError> {
        self.out.push(0xc0);
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        self.array_len(0)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        if name == EXT_STRUCT_NAME {
            return Err(EncodeError(
                "MessagePack extension types are not written here".into(),
            ));
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.map_len(1)?;
        self.str(variant)?;
        value.serialize(self)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>, EncodeError> {
        self.compound(len, false)
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, EncodeError> {
        self.compound(Some(len), false)
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, EncodeError> {
        self.compound(Some(len), false)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, EncodeError> {
        self.map_len(1)?;
        self.str(variant)?;
        self.compound(Some(len), false)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>, EncodeError> {
        self.compound(len, true)
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, EncodeError> {
        self.compound(Some(len), true)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, EncodeError> {
        self.map_len(1)?;
        self.str(variant)?;
        self.compound(Some(len), true)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.counted();
        value.serialize(&mut *self.packer)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

/// Tuples and the fields of tuple structs and variants: their length is always known, and
/// their header already written.
macro_rules! positional {
    ($($trait:ident :: $method:ident),+) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = EncodeError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
                value.serialize(&mut *self.packer)
            }

            fn end(self) -> Result<(), EncodeError> {
                Ok(())
            }
        }
    )+};
}

positional!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), EncodeError> {
        self.counted();
        key.serialize(&mut *self.packer)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.serialize(&mut *self.packer)
    }

    fn end(self) -> Result<(), EncodeError> {
        self.finish()
    }
}

/// The fields of structs and struct variants, each under its name.
macro_rules! named {
    ($($trait:ident),+) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = EncodeError;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), EncodeError> {
                self.packer.str(key)?;
                value.serialize(&mut *self.packer)
            }

            fn end(self) -> Result<(), EncodeError> {
                Ok(())
            }
        }
    )+};
}

named!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::to_vec_named;

    fn rmp(value: &impl Serialize) -> Vec<u8> {
        let mut bytes = Vec::new();
        rmp_serde::encode::write_named(&mut bytes, value).expect("rmp_serde writes it");
        bytes
    }

    fn same(value: &impl Serialize) {
        assert_eq!(to_vec_named(value, 0).expect("writes"), rmp(value));
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Pair(u8, i64);

    #[derive(Serialize)]
    enum Shape {
        Empty,
        Wrapped(u32),
        Tuple(i8, String),
        Fields { a: Option<u16>, b: Vec<bool> },
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Tagged {
        One { seat: u8 },
        Two,
    }

    #[derive(Serialize)]
    struct Skipping {
        kept: u8,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        maybe: Vec<u8>,
        last: &'static str,
    }

    /// Every boundary of every marker, on both sides.
    #[test]
    fn numbers_take_the_same_form_as_rmp_serde() {
        for v in [
            0u64,
            1,
            127,
            128,
            255,
            256,
            65_535,
            65_536,
            4_294_967_295,
            4_294_967_296,
            u64::MAX,
        ] {
            same(&v);
        }
        for v in [
            0i64,
            -1,
            -32,
            -33,
            -128,
            -129,
            -32_768,
            -32_769,
            -2_147_483_648,
            -2_147_483_649,
            i64::MIN,
            127,
            128,
            255,
            256,
            65_536,
            i64::MAX,
        ] {
            same(&v);
        }
        same(&(-5i8, 300i16, -70_000i32, 7u8, 65_000u16, 70_000u32));
        same(&(1.5f32, -2.25f64, u128::MAX - 3, -9i128));
        same(&(true, false, 'é', ()));
    }

    #[test]
    fn strings_bytes_and_lengths_take_the_same_form_as_rmp_serde() {
        for len in [0, 31, 32, 255, 256, 65_535, 65_536] {
            same(&"x".repeat(len));
            same(&vec![7u8; len]);
            same(&serde_bytes_like(len));
        }
        for len in [0, 15, 16, 65_535, 65_536] {
            same(&(0..len).map(|i| (i % 200) as u32).collect::<Vec<_>>());
            same(
                &(0..len)
                    .map(|i| (i as u32, i % 3 == 0))
                    .collect::<BTreeMap<_, _>>(),
            );
        }
    }

    struct Bytes(Vec<u8>);

    impl Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }

    fn serde_bytes_like(len: usize) -> Bytes {
        Bytes(vec![3; len])
    }

    /// A sequence or map whose length is not known until it ends.
    struct Counted(usize, bool);

    impl Serialize for Counted {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            if self.1 {
                let mut map = s.serialize_map(None)?;
                for i in 0..self.0 {
                    map.serialize_entry(&i, &[i as u8; 2])?;
                }
                map.end()
            } else {
                let mut seq = s.serialize_seq(None)?;
                for i in 0..self.0 {
                    seq.serialize_element(&(i, "a"))?;
                }
                seq.end()
            }
        }
    }

    #[test]
    fn shapes_and_unknown_lengths_take_the_same_form_as_rmp_serde() {
        same(&Unit);
        same(&Pair(200, -300));
        same(&vec![
            Shape::Empty,
            Shape::Wrapped(70_000),
            Shape::Tuple(-3, "t".into()),
            Shape::Fields {
                a: Some(9),
                b: vec![true, false],
            },
            Shape::Fields { a: None, b: vec![] },
        ]);
        same(&[Tagged::One { seat: 2 }, Tagged::Two]);
        same(&Skipping {
            kept: 1,
            maybe: vec![],
            last: "z",
        });
        same(&Skipping {
            kept: 1,
            maybe: vec![4, 5],
            last: "z",
        });
        same(&(Some([1u8, 2]), None::<u8>, Some(Some(3u8))));
        for len in [0, 1, 15, 16, 70_000] {
            same(&Counted(len, false));
            same(&Counted(len, true));
            same(&vec![Counted(len % 20, true), Counted(3, false)]);
        }
    }

    #[test]
    fn the_extension_type_is_refused_not_written_differently() {
        struct Ext;
        impl Serialize for Ext {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_newtype_struct(super::EXT_STRUCT_NAME, &(1i8, [0u8]))
            }
        }
        assert!(to_vec_named(&Ext, 0).is_err());
    }
}
