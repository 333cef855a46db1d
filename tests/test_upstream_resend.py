"""The gateway's client for the game services sends a request again, once, when the
kept-alive connection it went out on closed with no answer (a service's keep-alive ran
out as the request left): on a busy machine that was a 503 for the player. A real HTTP
server on a real socket closes the first connection unanswered; a read timeout is not
sent again."""

import socket
import threading

import pytest
from referee.errors import ServiceUnavailable

from referee_gateway.upstream import Upstream

ANSWER = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n"
          b"\r\n{\"ok\": true}")


class Server(threading.Thread):
    """Answers each request after the first ``unanswered`` connections, which it closes
    (or, ``stall``: holds silent) once their request is read; counts the requests."""

    def __init__(self, unanswered: int, stall: bool = False):
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.unanswered, self.stall, self.requests, self.held = unanswered, stall, 0, []

    def run(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            connection.recv(65536)
            self.requests += 1
            if self.requests <= self.unanswered:
                if self.stall:
                    self.held.append(connection)
                else:
                    connection.close()
                continue
            connection.sendall(ANSWER)
            connection.close()


def call(server: Server, read_timeout: float = 2):
    """One call through the gateway's client to ``server``, started here and closed after."""
    server.start()
    upstream = Upstream({"g": server.url}, connect_timeout=2, read_timeout=read_timeout,
                        retry_after=1)
    try:
        return upstream.call("g", "/v1/view", {"state": {}})
    finally:
        server.listener.close()


def test_a_connection_closed_unanswered_is_sent_again_once():
    server = Server(unanswered=1)
    assert call(server) == {"ok": True}
    assert server.requests == 2


def test_closed_twice_is_a_503_after_two_sends():
    server = Server(unanswered=2)
    with pytest.raises(ServiceUnavailable):
        call(server)
    assert server.requests == 2


def test_a_read_timeout_is_not_sent_again():
    server = Server(unanswered=1, stall=True)
    with pytest.raises(ServiceUnavailable):
        call(server, read_timeout=0.5)
    assert server.requests == 1
