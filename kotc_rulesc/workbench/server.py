"""The workbench's web server: the standard library's ``ThreadingHTTPServer``, safe by default.

It listens on 127.0.0.1 unless told another address; answers only requests whose ``Host`` names it
(no DNS rebinding) and whose ``Origin`` is its own, POSTs only as JSON or a file's bytes (which a page
elsewhere cannot send without asking first); bounds bodies by the input policy; serves its own files
by name; and sends a Content-Security-Policy that runs scripts from this server alone.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Iterator
from urllib.parse import parse_qsl, unquote, urlsplit

from ..reading.policy import MAX_LINE, MAX_YAML
from .app import ROUTES, BadRequest, Workbench

__all__ = ["CSP", "Server", "STATIC", "is_loopback", "make_server", "serving"]

#: what the page may load and run: its own scripts, styles and pictures, and its requests to this server
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
_TYPES = {"html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
          "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"}
_FILES = resources.files("kotc_rulesc.workbench").joinpath("static")
#: the files the server serves, by the path it serves them at: the page at /, what it loads under /static/
STATIC = {"/" if name == "index.html" else f"/static/{name}": (name, _TYPES[name.rpartition(".")[2]])
          for name in sorted(f.name for f in _FILES.iterdir()) if name.rpartition(".")[2] in _TYPES}
#: the requests that carry a collection or its cards: as much as a YAML file may hold (others: a line's worth)
_WHOLE_COLLECTION = ("/api/check", "/api/download", "/api/collection")
#: what a POST must declare its body to be, by how the route takes it
CONTENT_TYPES = {"json": "application/json", "bytes": "application/octet-stream"}


def is_loopback(host: str) -> bool:
    """Is ``host`` (a name or an address) this machine's loopback interface only?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Server(ThreadingHTTPServer):
    """The workbench's HTTP server: a thread per connection, the :class:`Workbench` behind it."""

    daemon_threads = True  # (a page left open does not keep ^C from stopping the server)
    allow_reuse_address = False  # (another server on the port is an error, not a neighbour)

    def __init__(self, address: tuple[str, int], bench: Workbench):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.bench = bench
        self.host_name = address[0]
        self.files = {path: _FILES.joinpath(name).read_bytes() for path, (name, _) in STATIC.items()}  # (read once: the page loads fast)
        super().__init__(address, _Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host_name, self.host_name)
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}/"

    def host_allowed(self, header: str | None) -> bool:
        """Is ``header`` (a request's Host) one of this server's names, with its port?"""
        m = _HOST.fullmatch(header or "")
        if m is None or int(m.group("port") or 80) != self.port:
            return False
        name = m.group("name").lower().strip("[]")
        if name in ("localhost", self.host_name.lower().strip("[]")):
            return True
        try:
            ipaddress.ip_address(name)
            return True  # an address, not a name a DNS answer could point here
        except ValueError:
            return False


#: a Host header: a name or an IPv4 address, or an IPv6 address in brackets; then maybe a port
_HOST = re.compile(r"(?P<name>\[[0-9A-Fa-f:.]+\]|[^:\[\]/\s]+)(?::(?P<port>\d{1,5}))?")


def make_server(bench: Workbench, host: str = "127.0.0.1", port: int = 0) -> Server:
    """A server for ``bench`` listening on ``host``:``port`` (0: a free port); :class:`OSError` when
    it cannot listen there."""
    return Server((host, port), bench)


class _Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "kotc-rulesc-workbench"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    #: an answer's headers and body go out at once: with Nagle's algorithm the body waited for the
    #: client's delayed acknowledgement of the headers, 40 ms a judgement (bench/workbench_bench.py)
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # (a request is no news; a failure is answered to the page, which says it)

    def end_headers(self) -> None:
        for name, value in HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def _reply(self, status: int, content_type: str, body: bytes, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _refuse(self, status: int, why: str) -> None:
        self.close_connection = True
        self._reply(status, "application/json", json.dumps({"error": {"message": why}}).encode("utf-8"),
                    {"Connection": "close"})

    def _cross_site(self) -> str | None:
        """Why this request is not the page's own (None: it is)."""
        if not self.server.host_allowed(self.headers.get("Host")):
            return "this workbench answers requests to its own address only (the Host header names another)"
        origin = self.headers.get("Origin")
        if origin is not None and origin != f"http://{self.headers['Host']}":
            return f"requests from other sites are refused (Origin {origin})"
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return "requests from other sites are refused"
        return None

    def do_GET(self) -> None:  # noqa: N802
        self._answer("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._answer("POST")

    def do_OPTIONS(self) -> None:  # noqa: N802  (a cross-origin preflight: never granted)
        self._refuse(405, "no cross-origin access")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS

    def _answer(self, method: str) -> None:
        why = self._cross_site()
        if why is not None:
            return self._refuse(403, why)
        url = urlsplit(self.path)
        path = unquote(url.path)
        if method == "GET" and path in STATIC:
            return self._reply(200, STATIC[path][1], self.server.files[path])
        if (method, path) not in ROUTES:
            allowed = sorted({m for m, p in ROUTES if p == path} | ({"GET"} if path in STATIC else set()))
            if allowed:
                return self._refuse(405, f"{path} takes {' or '.join(allowed)}")
            return self._refuse(404, f"no such page: {path}")
        name, takes = ROUTES[method, path]
        answer = getattr(self.server.bench, name)
        try:
            if takes == "query":
                result = answer(dict(parse_qsl(url.query)))
            else:
                body = self._body(takes, path)
                if body is None:
                    return
                if takes == "json":
                    result = answer(body)
                else:
                    query = dict(parse_qsl(url.query))
                    result = answer(query.get("name") or "collection", body, query.get("edition"))
        except BadRequest as exc:
            return self._refuse(400, str(exc))
        status, content_type, data = result
        self._reply(status, content_type, data,
                    {"Content-Disposition": "attachment"} if content_type == "application/octet-stream" else None)

    def _body(self, takes: str, path: str) -> Any:
        """The request's body (decoded JSON, or bytes), or ``None`` once refused."""
        declared = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if declared != CONTENT_TYPES[takes]:
            self._refuse(415, f"{path} takes {CONTENT_TYPES[takes]}")
            return None
        length = self.headers.get("Content-Length") or ""
        if self.headers.get("Transfer-Encoding") or not length.isdigit():
            self._refuse(411, "send the body with a Content-Length")
            return None
        limit = MAX_YAML if path in _WHOLE_COLLECTION else MAX_LINE
        if int(length) > limit:
            self._refuse(413, f"a request of {int(length):,} bytes: at most {limit:,} (the input policy)")
            return None
        data = self.rfile.read(int(length))
        if takes == "bytes":
            return data
        from ..reading.json_reader import JsonProblem, json_line

        try:
            return json_line(data)
        except (JsonProblem, UnicodeDecodeError) as exc:
            self._refuse(400, f"the request is not JSON the input policy takes: {getattr(exc, 'message', exc)}")
            return None


@contextlib.contextmanager
def serving(server: Server) -> Iterator[Server]:
    """``server`` serving on a thread of its own while the block runs (``--check``, the tests, the
    screenshot), then stopped and closed."""
    thread = threading.Thread(target=server.serve_forever, name="kotc-workbench", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
