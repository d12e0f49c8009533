"""Renders ``openapi.md``, the contract the union's engineers read: hand-written prose
(``api/contract_prose.md``) followed by every endpoint and schema, generated from the app.

A test regenerates it and fails when the committed file is stale (`zhisai openapi` rewrites it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api.app import create_app
from zhisai.settings import Settings

PROSE = Path(__file__).with_name("contract_prose.md")
METHODS = ("get", "post", "put", "patch", "delete")


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type_of(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return f"[{_ref_name(schema['$ref'])}](#schema-{_ref_name(schema['$ref']).lower()})"
    if "anyOf" in schema:
        return " or ".join(_type_of(option) for option in schema["anyOf"])
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return _type_of(schema["allOf"][0])
    if "enum" in schema:
        return "one of " + ", ".join(f"`{value}`" for value in schema["enum"])
    if "const" in schema:
        return f"`{schema['const']}`"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type_of(schema.get('items', {}))}"
    if (
        kind == "object"
        and "additionalProperties" in schema
        and isinstance(schema["additionalProperties"], dict)
    ):
        return f"map of {_type_of(schema['additionalProperties'])}"
    if "format" in schema:
        return f"{kind} ({schema['format']})"
    return str(kind)


def _constraints(schema: dict[str, Any]) -> str:
    names = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "default")
    parts = [f"{name} {json.dumps(schema[name], ensure_ascii=False)}" for name in names if name in schema]
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").strip()


def _schema_section(name: str, schema: dict[str, Any]) -> list[str]:
    lines = [f'<a id="schema-{name.lower()}"></a>', f"### {name}", ""]
    if schema.get("description"):
        lines += [schema["description"].strip(), ""]
    properties: dict[str, Any] = schema.get("properties", {})
    if not properties:
        lines += [f"Type: {_type_of(schema)}", ""]
        return lines
    required = set(schema.get("required", []))
    lines += ["| field | type | required | notes |", "|---|---|---|---|"]
    for field, spec in properties.items():
        notes = " ".join(filter(None, [spec.get("description", ""), _constraints(spec)]))
        needed = "yes" if field in required else "no"
        lines.append(f"| `{field}` | {_cell(_type_of(spec))} | {needed} | {_cell(notes)} |")
    lines.append("")
    return lines


def _operation_section(method: str, path: str, op: dict[str, Any]) -> list[str]:
    lines = [f"### `{method.upper()} {path}`", ""]
    if op.get("summary"):
        lines += [f"**{op['summary']}**", ""]
    if op.get("description"):
        lines += [op["description"].strip(), ""]
    security = op.get("security") or []
    if not security:
        auth = "none (public)"
    elif {} in security:
        auth = "none (public); a key, when given, may show more (e.g. unpublished pairings to organisers)"
    else:
        auth = "API key (`Authorization: Bearer …`)"
    lines += [f"Authentication: {auth}.", ""]
    params = op.get("parameters", [])
    if params:
        lines += ["| parameter | in | type | required | notes |", "|---|---|---|---|---|"]
        for param in params:
            spec = param.get("schema", {})
            notes = " ".join(filter(None, [param.get("description", ""), _constraints(spec)]))
            lines.append(
                f"| `{param['name']}` | {param['in']} | {_cell(_type_of(spec))} | "
                f"{'yes' if param.get('required') else 'no'} | {_cell(notes)} |"
            )
        lines.append("")
    body = op.get("requestBody")
    if body:
        for media, content in body.get("content", {}).items():
            lines += [f"Request body ({media}): {_type_of(content.get('schema', {}))}", ""]
            examples = content.get("examples") or {}
            for example_name, example in examples.items():
                title = example.get("summary", example_name)
                lines += [f"Example — {title}:", "", "```json"]
                lines += [json.dumps(example.get("value"), ensure_ascii=False, indent=2), "```", ""]
            if "example" in content:
                lines += [
                    "Example:",
                    "",
                    "```json",
                    json.dumps(content["example"], ensure_ascii=False, indent=2),
                ]
                lines += ["```", ""]
    lines += ["| status | meaning | body |", "|---|---|---|"]
    for status, response in op.get("responses", {}).items():
        content = response.get("content", {})
        bodies = ", ".join(f"{_type_of(c.get('schema', {}))} ({m})" for m, c in content.items()) or "—"
        lines.append(f"| {status} | {_cell(response.get('description', ''))} | {_cell(bodies)} |")
    lines.append("")
    return lines


def render_contract() -> str:
    app = create_app(Settings(database_url="sqlite://", secret_key="x" * 32, environment="test"))
    spec = app.openapi()
    out = [PROSE.read_text(encoding="utf-8").rstrip(), "", "## Endpoints", ""]
    out += [
        "Generated from the service itself (`zhisai openapi`); the machine-readable form is served at",
        "`/api/v1/openapi.json` and browsable at `/docs`.",
        "",
    ]
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                tag = (item[method].get("tags") or ["other"])[0]
                by_tag.setdefault(tag, []).append((method, path, item[method]))
    for tag, operations in by_tag.items():
        out += [f"## {tag}", ""]
        for method, path, op in operations:
            out += _operation_section(method, path, op)
    out += ["## Schemas", ""]
    for name, schema in sorted(spec.get("components", {}).get("schemas", {}).items()):
        out += _schema_section(name, schema)
    return "\n".join(out).rstrip() + "\n"
