"""Stopping is not failing: Ctrl-C on ``make run`` stops every process it started,
prints one "stopped" line and exits 0 — make included, as a person at a terminal sees it.

The launcher runs under make on a real pseudo-terminal, Ctrl-C is typed into it, and
every server it started must be gone afterwards.
"""

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.embedded import free_port

pytestmark = pytest.mark.e2e


def read_until(fd, wanted: bytes, seconds: float) -> bytes:
    seen, deadline = b"", time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal closed: everything has exited
                break
            if not chunk:
                break
            seen += chunk
    return seen


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (from /proc: servers in sessions of their own too)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def test_ctrl_c_on_make_run_stops_everything_and_exits_0(tmp_path):
    port = free_port()
    (tmp_path / "Makefile").write_text(
        f"run:\n\t{sys.executable} -m referee.stack --port {port} --ephemeral --workers 1\n")
    main, child = pty.openpty()
    make = subprocess.Popen(["make", "-s", "run"], cwd=tmp_path, stdin=child, stdout=child,
                            stderr=child, start_new_session=True,
                            preexec_fn=lambda: __import__("fcntl").ioctl(
                                0, __import__("termios").TIOCSCTTY, 0))
    os.close(child)
    try:
        started = read_until(main, b"Ctrl-C stops everything", 90)
        assert b"is serving on" in started, started.decode(errors="replace")[-2000:]
        pids = descendants(make.pid)  # the launcher, its servers and their workers
        assert len(pids) >= 3, f"the servers were not found running: {pids}"
        os.write(main, b"\x03")  # Ctrl-C, typed at the terminal
        rest = read_until(main, b"\nstopped", 60) + read_until(main, b"\x00", 3)
        assert make.wait(30) == 0, rest.decode(errors="replace")
        text = rest.decode(errors="replace")
        assert "stopped" in text.splitlines()[-1] if text.strip() else False, text
        assert "Error" not in text and "Traceback" not in text, text
    finally:
        if make.poll() is None:
            os.killpg(make.pid, 9)
        os.close(main)
    time.sleep(0.5)
    alive = [pid for pid in pids if Path(f"/proc/{pid}").exists()
             and Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"]
    assert not alive, f"servers still running after Ctrl-C: {alive}"


def test_servers_listen_on_ports_no_outgoing_connection_takes_meanwhile():
    """A port handed to a starting server is drawn below the kernel's range for outgoing
    connections (one of those took a metrics port before gunicorn bound it, once), and
    never twice."""
    from referee.embedded import LISTEN_PORTS
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == 50 and all(port in LISTEN_PORTS for port in ports)
