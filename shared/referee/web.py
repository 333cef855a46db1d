"""HTTP plumbing shared by the game services and the gateway.

One JSON reader (size-limited, schema-checked, every failure a 400), one
problem+json mapping for every error, and an OpenAPI document built by apispec
from the same marshmallow schemas that check the requests.
"""

import html
import json
import logging
import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask, Response, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from .errors import (
    BadRequest, InvalidJson, MethodNotAllowed, NotFound, PayloadTooLarge, RefereeError,
)

log = logging.getLogger(__name__)
DEFAULT_MAX_BODY = 1 << 20  # 1 MiB: far above any game state, far below harm
PROBLEM = "application/problem+json"


def json_response(payload, status: int = 200, headers=None) -> Response:
    return Response(json.dumps(payload, separators=(",", ":")), status, headers,
                    mimetype="application/json")


def problem_response(error: RefereeError) -> Response:
    body = error.problem()
    headers = {}
    if error.status in (429, 503):
        headers["Retry-After"] = str(body.get("retry_after", 1))
    return Response(json.dumps(body, separators=(",", ":")), error.status, headers,
                    mimetype=PROBLEM)


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes):
    """Strict JSON: no NaN/Infinity; too-deep nesting is refused, never a crash."""
    if not data:
        raise InvalidJson("the request body is empty; send a JSON object")
    try:
        return json.loads(data, parse_constant=_no_constants)
    except (ValueError, RecursionError) as exc:
        raise InvalidJson(f"the request body is not valid JSON: {exc}"[:300]) from None


def read_body(schema) -> dict:
    """The request's JSON object, loaded through ``schema`` (unknown fields refused)."""
    payload = parse_json(request.get_data(cache=True))
    if not isinstance(payload, dict):
        raise BadRequest("the request body must be a JSON object")
    try:
        return schema.load(payload)
    except ValidationError as exc:
        raise BadRequest("the request body does not match its schema",
                         errors=exc.messages) from None


def install_error_handlers(app: Flask) -> None:
    """Every error leaves as problem+json; nothing leaves as an HTML 500."""

    @app.errorhandler(RefereeError)
    def _referee(error):
        return problem_response(error)

    @app.errorhandler(HTTPException)
    def _http(error):
        mapped = {
            404: NotFound(f"no route {request.path}"),
            405: MethodNotAllowed(f"{request.method} is not allowed on {request.path}"),
            413: PayloadTooLarge(
                f"the body is over the limit of {app.config.get('MAX_CONTENT_LENGTH')} bytes"),
        }.get(error.code) or BadRequest(error.description or error.name)
        if error.code not in (404, 405, 413) and error.code and error.code != 400:
            mapped.status = error.code
        return problem_response(mapped)

    @app.errorhandler(Exception)
    def _unexpected(error):  # a bug: still answer in the contract's shape
        log.exception("unhandled error on %s %s", request.method, request.path)
        failure = RefereeError("the referee failed on this request; it has been logged")
        failure.status, failure.code, failure.title = 500, "internal_error", "Internal error"
        return problem_response(failure)


class OpenApi:
    """Collects each route's schemas as it is registered; serves the document."""

    def __init__(self, title: str, description: str, version: str = "1.0.0",
                 common_errors=()):
        self.common_errors = tuple(common_errors)  # e.g. 429 where a limiter runs
        self.spec = APISpec(title=title, version=version, openapi_version="3.1.0",
                            plugins=[MarshmallowPlugin()], info={"description": description})
        self.spec.components.schema("Problem", schema=_problem_schema())

    def route(self, app: Flask, rule: str, method: str, *, summary: str, body=None,
              answer=None, status: int = 200, errors=(400, 422), params=(), tag=None,
              description: str = ""):
        """Register a view; ``body`` (a schema) is loaded and passed to the view."""

        loader = body() if isinstance(body, type) else body

        def decorator(view):
            def endpoint(**kwargs):
                if loader is not None:
                    kwargs["body"] = read_body(loader)
                return view(**kwargs)

            name = f"{view.__name__}_{method.lower()}"
            endpoint.__name__ = name
            app.add_url_rule(rule, name, endpoint, methods=[method])
            self.document(rule, method, summary, description, body, answer, status,
                           errors, params, tag)
            return view

        return decorator

    def document(self, rule, method, summary, description, body, answer, status,
                  errors, params, tag):
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)
        operation = {"summary": summary, "responses": {}}
        if description:
            operation["description"] = description
        if tag:
            operation["tags"] = [tag]
        parameters = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                      for n in re.findall(r"{(\w+)}", path)]
        parameters += [dict(p) for p in params]
        if parameters:
            operation["parameters"] = parameters
        if body is not None:
            operation["requestBody"] = {"required": True,
                                        "content": {"application/json": {"schema": body}}}
        ok = {"description": "success"}
        if answer is not None:
            ok["content"] = {"application/json": {"schema": answer}}
        operation["responses"][str(status)] = ok
        for code in (*errors, *self.common_errors) if errors else ():
            operation["responses"][str(code)] = {
                "description": "problem+json (RFC 9457)",
                "content": {PROBLEM: {"schema": "Problem"}}}
        self.spec.path(path=path, operations={method.lower(): operation})

    def install(self, app: Flask) -> None:
        document = None

        def openapi():
            nonlocal document
            document = document or self.spec.to_dict()
            return json_response(document)

        def docs():
            return Response(render_docs(self.spec.to_dict()), mimetype="text/html")

        app.add_url_rule("/openapi.json", "openapi", openapi, methods=["GET"])
        app.add_url_rule("/docs", "docs", docs, methods=["GET"])


def _problem_schema():
    from .schemas import ProblemSchema
    return ProblemSchema


def render_docs(spec: dict) -> str:
    """A self-contained, readable HTML page of the OpenAPI document (no CDN needed)."""
    esc = html.escape
    parts = [f"<!doctype html><meta charset=utf-8><title>{esc(spec['info']['title'])}</title>",
             "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;"
             "padding:0 1em}code,pre{background:#f4f4f4;padding:2px 4px}pre{padding:8px;"
             "overflow:auto}h3{margin-bottom:.2em}.m{font-weight:bold;color:#05a}</style>",
             f"<h1>{esc(spec['info']['title'])}</h1>",
             f"<p>{esc(spec['info'].get('description', ''))}</p>",
             "<p>Machine-readable: <a href=/openapi.json>/openapi.json</a>. Errors are "
             "<code>application/problem+json</code> with a stable <code>code</code>.</p>"]
    for path, operations in spec.get("paths", {}).items():
        for method, op in operations.items():
            parts.append(f"<h3><span class=m>{method.upper()}</span> <code>{esc(path)}</code>"
                         f"</h3><p>{esc(op.get('summary', ''))}</p>")
            if op.get("description"):
                parts.append(f"<p>{esc(op['description'])}</p>")
            for p in op.get("parameters", []):
                parts.append(f"<div>{esc(p['in'])} <code>{esc(p['name'])}</code> "
                             f"{esc(p.get('description', ''))}</div>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                parts.append(f"<div>body: <code>{esc(_ref_name(body['schema']))}</code></div>")
            codes = ", ".join(sorted(op.get("responses", {})))
            parts.append(f"<div>answers: {esc(codes)}</div>")
    parts.append("<h2>Schemas</h2>")
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        parts.append(f"<h3 id={esc(name)}>{esc(name)}</h3><pre>"
                     f"{esc(json.dumps(schema, indent=2))}</pre>")
    return "\n".join(parts)


def _ref_name(schema) -> str:
    if isinstance(schema, dict) and "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    return json.dumps(schema)
