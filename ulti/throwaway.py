"""Throwaway PostgreSQL and Redis servers on free ports (tests, benchmarks; the commands of docs/stack.md §2).

PostgreSQL and Redis are installed by ``scripts/system-deps.sh``; these start private instances under a
temporary folder and stop them at the end. Never for a deployment: fsync is off, and Redis keeps nothing.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass

from ulti.serverprocess import free_port


@dataclass
class Postgres:
    """A running throwaway PostgreSQL cluster."""

    folder: str
    port: int
    bin_dir: str

    @property
    def url(self) -> str:
        """The SQLAlchemy async URL of its ``postgres`` database."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def create_database(self, name: str) -> str:
        """Create database ``name``; return its URL."""
        subprocess.run(
            ["runuser", "-u", "postgres", "--", f"{self.bin_dir}/psql", "-h", self.folder, "-p", str(self.port),
             "-U", "postgres", "-q", "-c", f"CREATE DATABASE {name}"],
            check=True, capture_output=True,
        )
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        subprocess.run(
            ["runuser", "-u", "postgres", "--", f"{self.bin_dir}/pg_ctl", "-D", f"{self.folder}/data", "-m", "fast",
             "-w", "stop"],
            capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres() -> Postgres:
    """initdb and start a PostgreSQL server on a free loopback port (fsync off: test data only)."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not candidates:
        raise RuntimeError("PostgreSQL is not installed: run scripts/system-deps.sh")
    bin_dir = candidates[-1]
    folder = tempfile.mkdtemp(prefix="pg-", dir="/tmp")
    os.chmod(folder, 0o755)
    shutil.chown(folder, "postgres", "postgres")
    subprocess.run(
        ["runuser", "-u", "postgres", "--", f"{bin_dir}/initdb", "-D", f"{folder}/data", "-U", "postgres", "-A",
         "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
        check=True, capture_output=True,
    )
    port = free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c synchronous_commit=off "
        "-c full_page_writes=off -c max_connections=200"
    )
    subprocess.run(
        ["runuser", "-u", "postgres", "--", f"{bin_dir}/pg_ctl", "-D", f"{folder}/data", "-l", f"{folder}/pg.log",
         "-w", "-t", "30", "start", "-o", options],
        check=True, capture_output=True,
    )
    return Postgres(folder, port, bin_dir)


@dataclass
class Redis:
    """A running throwaway Redis server."""

    folder: str
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        """Its redis:// URL."""
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_redis() -> Redis:
    """Start redis-server on a free loopback port, without persistence."""
    if shutil.which("redis-server") is None:
        raise RuntimeError("redis-server is not installed: run scripts/system-deps.sh")
    folder = tempfile.mkdtemp(prefix="redis-", dir="/tmp")
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
         "--dir", folder],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return Redis(folder, port, proc)
        except OSError:
            time.sleep(0.03)
    proc.kill()
    raise RuntimeError("redis-server did not answer PING")
