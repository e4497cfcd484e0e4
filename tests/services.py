"""Throwaway PostgreSQL and Redis servers for tests (``ulti/throwaway.py``), on free ports, and nginx.

PostgreSQL and Redis are installed by ``scripts/system-deps.sh``; these helpers start private
instances under a temporary folder and stop them at the end.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ulti.serverprocess import free_port as free_port
from ulti.throwaway import Postgres as Postgres
from ulti.throwaway import Redis as Redis
from ulti.throwaway import start_postgres as start_postgres
from ulti.throwaway import start_redis as start_redis

DEPLOY_DOC = Path(__file__).resolve().parents[1] / "docs" / "deploy.md"


def nginx_config_from_docs(listen: int, upstreams: list[int], folder: Path) -> str:
    """The ```nginx block of docs/deploy.md with this test's ports (three upstreams) and paths."""
    block = re.search(r"```nginx\n(.*?)```", DEPLOY_DOC.read_text(), re.S)
    assert block is not None, "docs/deploy.md has no nginx configuration"
    config = block.group(1)
    assert config.count("server 127.0.0.1:800") == 3 and "listen 8000;" in config
    for documented, port in zip((8001, 8002, 8003), upstreams, strict=True):
        config = config.replace(f"127.0.0.1:{documented}", f"127.0.0.1:{port}")
    config = config.replace("listen 8000;", f"listen 127.0.0.1:{listen};")
    return config.replace("pid /run/ulti-nginx.pid;", f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;")


@contextmanager
def nginx_from_docs(upstreams: list[int], folder: Path) -> Iterator[str]:
    """Debian's nginx running the documented configuration in front of ``upstreams``; yields its URL."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    listen = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_config_from_docs(listen, upstreams, folder))
    proc = subprocess.Popen([nginx, "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log"),
                             "-g", "daemon off;"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", listen), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{listen}"
    finally:
        proc.terminate()
        proc.wait(10)
