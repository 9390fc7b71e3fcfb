//! Typed ids: a component held as its index in a table of the game's components and written
//! on the wire as the component's id string, so that an id of one kind is never taken for
//! another and no client string reaches the rules unchecked.

/// Declares `$name`, an index into `$table` (an array, slice or vector of components; `$c => $id`
/// gives a component's `&'static str` id) that serializes as the component's id string,
/// deserializes only from an id in the table, and has the OpenAPI schema `$schema`: a string
/// enum of every id. A binary encoding (the store's MessagePack, written on every post) writes
/// the table index, a byte where the id string took up to six, and reads both, so that a game
/// stored with id strings still loads; JSON, which clients write, takes the id string only.
macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident, $table:expr, $c:ident => $id:expr, $schema:literal, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u8);

        impl $name {
            /// Every component of the table, in table order.
            pub fn all() -> impl Iterator<Item = Self> {
                (0..$table.len() as u8).map($name)
            }

            /// The component with this id.
            pub fn find(id: &str) -> Option<Self> {
                $table
                    .iter()
                    .position(|$c| $id == id)
                    .map(|i| $name(i as u8))
            }

            /// The component's id string.
            pub fn id(self) -> &'static str {
                let $c = &$table[self.0 as usize];
                $id
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if s.is_human_readable() {
                    s.serialize_str(self.id())
                } else {
                    s.serialize_u8(self.0)
                }
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct IdVisitor {
                    index_allowed: bool,
                }
                impl ::serde::de::Visitor<'_> for IdVisitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter) -> ::std::fmt::Result {
                        f.write_str(concat!("the id of ", $what))
                    }
                    fn visit_str<E: ::serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        $name::find(v)
                            .ok_or_else(|| E::custom(format!(concat!("{:?} is not ", $what), v)))
                    }
                    fn visit_u64<E: ::serde::de::Error>(self, v: u64) -> Result<$name, E> {
                        u8::try_from(v)
                            .ok()
                            .filter(|&i| self.index_allowed && usize::from(i) < $table.len())
                            .map($name)
                            .ok_or_else(|| {
                                E::invalid_type(::serde::de::Unexpected::Unsigned(v), &self)
                            })
                    }
                }
                let index_allowed = !d.is_human_readable();
                d.deserialize_str(IdVisitor { index_allowed })
            }
        }

        impl ::utoipa::PartialSchema for $name {
            fn schema() -> ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema> {
                ::utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(::utoipa::openapi::schema::Type::String)
                    .description(Some(concat!("The id of ", $what, ".")))
                    .enum_values(Some($table.iter().map(|$c| $id)))
                    .into()
            }
        }

        impl ::utoipa::ToSchema for $name {
            fn name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($schema)
            }
        }
    };
}

pub(crate) use typed_id;
