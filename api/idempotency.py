"""``Idempotency-Key``: a retried write returns the first answer and changes nothing.

The key is claimed inside the request's own transaction, before the work is done, so the claim and
the work commit together or not at all: a crash between them cannot leave a half-remembered request,
and a concurrent duplicate waits for the first and then replays its answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Header, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import Response
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from api.deps import SessionDep
from domain.errors import Conflict
from storage import idempotency as records
from storage.tables import IdempotencyRecord, utcnow

T = TypeVar("T")
REPLAY_HEADER = "Idempotent-Replayed"


class Idempotency:
    def __init__(
        self, *, session: Session, key: str | None, caller: str, method: str, path: str, body: bytes
    ):
        self.session = session
        self.key = key
        self.caller = caller
        self.method = method
        self.path = path
        self.request_hash = hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + body).hexdigest()

    def _replay(self, record: IdempotencyRecord) -> Response:
        if record.request_hash != self.request_hash:
            raise Conflict(
                "this Idempotency-Key was already used for a different request; use a new key for new work",
                rule="idempotency-key-reused",
                field="Idempotency-Key",
            )
        return Response(
            content=record.response_body,
            status_code=record.status_code,
            media_type="application/json",
            headers={REPLAY_HEADER: "true"},
        )

    def run(self, work: Callable[[], T], *, status_code: int = 200) -> T | Response:
        """Do ``work`` once per key; later calls with the same key replay the stored answer."""
        if self.key is None:
            return work()
        existing = records.find(self.session, caller=self.caller, key=self.key)
        if existing is not None:
            return self._replay(existing)
        record = IdempotencyRecord(
            caller=self.caller,
            key=self.key,
            method=self.method,
            path=self.path,
            request_hash=self.request_hash,
            status_code=0,
            response_body="",
            created_at=utcnow(),
        )
        try:
            records.add(self.session, record)
        except IntegrityError:
            # A concurrent request with the same key committed first: answer as it did.
            self.session.rollback()
            winner = records.find(self.session, caller=self.caller, key=self.key)
            if winner is None:
                raise
            return self._replay(winner)
        result = work()
        record.status_code = status_code
        record.response_body = json.dumps(jsonable_encoder(result), ensure_ascii=False, separators=(",", ":"))
        self.session.add(record)
        self.session.flush()
        return result


def _caller_ref(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    # Keys are namespaced by the credential presented, without needing to validate it here.
    return "cred:" + hashlib.sha256(auth.encode()).hexdigest()[:40] if auth else "anonymous"


async def get_idempotency(
    request: Request,
    session: SessionDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            max_length=200,
            description="Any unique string per logical request; a retry with the same key returns the first "
            "answer and stores nothing twice.",
        ),
    ] = None,
) -> Idempotency:
    return Idempotency(
        session=session,
        key=idempotency_key,
        caller=_caller_ref(request),
        method=request.method,
        path=request.url.path,
        body=await request.body(),
    )


IdempotencyDep = Annotated[Idempotency, Depends(get_idempotency)]
