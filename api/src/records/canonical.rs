//! Canonical JSON: the one text of a JSON value that signatures and digests are taken over.
//!
//! Objects' keys are sorted by their UTF-8 bytes, and nothing is written between tokens;
//! strings and numbers are written as `serde_json` writes them. A record read back and written
//! again by any JSON library keeps its canonical text, so its signature and digest still hold.

use serde_json::Value;

/// The canonical text of `value`.
pub fn canonical(value: &Value) -> String {
    let mut out = Vec::new();
    write_canonical(value, &mut out);
    // Only serde_json's own UTF-8 and ASCII punctuation are written.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends the canonical text of `value` to `out`.
pub fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push(b'{');
            for (i, (key, inner)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                // Writing to a vector cannot fail.
                let _ = serde_json::to_writer(&mut *out, key);
                out.push(b':');
                write_canonical(inner, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        scalar => {
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_at_every_depth_and_no_space_is_written() {
        let value = json!({"b": [1, {"z": true, "a": null}], "a": "x y", "é": 1.5});
        assert_eq!(
            canonical(&value),
            r#"{"a":"x y","b":[1,{"a":null,"z":true}],"é":1.5}"#
        );
    }

    #[test]
    fn the_same_value_written_differently_has_one_canonical_text() {
        let spaced: Value =
            serde_json::from_str("{ \"y\" : [ 2 , 3 ],\n \"x\" : {\"k\":\"\\u0041\"} }").expect("json");
        let tight: Value = serde_json::from_str(r#"{"x":{"k":"A"},"y":[2,3]}"#).expect("json");
        assert_eq!(canonical(&spaced), canonical(&tight));
    }
}
