"""The ``zhisai`` command: serve, migrate, create-key, revoke-key, demo, openapi."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from zhisai.settings import get_settings


def _migrate(_args: argparse.Namespace) -> int:
    from storage import migrate

    url = get_settings().database_url
    migrate.upgrade(url)
    print(f"database at {migrate.head_revision()} ({url.split('@')[-1]})")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    if not args.no_migrate:
        _migrate(args)
    uvicorn.run("api.app:create_app", factory=True, host=args.host, port=args.port, log_level="info")
    return 0


def _create_key(args: argparse.Namespace) -> int:
    from domain.access import service as access_service
    from storage.db import make_engine, unit_of_work

    engine = make_engine(get_settings().database_url)
    with unit_of_work(engine) as session:
        new = access_service.create_key(session, name=args.name, role=args.role, branch_code=args.branch)
    scope = f" for branch {new.branch_code}" if new.branch_code else ""
    print(f"key {new.key_id} ({new.role.value}{scope}); shown once, keep it safe:", file=sys.stderr)
    print(new.secret)
    return 0


def _revoke_key(args: argparse.Namespace) -> int:
    from domain.access import service as access_service
    from storage.db import make_engine, unit_of_work

    engine = make_engine(get_settings().database_url)
    with unit_of_work(engine) as session:
        access_service.revoke_key(session, args.key_id)
    print(f"key {args.key_id} revoked")
    return 0


def _openapi(args: argparse.Namespace) -> int:
    from api.contract import render_contract

    Path(args.output).write_text(render_contract(), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from zhisai import demo

    # each step's line is written above the live progress meter, not through it
    return demo.run(args.seed, get_settings(), say=tqdm.write)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="zhisai", description="the union's mind-sport tournament service")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="apply migrations and serve the API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-migrate", action="store_true", help="do not migrate before serving")
    serve.set_defaults(run=_serve)

    sub.add_parser("migrate", help="upgrade the database to the latest schema").set_defaults(run=_migrate)

    key = sub.add_parser("create-key", help="create an API key and print it once")
    key.add_argument("--role", required=True, choices=["union", "referee", "admin"])
    key.add_argument("--name", default="unnamed key")
    key.add_argument("--branch", default=None, help="branch code a union key may act for (branch admins)")
    key.set_defaults(run=_create_key)

    revoke = sub.add_parser("revoke-key", help="revoke an API key by its number")
    revoke.add_argument("key_id", type=int)
    revoke.set_defaults(run=_revoke_key)

    demo = sub.add_parser("demo", help="load a seed competition into the database, step by step")
    demo.add_argument("--seed", default="000", choices=["000", "001", "002", "003", "004"])
    demo.set_defaults(run=_demo)

    contract = sub.add_parser("openapi", help="write the client contract (openapi.md)")
    contract.add_argument("--output", default="openapi.md")
    contract.set_defaults(run=_openapi)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
