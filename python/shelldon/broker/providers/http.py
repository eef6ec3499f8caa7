"""One JSON POST over the standard library's http.client, with the broker's rules applied.

Why the standard library: it costs the broker ~3 MB of RSS where httpx costs ~9 MB and requests
~13 MB (docs/brain.md has the figures and `scripts/measure_http_client.py` prints them), and one
POST per turn needs nothing more. What it adds on top of http.client:

- TLS verification always on (the system's CA store through `ssl.create_default_context`).
- Proxies from the environment: HTTPS_PROXY / HTTP_PROXY / ALL_PROXY (either case), NO_PROXY
  (host suffixes, `*`, optional `:port`), with http:// proxies (CONNECT tunnel for https targets).
- One deadline for the whole exchange (connect, send, every read), a cap on the body size.
- Server-sent events: an answer served as `text/event-stream` (what a provider streams when the
  request says `"stream": true`) is read event by event into `HttpResponse.events`, so the deadline
  cuts a long generation between two tokens. A stream the deadline cut is handed back with
  `complete=False` and what arrived (the words so far are worth keeping); nothing arrived is a
  timeout. Either way the connection is closed when the call ends, so the server sees the client
  leave and, streaming, stops generating (llama.cpp frees the slot for the next turn).
- A turn abandoned before its deadline (its worker gone): the broker runs each completion in a
  `CallScope` (broker.providers.scope); `cancel()` shuts the scope's open connections down at
  once (a blocked read returns) and refuses any new one, so the abandoned call ends and the
  server sees it go.
- Failures as ProviderError kinds the chain understands; messages scrubbed of the key.

Over 400 lines: every part above acts on the one connection of one exchange under its one
deadline (the proxy picks where it goes, the deadline arms each read of the body or the event
stream, the scope shuts it down); split, each part would take the connection and the deadline
as arguments and the failure mapping would be spread over several modules.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import os
import socket
import ssl
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from shelldon.broker.providers.base import ErrorKind, ProviderError, scrub
from shelldon.broker.providers.scope import CallScope, current_scope
from shelldon.contracts.json_in import loads_mended

_SSL_CONTEXT: ssl.SSLContext | None = None
_SNIPPET_CHARS = 160
_CHUNK = 64 * 1024
# A stream repeats its framing with every token (OpenAI's chunks carry the id, the model, …): it
# may take this many times the body cap for the same words.
STREAM_FRAMING = 4


def ca_source() -> tuple[str, str]:
    """Where trust comes from: ("capath", dir) when the system has a hashed CA directory, which
    OpenSSL reads on demand (one certificate per handshake, ~1 MB less RSS than parsing the
    whole bundle); else ("default", bundle) — also whenever SSL_CERT_FILE/SSL_CERT_DIR is set."""
    paths = ssl.get_default_verify_paths()
    overridden = os.environ.get(paths.openssl_cafile_env) or os.environ.get(
        paths.openssl_capath_env
    )
    capath = paths.capath
    if not overridden and capath and os.path.isdir(capath):
        try:
            hashed = any(name.endswith(".0") for name in os.listdir(capath))
        except OSError:
            hashed = False
        if hashed:
            return "capath", capath
    return "default", paths.cafile or paths.openssl_cafile


def ssl_context() -> ssl.SSLContext:
    """Verification on, hostname checked; built once per process."""
    global _SSL_CONTEXT
    if _SSL_CONTEXT is None:
        kind, where = ca_source()
        if kind == "capath":
            _SSL_CONTEXT = ssl.create_default_context(capath=where)
        else:
            _SSL_CONTEXT = ssl.create_default_context()
    return _SSL_CONTEXT


@dataclass(frozen=True)
class SseEvent:
    """One server-sent event: its `event:` name ("" when the stream names none, as OpenAI's
    chunks) and its `data:` lines joined."""

    event: str
    data: str


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: Mapping[str, str]  # lower-cased names
    body: bytes
    # A 2xx answer served as text/event-stream: its events, and whether the stream reached its
    # end (False: the deadline cut it, `events` is what arrived before).
    events: tuple[SseEvent, ...] | None = None
    complete: bool = True

    def json(self) -> Any:
        """The body as JSON, every string encodable (contracts.json_in.loads_mended)."""
        return loads_mended(self.body)


@dataclass(frozen=True)
class Proxy:
    host: str
    port: int
    authorization: str | None  # a Proxy-Authorization header value, from user:pass in the URL


def _env(environ: Mapping[str, str], name: str) -> str:
    return environ.get(name.lower()) or environ.get(name.upper()) or ""


def proxy_for(url: str, environ: Mapping[str, str] | None = None) -> Proxy | None:
    """The proxy the environment names for `url`; None for direct (or bypassed by NO_PROXY)."""
    env = os.environ if environ is None else environ
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if _bypassed(host, port, _env(env, "no_proxy")):
        return None
    raw = _env(env, f"{parts.scheme}_proxy") or _env(env, "all_proxy")
    if not raw:
        return None
    if "://" not in raw:
        raw = "http://" + raw
    proxy = urlsplit(raw)
    if proxy.scheme != "http" or not proxy.hostname:
        raise ProviderError("connect", f"unsupported proxy scheme {proxy.scheme!r} (http:// only)")
    authorization = None
    if proxy.username is not None:
        import base64  # only when a proxy wants credentials

        pair = f"{unquote(proxy.username)}:{unquote(proxy.password or '')}".encode()
        authorization = "Basic " + base64.b64encode(pair).decode("ascii")
    return Proxy(proxy.hostname, proxy.port or 8080, authorization)


def _bypassed(host: str, port: int, no_proxy: str) -> bool:
    for item in (part.strip().lower() for part in no_proxy.split(",")):
        if not item:
            continue
        if item == "*":
            return True
        name, _, item_port = item.partition(":") if item.count(":") == 1 else (item, "", "")
        if item_port and item_port != str(port):
            continue
        name = name.lstrip("*").lstrip(".")
        if host == name or host.endswith("." + name):
            return True
    return False


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Retry-After as seconds: delta-seconds or an HTTP date. Garbage → None."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():  # "³" is a digit to isdigit, and no number to int
        return float(min(int(value[:9]), 86_400))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, min(when.timestamp() - current, 86_400.0))


def post_json(
    url: str,
    payload: Mapping[str, Any],
    headers: Mapping[str, str],
    *,
    timeout: float,
    connect_timeout: float,
    max_bytes: int,
    secrets: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> HttpResponse:
    """POST `payload` as JSON; any status comes back as an HttpResponse (the caller judges it).

    Raises ProviderError: connect (DNS, refused, TLS, proxy), timeout (the whole exchange past
    `timeout` seconds, or the call's CallScope cancelled), malformed (a body cut short or larger
    than `max_bytes`).
    """
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    return exchange(
        "POST",
        url,
        (body,),
        {"Content-Type": "application/json", "Accept": "application/json", **headers},
        timeout=timeout,
        connect_timeout=connect_timeout,
        max_bytes=max_bytes,
        secrets=secrets,
        environ=environ,
        clock=clock,
    )


def exchange(
    method: str,
    url: str,
    body: Sequence[bytes | memoryview],
    headers: Mapping[str, str],
    *,
    timeout: float,
    connect_timeout: float,
    max_bytes: int,
    secrets: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> HttpResponse:
    """One request whose body is `body`'s parts sent one after the other (a multipart upload
    sends the note's bytes as they are, never joined into a second copy); GET with `()`. The
    rules and errors of `post_json`; the connection lives in the current CallScope, if any."""
    scope = current_scope()
    try:
        response = _exchange(
            method,
            url,
            body,
            headers,
            timeout=timeout,
            connect_timeout=connect_timeout,
            max_bytes=max_bytes,
            secrets=secrets,
            environ=environ,
            clock=clock,
            scope=scope,
        )
    except ProviderError:
        if scope is not None and scope.cancelled:  # our own shutdown, not the server's doing
            raise ProviderError("timeout", "the turn was abandoned") from None
        raise
    if scope is not None and scope.cancelled:  # a stream our shutdown ended looks complete
        raise ProviderError("timeout", "the turn was abandoned")
    return response


def _exchange(
    method: str,
    url: str,
    body: Sequence[bytes | memoryview],
    headers: Mapping[str, str],
    *,
    timeout: float,
    connect_timeout: float,
    max_bytes: int,
    secrets: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    clock: Callable[[], float] = time.monotonic,
    scope: CallScope | None = None,
) -> HttpResponse:
    """exchange's request, its connection open in `scope` while it lasts."""
    secret_list = [s for s in secrets if s]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProviderError("client", "not an http(s) URL")
    deadline = clock() + timeout
    target_port = parts.port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    proxy = proxy_for(url, environ)

    conn: http.client.HTTPConnection
    connect_wait = min(connect_timeout, timeout)
    if proxy is None:
        conn = _connection(parts.scheme, parts.hostname, target_port, connect_wait)
    elif parts.scheme == "https":
        conn = _connection("https", proxy.host, proxy.port, connect_wait)
        tunnel_headers = (
            {"Proxy-Authorization": proxy.authorization} if proxy.authorization else None
        )
        conn.set_tunnel(parts.hostname, target_port, headers=tunnel_headers)
    else:
        conn = _connection("http", proxy.host, proxy.port, connect_wait)
        path = url  # plain http through a proxy: the absolute URI
    request_headers = {"User-Agent": "shelldon", **headers}
    if body or method != "GET":
        request_headers["Content-Length"] = str(sum(len(part) for part in body))
    if proxy is not None and proxy.authorization and parts.scheme == "http":
        request_headers["Proxy-Authorization"] = proxy.authorization
    what = "connecting"
    try:
        if scope is not None:
            scope.enter(conn)
        conn.connect()
        what = "sending"
        _arm(conn, deadline, clock)
        conn.putrequest(method, path)
        for name, value in request_headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        for part in body:
            _arm(conn, deadline, clock)
            conn.send(part)
        what = "waiting for the answer"
        response = conn.getresponse()
        what = "reading the answer"
        content_type = (response.getheader("Content-Type") or "").lower()
        if 200 <= response.status < 300 and content_type.startswith("text/event-stream"):
            what = "reading the stream"
            events, complete = _read_events(conn, response, max_bytes, deadline, clock)
            return HttpResponse(
                status=response.status,
                headers={k.lower(): v for k, v in response.getheaders()},
                body=b"",
                events=events,
                complete=complete,
            )
        data = _read_body(conn, response, max_bytes, deadline, clock)
        return HttpResponse(
            status=response.status,
            headers={k.lower(): v for k, v in response.getheaders()},
            body=data,
        )
    except ProviderError:
        raise
    except TimeoutError:
        raise ProviderError("timeout", f"no answer within {timeout:.1f}s ({what})") from None
    except ssl.SSLCertVerificationError as exc:
        raise ProviderError("connect", f"TLS verification failed: {exc.verify_message}") from None
    except http.client.IncompleteRead as exc:
        raise ProviderError("malformed", f"body cut short after {len(exc.partial)} bytes") from None
    except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as exc:
        kind: ErrorKind = (
            "connect"
            if what in ("connecting", "sending", "waiting for the answer")
            else "malformed"
        )
        raise ProviderError(
            kind, f"connection closed while {what} ({type(exc).__name__})"
        ) from None
    except http.client.HTTPException as exc:
        raise ProviderError(
            "malformed", scrub(f"bad HTTP while {what}: {exc}", secret_list)
        ) from None
    except OSError as exc:
        detail = exc.strerror or str(exc) or type(exc).__name__  # e.g. a proxy's 407
        if isinstance(exc, socket.gaierror):
            detail = f"cannot resolve host ({detail})"
        raise ProviderError("connect", scrub(f"{detail} while {what}", secret_list)) from None
    finally:
        if scope is not None:
            scope.leave(conn)
        conn.close()


def _connection(scheme: str, host: str, port: int, timeout: float) -> http.client.HTTPConnection:
    if scheme == "https":
        return http.client.HTTPSConnection(host, port, timeout=timeout, context=ssl_context())
    return http.client.HTTPConnection(host, port, timeout=timeout)


def _arm(conn: http.client.HTTPConnection, deadline: float, clock: Callable[[], float]) -> None:
    """Give the socket what is left of the exchange's deadline."""
    remaining = deadline - clock()
    if remaining <= 0:
        raise TimeoutError
    if conn.sock is not None:
        conn.sock.settimeout(remaining)


def _read_body(
    conn: http.client.HTTPConnection,
    response: http.client.HTTPResponse,
    max_bytes: int,
    deadline: float,
    clock: Callable[[], float],
) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        _arm(conn, deadline, clock)
        chunk = response.read1(_CHUNK) if hasattr(response, "read1") else response.read(_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > max_bytes:
            raise ProviderError("malformed", f"answer larger than {max_bytes} bytes")
        chunks.append(chunk)
    declared = response.getheader("Content-Length")
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) != size:
        raise ProviderError("malformed", f"body cut short: {size} of {declared} bytes")
    return b"".join(chunks)


# The events that end a stream, as each wire marks it: OpenAI's `data: [DONE]`, Anthropic's
# `message_stop`. Reading stops there (a server may keep the connection open after it).
_STREAM_END_DATA = "[DONE]"
_STREAM_END_EVENT = "message_stop"


def _read_events(
    conn: http.client.HTTPConnection,
    response: http.client.HTTPResponse,
    max_bytes: int,
    deadline: float,
    clock: Callable[[], float],
) -> tuple[tuple[SseEvent, ...], bool]:
    """The stream's events up to its end marker or EOF (complete), or up to the deadline (not
    complete; a timeout when nothing arrived). Lines as the SSE format defines them: `event:`,
    `data:` (several join with newlines), `:` comments, a blank line ends an event."""
    events: list[SseEvent] = []
    pending = b""
    size = 0
    name, data_lines = "", []
    while True:
        try:
            _arm(conn, deadline, clock)
            chunk = response.read1(_CHUNK)
        except TimeoutError:
            if not events:
                raise
            return tuple(events), False
        if not chunk:  # EOF: the server ended the stream (an event it did not end with a blank
            # line still counts)
            last = pending.rstrip(b"\r").decode("utf-8", "replace")
            if last.startswith("data:"):
                data_lines.append(last[5:].removeprefix(" "))
            if data_lines and "\n".join(data_lines) != _STREAM_END_DATA:
                events.append(SseEvent(name, "\n".join(data_lines)))
            return tuple(events), True
        size += len(chunk)
        if size > max_bytes * STREAM_FRAMING:
            raise ProviderError(
                "malformed", f"stream larger than {max_bytes * STREAM_FRAMING} bytes"
            )
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8", "replace")
            if line:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    name = value
                elif field == "data":
                    data_lines.append(value)
                continue  # a comment (": ping"), an id or retry field: nothing to keep
            if not data_lines and not name:
                continue
            event = SseEvent(name, "\n".join(data_lines))
            name, data_lines = "", []
            if event.data == _STREAM_END_DATA or event.event == _STREAM_END_EVENT:
                return tuple(events), True
            events.append(event)


def error_snippet(response: HttpResponse, secrets: Iterable[str] = ()) -> str:
    """A short, scrubbed description of an error answer (its JSON error message if it has one)."""
    text = ""
    try:
        parsed = response.json()
    except (ValueError, RecursionError):
        parsed = None
    if isinstance(parsed, dict):
        error = parsed.get("error", parsed)
        if isinstance(error, dict):
            text = str(error.get("message") or error.get("type") or error.get("code") or "")
        elif isinstance(error, str):
            text = error
    if not text:
        text = response.body[: _SNIPPET_CHARS * 2].decode("utf-8", "replace")
    text = " ".join(text.split())[:_SNIPPET_CHARS]
    return scrub(text, secrets)


def raise_for_status(response: HttpResponse, secrets: Iterable[str] = ()) -> None:
    """Map a non-2xx answer to the ProviderError the chain acts on."""
    status = response.status
    if 200 <= status < 300:
        return
    detail = f"HTTP {status}: {error_snippet(response, secrets)}".rstrip(": ")
    retry_after = retry_after_seconds(response.headers.get("retry-after"))
    if status == 429:
        raise ProviderError("rate_limited", detail, retry_after=retry_after, status=status)
    if status == 408:
        raise ProviderError("timeout", detail, status=status)
    if status >= 500:
        raise ProviderError("server", detail, retry_after=retry_after, status=status)
    raise ProviderError("client", detail, status=status)
