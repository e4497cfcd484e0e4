"""The game server: an ASGI app (FastAPI on uvicorn), lobby, one actor per table, WebSocket protocol."""
