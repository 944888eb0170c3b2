#!/usr/bin/env python3
"""Writes ``src/timbre/types.py``: TypedDicts for every request body, response ``data`` and list query of the API,
generated from the server's OpenAPI document (``GET /v1/openapi.json``).

    python3 scripts/generate_types.py http://127.0.0.1:3000/v1/openapi.json   # or a saved file; --check to diff

Names come from the method and the path (``POST /v1/dte/emit`` → ``PostDteEmitRequest`` / ``PostDteEmitResponse``;
a list's items are ``GetDteItem``, its query ``GetDteParams``); nested objects are named after their parent and field.
``ALIASES`` gives the SDK's short names (``Dte``, ``EmitRequest``, …) to some of them. Standard library only, output
valid on Python 3.9 (``typing`` names, required keys in a base class and optional ones in a ``total=False`` child).
"""

from __future__ import annotations

import json
import keyword
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

OUT = Path(__file__).resolve().parent.parent / "src" / "timbre" / "types.py"

#: Short names the resources use → generated names.
ALIASES = {
    "AnyEmitRequest": "PostDteEmitRequest",
    "EmitRequest": "PostDteEmitRequest1",
    "PurchaseEmitRequest": "PostDteEmitRequest2",
    "LiquidationEmitRequest": "PostDteEmitRequest3",
    "ExportEmitRequest": "PostDteEmitRequest4",
    "Dte": "PostDteEmitResponse",
    "DteDetail": "GetDteByIdResponse",
    "DteStatus": "GetDteByIdStatusResponse",
    "DteListParams": "GetDteParams",
    "Business": "GetBusinessesByIdResponse",
    "Numeration": "GetNumerationsByIdResponse",
    "ApiKey": "GetTokensItem",
    "Event": "GetEventsItem",
}

HEADER = '''"""Request and response shapes of the Timbre API, generated from its OpenAPI document.

Do not edit: run ``python3 scripts/generate_types.py <server>/v1/openapi.json``. Responses may gain fields
(API §7): treat unknown keys as normal.
"""

# fmt: off
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union  # noqa: F401
'''


def pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def operation_name(method: str, path: str) -> str:
    parts = [p for p in path.split("/") if p and p != "v1"]
    words = ["By" + pascal(p[1:-1]) if p.startswith("{") else pascal(p) for p in parts]
    return pascal(method) + "".join(words)


class Generator:
    def __init__(self) -> None:
        self.blocks: List[str] = []
        self.names: Dict[str, int] = {}

    def unique(self, name: str) -> str:
        count = self.names.get(name, 0)
        self.names[name] = count + 1
        return name if count == 0 else f"{name}{count + 1}"

    def annotation(self, schema: Any, name: str) -> str:
        """The Python type of a schema; objects with properties become TypedDicts named ``name``."""
        if not isinstance(schema, dict) or not schema:
            return "Any"
        if "const" in schema:
            return f"Literal[{schema['const']!r}]"
        if "enum" in schema:
            return "Literal[" + ", ".join(repr(v) for v in schema["enum"]) + "]"
        for combinator in ("anyOf", "oneOf"):
            if combinator in schema:
                options = [self.annotation(s, f"{name}{i + 1}" if len(schema[combinator]) > 1 else name) for i, s in enumerate(schema[combinator])]
                return union(options)
        if "allOf" in schema:
            merged: Dict[str, Any] = {"type": "object", "properties": {}, "required": []}
            for part in schema["allOf"]:
                merged["properties"].update(part.get("properties", {}))
                merged["required"] += part.get("required", [])
            return self.annotation(merged, name)
        kinds = schema.get("type")
        if isinstance(kinds, list):
            return union([self.annotation({**schema, "type": k}, name) for k in kinds])
        if kinds == "string":
            return "str"
        if kinds == "integer":
            return "int"
        if kinds == "number":
            return "float"
        if kinds == "boolean":
            return "bool"
        if kinds == "null":
            return "None"
        if kinds == "array":
            return f"List[{self.annotation(schema.get('items'), name + 'Item' if not name.endswith('s') else name[:-1])}]"
        if kinds == "object" or "properties" in schema:
            if schema.get("properties"):
                return self.typed_dict(schema, name)
            values = schema.get("patternProperties") or {}
            extra = schema.get("additionalProperties")
            inner = next(iter(values.values()), extra if isinstance(extra, dict) else None)
            return f"Dict[str, {self.annotation(inner, name + 'Value')}]"
        return "Any"

    def typed_dict(self, schema: Dict[str, Any], name: str) -> str:
        name = self.unique(name)
        required = set(schema.get("required", []))
        fields: List[Tuple[str, str, bool, Optional[str]]] = []
        for key, sub in schema["properties"].items():
            fields.append((key, self.annotation(sub, name + pascal(key)), key in required, sub.get("description") if isinstance(sub, dict) else None))
        self.blocks.append(render(name, fields, schema.get("description")))
        return name


def union(options: List[str]) -> str:
    unique: List[str] = []
    for option in options:
        if option not in unique:
            unique.append(option)
    if len(unique) == 1:
        return unique[0]
    if "None" in unique and len(unique) == 2:
        return f"Optional[{next(o for o in unique if o != 'None')}]"
    return "Union[" + ", ".join(unique) + "]"


def render(name: str, fields: List[Tuple[str, str, bool, Optional[str]]], description: Optional[str]) -> str:
    doc = f'    """{one_line(description)}"""\n' if description else ""
    if any(not key.isidentifier() or keyword.iskeyword(key) for key, *_ in fields):
        # Keys that are not Python names need the functional syntax (required-ness is then not expressed).
        body = ", ".join(f"{json.dumps(key)}: {kind}" for key, kind, *_ in fields)
        return f"{name} = TypedDict({json.dumps(name)}, {{{body}}}, total=False)\n"
    required = [f for f in fields if f[2]]
    optional = [f for f in fields if not f[2]]

    def lines(group: List[Tuple[str, str, bool, Optional[str]]]) -> str:
        out = ""
        for key, kind, _, text in group:
            out += f"    {key}: {kind}\n" + (f'    """{one_line(text)}"""\n' if text else "")
        return out

    if required and optional:
        return f"class _{name}Required(TypedDict):\n{lines(required)}\n\nclass {name}(_{name}Required, total=False):\n{doc}{lines(optional)}"
    if required:
        return f"class {name}(TypedDict):\n{doc}{lines(required)}"
    return f"class {name}(TypedDict, total=False):\n{doc}{lines(optional) or '    pass' + chr(10)}"


def one_line(text: Optional[str]) -> str:
    return " ".join((text or "").split()).replace('"""', "'''").replace("\\", "\\\\")


def generate(document: Dict[str, Any]) -> str:
    generator = Generator()
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            base = operation_name(method, path)
            query = [p for p in operation.get("parameters", []) if p.get("in") == "query"]
            if query:
                fields = [(p["name"], generator.annotation(p.get("schema"), base + pascal(p["name"])), False, p.get("description")) for p in query]
                generator.blocks.append(render(generator.unique(base + "Params"), fields, f"Query of {method.upper()} {path}."))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                kind = generator.annotation(body, base + "Request")
                if kind not in generator.names:
                    # a body of several shapes (the emission body of each tipo): the union gets the name
                    generator.blocks.append(f"{generator.unique(base + 'Request')} = {kind}\n")
            for status, response in operation.get("responses", {}).items():
                if not str(status).startswith("2"):
                    continue
                envelope = response.get("content", {}).get("application/json", {}).get("schema", {})
                data = envelope.get("properties", {}).get("data")
                if data is None:
                    continue
                if data.get("type") == "array":
                    generator.annotation(data.get("items"), base + "Item")
                else:
                    generator.annotation(data, base + "Response")
                break
    aliases = ""
    for alias, target in ALIASES.items():
        if target not in generator.names:
            raise SystemExit(f"alias {alias}: the document has no {target} any more; update ALIASES")
        aliases += f"{alias} = {target}\n"
    return HEADER + "\n\n" + "\n\n".join(generator.blocks) + "\n\n# Short names used by the resources.\n" + aliases


def load(source: str) -> Dict[str, Any]:
    if re.match(r"https?://", source):
        with urllib.request.urlopen(source, timeout=30) as response:  # noqa: S310 (a URL the developer gives)
            return json.loads(response.read().decode("utf-8"))
    return json.loads(Path(source).read_text(encoding="utf-8"))


def main(argv: List[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    text = generate(load(args[0]))
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} differs from what the OpenAPI document generates: run scripts/generate_types.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
