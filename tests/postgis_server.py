"""A throwaway PostgreSQL + PostGIS server for tests: Debian's packages, a real cluster.

``initdb`` into a temporary folder, trust authentication on a Unix socket in that folder only (no
TCP port is opened), started with ``pg_ctl`` and stopped and removed at the end. Run as root, the
server runs as the ``postgres`` system user (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

DATABASE = "flair"


def postgres_bin() -> Path | None:
    """Debian's newest installed PostgreSQL binaries with the PostGIS extension beside them."""
    root = Path("/usr/lib/postgresql")
    for version in sorted((p.name for p in root.glob("*") if p.name.isdigit()), key=int, reverse=True):
        if (Path("/usr/share/postgresql") / version / "extension" / "postgis.control").exists():
            return root / version / "bin"
    return None


@dataclass
class PostgisServer:
    """A running cluster: connect with :attr:`conninfo` (libpq key=value) or :meth:`uri` (QGIS)."""

    folder: Path
    bin: Path
    port: int = 5439
    _user: str | None = None

    @property
    def socket_dir(self) -> str:
        return str(self.folder / "socket")

    @property
    def conninfo(self) -> str:
        return f"host={self.socket_dir} port={self.port} dbname={DATABASE} user=postgres"

    def uri(self, table: str, field: str = "code", geometry: str = "geom", key: str = "fid") -> str:
        """A QGIS ``postgres`` provider URI of ``table``."""
        return (
            f"dbname='{DATABASE}' host={self.socket_dir} port={self.port} user='postgres' "
            f'key=\'{key}\' table="public"."{table}" ({geometry})'
        )

    def _run(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        command = list(args)
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)

    def start(self) -> None:
        if os.geteuid() == 0:
            self._user = "postgres"
            info = pwd.getpwnam(self._user)
            for path in (self.folder, self.folder / "socket"):
                path.mkdir(parents=True, exist_ok=True)
                os.chown(path, info.pw_uid, info.pw_gid)
        else:
            (self.folder / "socket").mkdir(parents=True, exist_ok=True)
        data = self.folder / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-c listen_addresses='' -c unix_socket_directories={self.socket_dir} -p {self.port} -c fsync=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w",
                  "start")  # fmt: skip
        self.sql("postgres", f"CREATE DATABASE {DATABASE}")
        self.sql(DATABASE, "CREATE EXTENSION postgis")

    def sql(self, database: str, statement: str) -> str:
        done = subprocess.run(
            [str(self.bin / "psql"), "-h", self.socket_dir, "-p", str(self.port), "-U", "postgres", "-d", database,
             "-v", "ON_ERROR_STOP=1", "-Atc", statement],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout.strip()

    def load(self, source: str, table: str) -> None:
        """Copy a vector file into ``table`` with ``ogr2ogr`` (COPY, GiST index on the geometry)."""
        subprocess.run(
            ["ogr2ogr", "-f", "PostgreSQL", f"PG:{self.conninfo}", source, "-nln", table, "-lco", "GEOMETRY_NAME=geom",
             "-lco", "FID=fid", "-lco", "SPATIAL_INDEX=GIST", "--config", "PG_USE_COPY", "YES"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        self.sql(DATABASE, f"ANALYZE {table}")

    def stop(self) -> None:
        data = self.folder / "data"
        if data.exists():
            subprocess.run(
                ([] if self._user is None else ["runuser", "-u", self._user, "--"])
                + [str(self.bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                check=False, capture_output=True,
            )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server() -> PostgisServer:
    """Start a cluster in a new temporary folder (world-traversable, so ``postgres`` can reach it)."""
    folder_bin = postgres_bin()
    if folder_bin is None:
        raise RuntimeError("PostgreSQL with PostGIS is not installed: run make setup (scripts/setup.sh)")
    folder = Path(tempfile.mkdtemp(prefix="flair-pg-"))
    folder.chmod(0o755)
    server = PostgisServer(folder / "cluster", folder_bin)
    try:
        server.start()
    except subprocess.CalledProcessError as err:
        log = server.folder / "log"
        detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        server.stop()
        raise RuntimeError(f"PostgreSQL did not start: {err.stderr}\n{detail}") from err
    return server
