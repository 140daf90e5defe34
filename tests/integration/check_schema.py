#!/usr/bin/python3
"""Validates storebench result documents against docs/output-schema.json.

Usage: check_schema.py RESULT.json [RESULT.json ...] SCHEMA.json

Each document is checked on its own: a valid one prints "RESULT.json: valid (schema_version N)"
to stdout, an invalid one "RESULT.json: invalid" to stdout and every violation to stderr with its
JSON path. Exit status: 0 when every document is valid; 1 when one is not; 2 when a file cannot
be read or parsed, or the schema itself is invalid. Needs python3-jsonschema (Debian package),
which supports draft 2020-12 from 4.0.

As a module (tests/integration runs it so, in their own process: one interpreter and one import
of jsonschema instead of one per document): check(RESULT.json) returns (status, messages).
"""

import json
import os
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover - environment problem, not a validation failure
    jsonschema = None

MISSING = ("check_schema.py: the Python module jsonschema is missing "
           "(apt-get install python3-jsonschema)\n")
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "docs", "output-schema.json")


class Unusable(Exception):
    """A file that cannot be read or parsed, or a schema that is not one (exit status 2)."""


def load(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise Unusable(f"check_schema.py: cannot read {what} {path}: {e.strerror}\n") from e
    except json.JSONDecodeError as e:
        raise Unusable(f"check_schema.py: {what} {path} is not valid JSON: {e}\n") from e


def json_path(error):
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


_validators = {}


def validator_for(schema_path):
    """The schema's validator, checked once per process."""
    if schema_path not in _validators:
        schema = load(schema_path, "schema")
        validator_class = jsonschema.validators.validator_for(schema)
        try:
            validator_class.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            raise Unusable(f"check_schema.py: {schema_path} is not a valid JSON Schema: "
                           f"{e.message}\n") from e
        _validators[schema_path] = validator_class(schema)
    return _validators[schema_path]


def check(document_path, schema_path=SCHEMA):
    """(status, messages) for one document: 0 valid, 1 invalid, 2 unusable."""
    if jsonschema is None:
        return 2, MISSING
    try:
        validator = validator_for(schema_path)
        document = load(document_path, "result document")
    except Unusable as e:
        return 2, str(e)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        text = f"{document_path}: {len(errors)} schema violation(s) against {schema_path}:\n"
        for error in errors:
            text += f"  {json_path(error)}: {error.message}\n"
        return 1, text
    # JSON Schema cannot express key order; the documented layout puts schema_version first.
    if not isinstance(document, dict) or next(iter(document), None) != "schema_version":
        return 1, f"{document_path}: \"schema_version\" is not the first key\n"
    return 0, f"{document_path}: valid (schema_version {document['schema_version']})\n"


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    if jsonschema is None:
        sys.stderr.write(MISSING)
        return 2
    worst = 0
    for document_path in argv[1:-1]:
        status, text = check(document_path, argv[-1])
        if status == 0:
            sys.stdout.write(text)
        else:
            if status == 1:
                sys.stdout.write(f"{document_path}: invalid\n")
            sys.stderr.write(text)
        worst = max(worst, status)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv))
