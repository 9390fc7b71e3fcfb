"""Works around two shortcomings of openapi-generator's `rust` generator (7.26.0), and changes
nothing else in its models.

1. For a `oneOf` with a discriminator it writes `#[serde(tag = "<property>")] enum` over structs
   that also declare `<property>` as a required field. serde's internal tagging takes the property
   out before the variant's struct is read, so the struct never finds it and nothing deserializes.
   Those enums become `#[serde(untagged)]`: each variant's struct reads and writes its own tag
   property, whose schema allows that variant's value only, so exactly one variant matches.
2. An array whose items may be `null` (`items: {"type": ["string", "null"]}`, or a `oneOf` with
   `null`) becomes `Vec<T>`; it becomes `Vec<Option<T>>`.

Usage: patch_generated.py OPENAPI_JSON MODELS_DIR
"""

import json
import pathlib
import re
import sys

TAGGED = re.compile(r'#\[serde\(tag = "[^"]+"\)\]')


def nullable(items):
    if not isinstance(items, dict):
        return False
    types = items.get("type")
    types = types if isinstance(types, list) else [types]
    return "null" in types or any(option.get("type") == "null" for option in items.get("oneOf", []))


document = json.loads(pathlib.Path(sys.argv[1]).read_text())
models = pathlib.Path(sys.argv[2])
files = {path: path.read_text() for path in sorted(models.glob("*.rs"))}

untagged = 0
for path, text in files.items():
    if TAGGED.search(text):
        files[path] = TAGGED.sub("#[serde(untagged)]", text)
        untagged += 1

optional_items = 0
for name, schema in document["components"]["schemas"].items():
    for prop, definition in (schema.get("properties") or {}).items():
        if not (isinstance(definition, dict) and nullable(definition.get("items"))):
            continue
        struct = f"pub struct {name.replace('_', '')} {{"
        path = next((p for p, text in files.items() if struct in text), None)
        if path is None:
            raise SystemExit(f"patch_generated.py: no struct for {name}")
        pattern = re.compile(rf"\b{re.escape(prop)}: Vec<((?!Option<)[\w:<>]+)>")
        patched, count = pattern.subn(rf"{prop}: Vec<Option<\1>>", files[path])
        if count == 0:
            raise SystemExit(f"patch_generated.py: {name}.{prop} is not a Vec")
        files[path] = patched
        optional_items += 1

for path, text in files.items():
    path.write_text(text)
print(f"patch_generated.py: {untagged} discriminated unions made untagged, {optional_items} arrays of nullable items")
