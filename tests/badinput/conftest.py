"""The populated world of the fuzzer (tests/fuzz/world.py), one per module."""

from tests.fuzz.conftest import world, world_app, world_client

__all__ = ["world", "world_app", "world_client"]
