"""Validates recorded HTTP exchanges against an OpenAPI 3.1 document, strictly.

Usage: contract.py DOCUMENT RECORDS

RECORDS holds one JSON object per line:
  {"method": "get", "path": "/v1/games/{id}", "status": 200,
   "content_type": "application/json", "body": ..., "expect": "valid" | "invalid"}
  or, for a request body or a component:
  {"schema": "/components/schemas/ShrewdProducerAction", "body": ..., "expect": ...}

Strict: JSON Schema 2020-12, `oneOf` matches exactly one branch, every `format` the document
uses must be one this script checks (an unknown format is a failure, never ignored), and every
response must be documented for its status and content type.

Identical records are checked once. Prints a JSON report {"checked", "violations", "missed"}
and exits 1 unless every "valid"
record validates and every "invalid" record fails.
"""

import json
import math
import sys

from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE = "urn:roadie:openapi"

FORMATS = FormatChecker(formats=())


@FORMATS.checks("int32")
def int32(value):
    return not isinstance(value, int) or -(2**31) <= value < 2**31


@FORMATS.checks("int64")
def int64(value):
    return not isinstance(value, int) or -(2**63) <= value < 2**63


@FORMATS.checks("double")
def double(value):
    return not isinstance(value, (int, float)) or math.isfinite(value)


def formats_in(node, found):
    if isinstance(node, dict):
        if isinstance(node.get("format"), str):
            found.add(node["format"])
        for value in node.values():
            formats_in(value, found)
    elif isinstance(node, list):
        for value in node:
            formats_in(value, found)
    return found


def pointer(*parts):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve(document, node):
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def schema_pointer(document, record):
    """Where the record's schema is in the document, or why there is none."""
    if "schema" in record:
        return record["schema"], None
    method, path, status = record["method"], record["path"], str(record["status"])
    operation = document["paths"].get(path, {}).get(method)
    if operation is None:
        return None, f"{method.upper()} {path} is not documented"
    responses = operation.get("responses", {})
    if status not in responses:
        return None, f"{method.upper()} {path} does not document status {status}"
    response = resolve(document, responses[status])
    content = response.get("content", {})
    if record["content_type"] not in content:
        return None, f"{method.upper()} {path} {status} does not document {record['content_type']}"
    ref = responses[status].get("$ref")
    if ref:
        return ref.removeprefix("#") + pointer("content", record["content_type"], "schema"), None
    return pointer("paths", path, method, "responses", status, "content", record["content_type"], "schema"), None


def main():
    document = json.load(open(sys.argv[1]))
    unknown = formats_in(document, set()) - set(FORMATS.checkers)
    violations, missed, checked = [], [], 0
    if unknown:
        violations.append({"record": None, "errors": [f"unknown formats: {sorted(unknown)}"]})
    registry = Registry().with_resource(BASE, Resource(contents=document, specification=DRAFT202012))
    validators, seen = {}, set()
    for number, line in enumerate(open(sys.argv[2]), 1):
        if line in seen:
            continue
        seen.add(line)
        record = json.loads(line)
        checked += 1
        where, error = schema_pointer(document, record)
        if error:
            errors = [error]
        else:
            if where not in validators:
                validators[where] = Draft202012Validator(
                    {"$ref": f"{BASE}#{where}"}, registry=registry, format_checker=FORMATS
                )
            errors = [
                f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}"
                for e in validators[where].iter_errors(record["body"])
            ]
        label = record.get("label") or where or f"{record.get('method')} {record.get('path')}"
        if record.get("expect", "valid") == "valid" and errors:
            violations.append({"record": number, "label": label, "errors": errors[:5]})
        elif record.get("expect") == "invalid" and not errors:
            missed.append({"record": number, "label": label})
    print(json.dumps({"checked": checked, "violations": violations, "missed": missed}, indent=1))
    sys.exit(1 if violations or missed else 0)


if __name__ == "__main__":
    main()
