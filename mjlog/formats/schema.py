"""JSON Schema (2020-12) of the JSON Lines events, generated from the event classes.

``python -m mjlog.formats.schema`` writes ``schemas/events.schema.json``; a test
checks that the committed file equals what this module generates, so the
schema and :mod:`mjlog.formats.serialize` cannot drift apart. The audit report's
schema is written by hand in ``schemas/audit-report.schema.json``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from pathlib import Path
from typing import Any

from mjlog.core.events import EVENT_TYPES
from mjlog.core.ruleset import Ruleset, option_type, registered_options
from mjlog.formats.serialize import _base, _fields, _is_pairs, _optional_arg

SCHEMA_ID = "https://mjlog.invalid/schemas/events.schema.json"


def _type_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if hasattr(tp, "__supertype__") and tp.__name__ == "Tile":
        return {"$ref": "#/$defs/Tile"}
    tp0 = _base(tp)
    if tp0 is bool:
        return {"type": "boolean"}
    if tp0 is int:
        return {"type": "integer"}
    if tp0 is float:
        return {"type": "number"}
    if tp0 is str:
        return {"type": "string"}
    if typing.get_origin(tp0) is typing.Literal:
        return {"enum": list(typing.get_args(tp0))}
    if _is_pairs(tp0):
        return {"type": "object", "additionalProperties": {"type": "string"}}
    if (inner := _optional_arg(tp0)) is not None:
        return {"anyOf": [_type_schema(inner, defs), {"type": "null"}]}
    if typing.get_origin(tp0) is tuple:
        return {"type": "array", "items": _type_schema(typing.get_args(tp0)[0], defs)}
    if tp0 is Ruleset:
        if "Ruleset" not in defs:
            defs["Ruleset"] = _ruleset_schema(defs)
        return {"$ref": "#/$defs/Ruleset"}
    if isinstance(tp0, type) and dataclasses.is_dataclass(tp0):
        name = tp0.__name__
        if name not in defs:
            defs[name] = {}
            defs[name] = _object_schema(tp0, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no schema for {tp!r}")


def _object_schema(cls: type, defs: dict[str, Any], tag: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required: list[str] = []
    if tag is not None:
        props["type"] = {"const": tag}
        required.append("type")
    for name, tp, default in _fields(cls):
        props[name] = _type_schema(tp, defs)
        if default is dataclasses.MISSING:
            required.append(name)
    doc = (cls.__doc__ or "").strip().split("\n\n")[0]
    return {"description": " ".join(doc.split()), "type": "object", "properties": props,
            "required": required, "additionalProperties": False}


def _ruleset_schema(defs: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's flat JSON object: every option by its flat name."""
    doc = (Ruleset.__doc__ or "").strip().split("\n\n")[0]
    props = {name: _type_schema(option_type(name), defs) for name in registered_options()}
    return {"description": " ".join(doc.split()), "type": "object", "properties": props,
            "required": [], "additionalProperties": False}


def events_schema() -> dict[str, Any]:
    """The schema of one line of mjlog JSON Lines (any event)."""
    defs: dict[str, Any] = {
        "Tile": {
            "description": "A physical tile id: 0..135 in Tenhou's numbering (kind = id // 4; "
            "16, 52 and 88 are the red fives in games with red fives), 136..143 the flowers, "
            "144 a tile nobody wrote down (partial records).",
            "type": "integer", "minimum": 0, "maximum": 144,
        },
    }
    variants = []
    for tag, cls in EVENT_TYPES.items():
        defs[cls.__name__] = _object_schema(cls, defs, tag)
        variants.append({"$ref": f"#/$defs/{cls.__name__}"})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "mjlog event",
        "description": "One line of an mjlog JSON Lines file: one canonical event, tagged by "
        "'type'. Fields equal to their default may be left out.",
        "oneOf": variants,
        "$defs": defs,
    }


def render() -> str:
    """The schema as the text committed in ``schemas/events.schema.json``."""
    return json.dumps(events_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write the events schema to the given path (default ``schemas/events.schema.json``)."""
    out = Path(argv[0] if argv else "schemas/events.schema.json")
    out.write_text(render(), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
