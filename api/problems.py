"""Every error leaves the service as ``application/problem+json`` (RFC 9457), mapped here once.

A problem names the rule that refused the request (``rule``, also the tail of ``type``) and, where
there is one, the offending field; validation problems list every offending field in ``errors``.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from domain import errors

log = logging.getLogger("zhisai.api")

PROBLEM_MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:zhisai:problem:"
OPERATION_METHODS = frozenset({"GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"})

STATUS_BY_ERROR: dict[type[errors.DomainError], int] = {
    errors.Unauthenticated: 401,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.WindowClosed: 409,
    errors.InvalidInput: 422,
    errors.RuleViolation: 422,
}


class FieldError(BaseModel):
    field: str = Field(description="where in the request, e.g. body.cards[3] or query.limit")
    message: str
    type: str = Field(description="machine-readable kind of the error")


class Problem(BaseModel):
    """An error answer (RFC 9457 problem details)."""

    type: str = Field(description="stable identifier of the problem kind, urn:zhisai:problem:<rule>")
    title: str
    status: int
    detail: str
    rule: str = Field(description="the rule or check that refused the request")
    field: str | None = Field(default=None, description="the offending field, where there is one")
    instance: str | None = Field(default=None, description="the request path")
    errors: list[FieldError] | None = Field(default=None, description="each offending field (validation)")


def problem_response(
    status: int,
    *,
    rule: str,
    detail: str,
    request: Request | None = None,
    field: str | None = None,
    extra: dict[str, Any] | None = None,
    field_errors: list[FieldError] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    problem = Problem(
        type=TYPE_PREFIX + rule,
        title=HTTPStatus(status).phrase,
        status=status,
        detail=detail,
        rule=rule,
        field=field,
        instance=request.url.path if request is not None else None,
        errors=field_errors,
    )
    body = problem.model_dump(exclude_none=True)
    if extra:
        body.update({key: value for key, value in extra.items() if key not in body})
    return JSONResponse(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _location(loc: tuple[Any, ...] | list[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _domain_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, errors.DomainError)
    status = next((code for cls, code in STATUS_BY_ERROR.items() if isinstance(exc, cls)), 400)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return problem_response(
        status,
        rule=exc.rule,
        detail=exc.detail,
        request=request,
        field=exc.field,
        extra=exc.extra,
        headers=headers,
    )


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """The request's own validation, or a model a service builds from the request's values (a path
    parameter that strips to nothing, say): either way the caller's input, answered 422."""
    assert isinstance(exc, RequestValidationError | ValidationError)
    field_errors = [
        FieldError(
            field=_location(err.get("loc", ())), message=str(err.get("msg", "")), type=str(err["type"])
        )
        for err in exc.errors()
    ]
    first = field_errors[0] if field_errors else None
    detail = "; ".join(f"{e.field}: {e.message}" for e in field_errors[:5]) or "the request is not valid"
    return problem_response(
        422,
        rule="request-validation",
        detail=detail,
        request=request,
        field=first.field if first else None,
        field_errors=field_errors,
    )


def _allowed_methods(request: Request) -> list[str]:
    """Every documented method at this path. Starlette's 405 names only the first route that
    matched the path, so ``PUT /branches/{code}`` would hide ``POST /branches/bulk``."""
    document = request.app.openapi()
    methods: set[str] = set()
    for template, item in document.get("paths", {}).items():
        if compile_path(template)[0].match(request.url.path):
            methods.update(method.upper() for method in item if method.upper() in OPERATION_METHODS)
    return sorted(methods)


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    rules = {404: "no-such-resource", 405: "method-not-allowed", 413: "body-too-large"}
    detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    headers = dict(exc.headers) if exc.headers else {}
    if exc.status_code == 400:
        # The framework's only 400: a body it cannot decode (not UTF-8, broken multipart).
        # Answered like every other refused body (422, documented everywhere); nothing is stored.
        return problem_response(
            422,
            rule="body-unreadable",
            detail=f"the request body cannot be read: {detail}",
            request=request,
            field="body",
        )
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"there is no resource at {request.url.path}"
    if exc.status_code == 405:
        detail = f"{request.method} is not allowed on {request.url.path}"
        headers["Allow"] = ", ".join(_allowed_methods(request)) or headers.get("Allow", "")
    return problem_response(
        exc.status_code,
        rule=rules.get(exc.status_code, f"http-{exc.status_code}"),
        detail=detail,
        request=request,
        headers=headers or None,
    )


def _out_of_range(request: Request, exc: Exception) -> JSONResponse:
    """A number the database cannot hold (an id past 2**63 in a path, say): SQLite's driver raises
    OverflowError, PostgreSQL a DataError. The caller's mistake, and the transaction is rolled back."""
    log.info("value out of range on %s %s: %s", request.method, request.url.path, exc)
    return problem_response(
        422,
        rule="value-out-of-range",
        detail="a value in the request is too large or otherwise out of range for the service to store or look up",
        request=request,
    )


def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(
        500,
        rule="internal-error",
        detail="the service failed to answer this request; nothing was changed",
        request=request,
    )


def install(app: FastAPI) -> None:
    app.add_exception_handler(errors.DomainError, _domain_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(ValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(OverflowError, _out_of_range)
    app.add_exception_handler(DataError, _out_of_range)
    app.add_exception_handler(Exception, _unexpected_error)
    document_problems(app)


def document_problems(app: FastAPI) -> None:
    """The OpenAPI document says what the service answers: every error is a Problem in
    ``application/problem+json``. (FastAPI would document validation errors as its own
    ``HTTPValidationError`` and ``responses(model=...)`` as ``application/json``; we send neither.)"""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = generate()
        for operation in _operations(document):
            if "requestBody" in operation:  # BodyLimitMiddleware refuses any body over the limit
                operation.setdefault("responses", {}).setdefault("413", {})
            for status, response in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    response["description"] = HTTPStatus(int(status)).phrase
                    response["content"] = {
                        PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}
                    }
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        for name, schema in _problem_schemas().items():
            schemas.setdefault(name, schema)  # FastAPI's rendering where it has one
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def _operations(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        operation
        for item in document.get("paths", {}).values()
        for method, operation in item.items()
        if method.upper() in OPERATION_METHODS
    ]


def _problem_schemas() -> dict[str, Any]:
    schema = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    definitions: dict[str, Any] = schema.pop("$defs", {})
    return {**definitions, "Problem": schema}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` entry documenting the problems an endpoint can answer."""
    return {
        status: {
            "model": Problem,
            "description": HTTPStatus(status).phrase,
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        for status in statuses
    }
