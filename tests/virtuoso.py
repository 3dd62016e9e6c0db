"""Virtuoso Open Source (Debian ``virtuoso-opensource``) started by a test, on loopback only.

Its own ini in a temporary folder (database, logs, lock), its SQL and HTTP
ports on 127.0.0.1 at free ports, no VAD directory, small buffers, no refusal by its cost estimate (as docs/deploy.md's
recipe: on the full KB it refused queries that run in seconds), a transaction limit that
lets a rebuild move a large graph in place. The dba
password is a random one, set over the SQL port through ``isql-vt``'s standard
input (never on a command line); the fresh database's public default answers
only until then, on loopback. Writes go to ``/sparql-auth`` with Digest auth.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .helpers import free_port, need

INI = """\
[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
LockFile = {dir}/virtuoso.lck
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0

[Parameters]
TransactionAfterImageLimit = {after_image_limit}
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
MaxClientConnections = 10
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = {dir}
NumberOfBuffers = 40000
MaxDirtyBuffers = 30000
ThreadsPerQuery = 2

[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {dir}
MaxClientConnections = 10
ServerThreads = 10
MaxKeepAlives = 10
KeepAliveTimeout = 10
Charset = UTF-8
EnabledGzipContent = 0

[SPARQL]
ResultSetMaxRows = {max_rows}
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime = 60
"""



@dataclass
class Virtuoso:
    process: subprocess.Popen
    folder: Path
    url: str  # the anonymous query endpoint, /sparql
    user: str
    password: str

    @property
    def env(self) -> dict[str, str]:
        """The environment a writer needs (the password through a file, as an operator would)."""
        secret = self.folder / "dba.password"
        return {"RULEKB_STORE_USER": self.user, "RULEKB_STORE_PASSWORD_FILE": str(secret)}

    def log(self) -> str:
        path = self.folder / "virtuoso.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start(folder: Path, max_rows: int = 1_000_000, after_image_limit: int = 2_000_000_000) -> Virtuoso:
    """A fresh Virtuoso in ``folder``, ready for queries and authenticated writes."""
    binary, isql = shutil.which("virtuoso-t"), shutil.which("isql-vt")
    if not (binary and isql):
        need("Virtuoso is missing (apt-get install virtuoso-opensource)")
    folder.mkdir(parents=True, exist_ok=True)
    sql_port, http_port = free_port(), free_port()
    (folder / "virtuoso.ini").write_text(INI.format(dir=folder, sql_port=sql_port, http_port=http_port,
                                                    max_rows=max_rows, after_image_limit=after_image_limit))
    out = open(folder / "stdout.log", "wb")
    process = subprocess.Popen([binary, "+configfile", str(folder / "virtuoso.ini"), "+foreground"],
                               cwd=folder, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{http_port}/sparql"
    deadline = time.monotonic() + 120
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"virtuoso-t exited: {(folder / 'virtuoso.log').read_text(errors='replace')[-2000:]}")
        try:
            urllib.request.urlopen(url + "?query=ASK%7B%7D", timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("virtuoso-t did not answer within 120 s") from None
            time.sleep(0.25)
    password = "k" + secrets.token_hex(16)  # letters and digits: a plain SQL identifier
    secret = folder / "dba.password"
    secret.touch(mode=0o600)
    secret.write_text(password + "\n")
    # the fresh database's dba password is the public default: replaced over stdin at once, and
    # checkpointed (a password set and not checkpointed is the old one again after a restart)
    statements = f'SET PASSWORD "dba" "{password}";\nCHECKPOINT;\n'
    isql_run = subprocess.run([isql, f"127.0.0.1:{sql_port}", "dba", "dba"], input=statements,
                              capture_output=True, text=True, timeout=60)
    if isql_run.returncode != 0 or "Done" not in isql_run.stdout:
        process.kill()
        raise RuntimeError("isql-vt could not set the dba password (its output is not shown: it holds the password)")
    return Virtuoso(process, folder, url, "dba", password)
