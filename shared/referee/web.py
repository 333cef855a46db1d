"""HTTP plumbing shared by the game services and the gateway.

One JSON reader (size-limited, schema-checked, every failure a 400), one
problem+json mapping for every error, and an OpenAPI document built by apispec
from the same marshmallow schemas that check the requests.
"""

import copy
import html
import importlib.resources
import json
import logging
import math
import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin, resolver
from flask import Flask, Response, current_app, has_request_context, request, send_from_directory
from marshmallow import ValidationError
from marshmallow import fields as ma_fields
from werkzeug.exceptions import HTTPException

from .engine import LANGUAGES

from .errors import (
    BadRequest, InvalidJson, MethodNotAllowed, NotFound, PayloadTooLarge, RefereeError,
    UnknownField, UnsupportedMediaType, examples,
)

log = logging.getLogger(__name__)
DEFAULT_MAX_BODY = 1 << 20  # 1 MiB: far above any game state, far below harm
PROBLEM = "application/problem+json"


def json_response(payload, status: int = 200, headers=None) -> Response:
    return Response(json.dumps(payload, separators=(",", ":")), status, headers,
                    mimetype="application/json")


def language() -> str:
    """The language to answer in: the caller's most preferred of LANGUAGES by
    ``Accept-Language`` (RFC 9110 q-values, highest first, the earlier of equals; a tag
    matches by its primary language, ``ja-JP`` is ``ja``; ``q=0`` refuses one); English
    when none is acceptable or nothing is asked.

    (werkzeug's ``best_match`` looks for exact tags first, so ``ja-JP, en;q=0.5``
    would be answered in English.)"""
    if not has_request_context():
        return LANGUAGES[0]
    ranked = sorted(request.accept_languages, key=lambda tag_q: -tag_q[1])  # stable
    for tag, quality in ranked:
        primary = tag.split("-")[0].lower()
        if quality <= 0:
            continue
        if primary == "*":
            return LANGUAGES[0]
        if primary in LANGUAGES:
            return primary
    return LANGUAGES[0]


def problem_response(error: RefereeError) -> Response:
    lang = language()
    rule_text = current_app.extensions.get("referee.rule_text") if has_request_context() \
        else None
    body = error.problem(lang, rule_text)
    # the detail is in the language asked: a cache keeps one answer per language
    headers = {"Content-Language": lang, "Vary": "Accept-Language"}
    if error.status in (429, 503):
        headers["Retry-After"] = str(body.get("retry_after", 1))
    return Response(json.dumps(body, separators=(",", ":")), error.status, headers,
                    mimetype=PROBLEM)


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def _number(text: str):
    """A JSON number with a fraction or exponent: an integer when its value is whole.

    JSON has one number type, and JSON Schema (which the OpenAPI documents use)
    counts ``3.0`` as an integer: so does the referee, or a documented request
    would be refused. A number too large for a double is refused, never turned
    into an infinity that could not be written back as JSON.
    """
    value = float(text)
    if value in (math.inf, -math.inf):
        raise ValueError(f"the number {text[:40]} is too large")
    return int(value) if value.is_integer() else value


def parse_json(data: bytes):
    """Strict JSON: no NaN/Infinity; too-deep nesting is refused, never a crash;
    whole numbers are integers however they are written (``3.0`` is ``3``)."""
    if not data:
        raise InvalidJson("the request body is empty; send a JSON object")
    try:
        return json.loads(data, parse_constant=_no_constants, parse_float=_number)
    except (ValueError, RecursionError) as exc:
        raise InvalidJson(f"the request body is not valid JSON: {exc}"[:300]) from None


def request_json():
    """The request's body as JSON: sent as ``application/json`` (any charset parameter),
    or refused with 415 whatever it holds, so a form or text body is never guessed to be
    JSON. An empty body keeps its own answer (400 invalid_json: "send a JSON object")."""
    data = request.get_data(cache=True)
    if data and request.mimetype != "application/json":
        sent = f"sent as {request.mimetype[:80]}" if request.mimetype else \
            "sent without a Content-Type"
        raise UnsupportedMediaType(f"the request body was {sent}; send it as application/json")
    return parse_json(data)


def read_object() -> dict:
    """The request's body: a JSON object."""
    payload = request_json()
    if not isinstance(payload, dict):
        raise BadRequest("the request body must be a JSON object")
    return payload


def read_body(schema, payload=None) -> dict:
    """The request's JSON object (or ``payload``), loaded through ``schema``
    (unknown fields refused)."""
    payload = read_object() if payload is None else payload
    try:
        return schema.load(payload)
    except ValidationError as exc:
        unknown = unknown_fields(exc.messages)
        if unknown:  # most often a misspelling: say which field, not what is then missing
            raise UnknownField(f'unknown field "{unknown[0][:80]}" in the request body',
                               errors=exc.messages, words={"field": unknown[0][:80]}) from None
        raise BadRequest("the request body does not match its schema",
                         errors=exc.messages) from None


def unknown_fields(messages, where: str = "") -> list[str]:
    """The dotted paths marshmallow refused as unknown fields (``RAISE``), in order."""
    found = []
    if isinstance(messages, dict):
        for name, inner in messages.items():
            path = f"{where}.{name}" if where else str(name)
            if isinstance(inner, list) and "Unknown field." in inner:
                found.append(path)
            else:
                found += unknown_fields(inner, path)
    return found


def check_json(checker, body) -> None:
    """Refuse a body its JSON Schema (a ``jsonschema`` validator) forbids: 400 with
    each error at its path."""
    errors = {}
    for error in sorted(checker.iter_errors(body), key=lambda e: list(e.absolute_path)):
        where = ".".join(map(str, error.absolute_path)) or "body"
        errors.setdefault(where, []).append(error.message[:200])
    if errors:
        raise BadRequest("the request body does not match its schema", errors=errors)


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
        response = problem_response(mapped)
        if error.code == 405 and getattr(error, "valid_methods", None):
            response.headers["Allow"] = ", ".join(sorted(error.valid_methods))  # RFC 9110
        return response

    @app.errorhandler(Exception)
    def _unexpected(error):  # a bug: still answer in the contract's shape
        log.exception("unhandled error on %s %s", request.method, request.path)
        failure = RefereeError("the referee failed on this request; it has been logged")
        failure.status, failure.code, failure.title = 500, "internal_error", "Internal error"
        return problem_response(failure)


def key_rules(converter, field, **kwargs) -> dict:
    """A Dict field's rules for its keys (``keys=String(validate=Length(max=40))``) as
    ``propertyNames``: apispec writes only the values' schema, and a client (or a fuzzer)
    reading the document must not think a longer key is valid."""
    keys = getattr(field, "key_field", None)
    if not isinstance(field, ma_fields.Dict) or keys is None:
        return {}
    names = converter.field2property(keys)
    return {"propertyNames": names} if names.keys() - {"type"} else {}


class OpenApi:
    """Collects each route's schemas as it is registered; serves the document."""

    def __init__(self, title: str, description: str, version: str = "1.0.0",
                 common_errors=(), component_prefix: str = ""):
        """``component_prefix`` names every marshmallow component of this document
        (``Gizmos`` + ``CalculateRequest``): the gateway gathers every game's
        components into one document, where two games' names must not collide."""
        self.common_errors = tuple(common_errors)  # e.g. 429 where a limiter runs
        self.extenders = []  # callables that complete the document when it is served
        plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: component_prefix +
                                   resolver(schema))
        self.spec = APISpec(title=title, version=version, openapi_version="3.1.0",
                            plugins=[plugin], info={"description": description})
        plugin.converter.add_attribute_function(key_rules)
        self.spec.components.schema("Problem", component=problem_json_schema())
        self.spec.components.security_scheme("token", {
            "type": "http", "scheme": "bearer",
            "description": "a session's seat, table or spectator token (secret, shown once)"})

    def add_components(self, named: dict) -> None:
        """Plain JSON Schemas (e.g. a game's, from ``referee.wire``) as named components."""
        for name, schema in named.items():
            self.spec.components.schema(name, component=schema)

    def route(self, app: Flask, rule: str, method: str, *, summary: str, body=None,
              answer=None, status: int = 200, errors=(400, 422), params=(), tag=None,
              description: str = "", operation_id: str | None = None, doc_body=None,
              raw_body: bool = False, security: bool = False, links=None, check=None):
        """Register a view; ``body`` (a schema) is loaded and passed to the view.

        ``doc_body`` documents a tighter, per-game body than the generic ``body``
        loads; ``raw_body`` passes the JSON object as it came (the view checks it);
        ``check``, a JSON Schema validator, refuses first what the document forbids.
        """

        loader = body() if isinstance(body, type) else body

        def decorator(view):
            def endpoint(**kwargs):
                if loader is not None or raw_body:
                    payload = read_object()
                    if check is not None:
                        check_json(check, payload)
                    kwargs["body"] = payload if loader is None else read_body(loader, payload)
                return view(**kwargs)

            name = f"{view.__name__}_{method.lower()}"
            endpoint.__name__ = name
            app.add_url_rule(rule, name, endpoint, methods=[method])
            self.document(rule, method, summary, description, doc_body or body, answer,
                          status, errors, params, tag, operation_id, security, links)
            return view

        return decorator

    def document(self, rule, method, summary, description, body, answer, status,
                 errors, params, tag, operation_id=None, security=False, links=None):
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)
        operation = {"summary": summary, "responses": {}}
        if operation_id:
            operation["operationId"] = operation_id
        if description:
            operation["description"] = description
        if tag:
            operation["tags"] = [tag]
        if security:  # True: the bearer token; or the names of schemes, any one of them
            schemes = ("token",) if security is True else security
            operation["security"] = [{name: []} for name in schemes]
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
        if links:
            ok["links"] = links
        operation["responses"][str(status)] = ok
        # any body over MAX_CONTENT_LENGTH; a body that is not application/json
        with_body = (413, 415) if body is not None else ()
        for code in (*errors, *with_body, *self.common_errors) if errors else ():
            operation["responses"][str(code)] = problem_answer(code)
        self.spec.path(path=path, operations={method.lower(): operation})

    def install(self, app: Flask) -> None:
        document = None

        def openapi():
            nonlocal document
            if document is not None:
                return json_response(document)
            built = copy.deepcopy(self.spec.to_dict())
            built["x-common-errors"] = [str(c) for c in self.common_errors]
            complete = all([extend(built) for extend in self.extenders])
            del built["x-common-errors"]
            if complete:  # a part that did not answer is asked again next time
                document = built
            return json_response(built)

        def docs():
            return Response(DOCS_PAGE.replace("{title}", html.escape(self.spec.title)),
                            mimetype="text/html", headers={"Cache-Control": "no-cache"})

        def docs_asset(name):
            return send_from_directory(SWAGGER_UI, name, max_age=86400)

        app.add_url_rule("/openapi.json", "openapi", openapi, methods=["GET"])
        app.add_url_rule("/docs", "docs", docs, methods=["GET"])
        app.add_url_rule("/docs/assets/<path:name>", "docs_asset", docs_asset, methods=["GET"])


# The interactive reference is Swagger UI, from the swagger-ui-py package's own copy of
# its assets (a well-kept package; no CDN: /docs works with no internet).
SWAGGER_UI = str(importlib.resources.files("swagger_ui") / "static")
DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui",
  deepLinking: true, displayOperationId: true, defaultModelsExpandDepth: 0,
  tryItOutEnabled: true, persistAuthorization: false});</script>
</body></html>
"""


def problem_answer(status: int) -> dict:
    """A documented answer of ``status``: problem+json with an example of each code of that
    status (Swagger UI shows the first; a generator reads the schema), or a 304's no body."""
    if status == 304:
        return {"description": "not modified: If-None-Match named the current ETag; no body"}
    return {"description": "problem+json (RFC 9457); `detail` in the language of "
                           "Accept-Language (en, ja), which Content-Language names",
            "headers": {"Content-Language": {"description": "en or ja: the language of "
                                                            "`detail`",
                                             "schema": {"type": "string", "enum": list(
                                                 LANGUAGES)}}},
            "content": {PROBLEM: {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "examples": examples(status)}}}


def problem_json_schema() -> dict:
    """The problem+json body (RFC 9457): every ``code`` the server can answer is listed."""
    from .errors import CODES
    return {
        "type": "object", "required": ["type", "title", "status", "detail", "code"],
        "properties": {
            "type": {"type": "string", "format": "uri"},
            "title": {"type": "string"},
            "status": {"type": "integer", "minimum": 400, "maximum": 599},
            "detail": {"type": "string", "description": "a sentence for people, in English or "
                                                        "Japanese as Accept-Language asks "
                                                        "(code and rule are the same in both)"},
            "code": {"enum": sorted(CODES), "description": "stable, machine-readable"},
            "rule": {"type": "string", "description": "the rule id an illegal move breaks"},
            "errors": {"type": "object", "description": "per-field schema errors",
                       "additionalProperties": {"description": "free: a field's messages, "
                                                               "or nested per field"}},
            "retry_after": {"type": "integer", "minimum": 0},
            "current_version": {"type": "integer", "minimum": 0},
            "request_id": {"type": "string", "description": "the X-Request-Id of the request "
                                                            "(give it when you report a problem)"},
        }}
