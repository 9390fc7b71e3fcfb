//! Canonical JSON: the one text of a JSON value that signatures and digests are taken over.
//!
//! Objects' keys are sorted by their UTF-8 bytes, and nothing is written between tokens;
//! strings and numbers are written as `serde_json` writes them. A record read back and written
//! again by any JSON library keeps its canonical text, so its signature and digest still hold.

use serde_json::Value;

/// The canonical text of `value`.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_unstable();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                if let Some(inner) = map.get(key) {
                    write(inner, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
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
