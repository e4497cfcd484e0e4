"""Ulti: the Hungarian three-player card game (robber ulti), engine, bots and tools."""

__version__ = "0.1.0"
