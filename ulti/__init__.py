"""Ulti: the Hungarian three-player card game (robber ulti), engine, bots and tools."""

from ulti import native

__version__ = "0.1.0"

# ULTI_NATIVE=1: the server's hot modules from their mypyc build (ulti/native.py), before any is imported
native.activate()
