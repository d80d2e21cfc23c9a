"""A Unix-socket proxy to the real Docker engine that can be made to stop answering: what a client sees when its
engine is lost (the shared engine itself is never touched)."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

REAL_ENGINE = "/var/run/docker.sock"


class EngineProxy:
    def __init__(self, path: Path, engine: str = REAL_ENGINE):
        self.path, self.engine = Path(path), engine
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(self.path))
        self.listener.listen(64)
        self.connections: list[socket.socket] = []
        self.lock = threading.Lock()
        self.lost = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"unix://{self.path}"

    def lose(self) -> None:
        """From now on every connection is closed and no new one is accepted, as when the engine stops."""
        with self.lock:
            self.lost = True
            for connection in self.connections:
                _close(connection)
        _close(self.listener)
        self.path.unlink(missing_ok=True)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.connect(self.engine)
            with self.lock:
                if self.lost:
                    _close(client)
                    _close(upstream)
                    return
                self.connections += [client, upstream]
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        _close(source)
        _close(target)


def _close(connection: socket.socket) -> None:
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    connection.close()


if __name__ == "__main__":  # by hand: python tests/executor/engine_proxy.py SOCKET
    import signal
    import sys

    proxy = EngineProxy(Path(sys.argv[1]))
    signal.signal(signal.SIGUSR1, lambda *_: proxy.lose())
    print(proxy.url, os.getpid(), flush=True)  # SIGUSR1 loses the engine, SIGTERM ends the proxy
    while True:
        signal.pause()
