#!/usr/bin/python3
"""Validates a storebench result document against docs/output-schema.json.

Usage: check_schema.py RESULT.json SCHEMA.json

Exit status: 0 when the document is valid; 1 when it is not (every violation is printed to
stderr with its JSON path); 2 when a file cannot be read or parsed, or the schema itself is
invalid. Needs python3-jsonschema (Debian package), which supports draft 2020-12 from 4.0.
"""

import json
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover - environment problem, not a validation failure
    sys.stderr.write("check_schema.py: the Python module jsonschema is missing "
                     "(apt-get install python3-jsonschema)\n")
    sys.exit(2)


def load(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        sys.stderr.write(f"check_schema.py: cannot read {what} {path}: {e.strerror}\n")
    except json.JSONDecodeError as e:
        sys.stderr.write(f"check_schema.py: {what} {path} is not valid JSON: {e}\n")
    sys.exit(2)


def json_path(error):
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    document = load(argv[1], "result document")
    schema = load(argv[2], "schema")

    validator_class = jsonschema.validators.validator_for(schema)
    try:
        validator_class.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        sys.stderr.write(f"check_schema.py: {argv[2]} is not a valid JSON Schema: {e.message}\n")
        return 2

    validator = validator_class(schema)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        sys.stderr.write(f"{argv[1]}: {len(errors)} schema violation(s) against {argv[2]}:\n")
        for error in errors:
            sys.stderr.write(f"  {json_path(error)}: {error.message}\n")
        return 1

    # JSON Schema cannot express key order; the documented layout puts schema_version first.
    if not isinstance(document, dict) or next(iter(document), None) != "schema_version":
        sys.stderr.write(f"{argv[1]}: \"schema_version\" is not the first key\n")
        return 1
    print(f"{argv[1]}: valid (schema_version {document['schema_version']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
