"""Spreadsheets in and out: registration forms read from .xlsx/.csv, standings, round tables and
deal records written as .xlsx/.csv. ``grid``, ``reader`` and ``forms`` are pure (plain data in,
plain data out); ``service`` joins them to the events, schedule and scoring services."""
