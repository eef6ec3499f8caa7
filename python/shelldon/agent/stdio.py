"""The agent face's wire: MCP over stdin/stdout, each client line screened before the SDK reads
it, and every request the client sent answered before the server ends.

Three things the SDK's own stdio transport does not do, and why they are here:
- A line it cannot read is dropped without a word, and the client waits for ever. `screen_line`
  answers every such line with the JSON-RPC error its fault deserves.
- It runs whatever arrives whenever it arrives: a tool call before `initialize` wrote memory, a
  second `initialize` was answered as the first, and a request reusing an earlier id was run
  (its answer indistinguishable from the other's). `_Lifecycle` refuses each with -32600 (MCP
  2025-06-18, "Lifecycle" and "Base Protocol": initialize first and once, only ping before
  it; an id never reused in a session); a notification out of turn is dropped and logged.
- When the client closes stdin, the SDK cancels the calls still running, so a client that
  writes its requests and then closes its end (a script, a pipe, a test harness) loses the
  replies of every call not finished yet, though their writes were done. Here the end of input
  waits, at most `ANSWER_AFTER_EOF_S`, until every request passed on has its answer
  (`_Answers`), then ends the session. A request the client cancelled
  (`notifications/cancelled`) is not waited for: the protocol gives it no answer.

Over 400 lines: the screen, the lifecycle, the answers owed and the reader that joins them are
one wire, each the answer to a hostile client's probe (docs/agents.md); split, the reader would
import every part of it back.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import json
import logging
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shelldon import digests

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)

# `check_call(tool, arguments)`: why the arguments do not fit the tool (one line), or None.
CallCheck = Callable[[str, dict[str, Any]], str | None]

# A message larger than this is refused unread (a memory entry holds at most 64,000 characters;
# a digest is a few kilobytes).
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64  # levels of arrays and objects in one message: no tool argument needs more
# How long the end of input waits for the answers still owed. A tool call is local file work
# (milliseconds) except memory_reflect without facts, which asks the configured model: its
# request has a deadline of its own, shorter than this.
ANSWER_AFTER_EOF_S = 120.0
_PARSE_ERROR, _INVALID_REQUEST, _INVALID_PARAMS = -32700, -32600, -32602
# The tools `build_server` registers (tests/agent/test_server.py holds the two lists equal). A
# call to any other name is a protocol error (-32602, MCP 2025-06-18 "Error Handling"), not a
# tool's failed result: there is no tool to have failed.
TOOL_NAMES = frozenset(
    {
        "memory_recall",
        "memory_list",
        "memory_read",
        "memory_write",
        "memory_delete",
        "memory_note_request",
        "memory_reflect",
    }
)
# This server offers no prompts and no resources, though the SDK advertised both (its
# `prompts/get` answered with code 0 and a traceback, `resources/read` echoed the URI): they are
# left out of the capabilities and every such method is -32601. Nor argument completion (never
# advertised; the SDK answered `completion/complete` with -32602, as if the arguments were wrong).
_NOT_OFFERED = frozenset({"prompts", "resources", "completion"})
_METHOD_NOT_FOUND = -32601
_SAYABLE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# The request's id, read from the head of a line that is not JSON (so its client still gets an
# answer to wait on): the first "id" member with a number or a string.
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\\n]|\\.){0,200}")')


class _NotStrictJson(ValueError):
    """JSON that Python reads and a strict parser does not: NaN or Infinity, or a name twice in
    one object (which one counts is the parser's choice: the SDK took the last "id", so the
    client waited for ever on the first)."""


def _no_constant(name: str) -> Any:
    raise _NotStrictJson(f"{name} is not JSON")


def _unique_names(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _NotStrictJson("a name repeats in one object")
    return found


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` levels (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def screen_line(line: bytes) -> tuple[str | None, dict[str, Any] | None]:
    """One line from the client: (its text, to pass to the SDK) when it is one well-formed
    JSON-RPC message, else (None, the JSON-RPC error to answer with), or (None, None) for a
    malformed notification (never answered: it is dropped and logged). Every line the SDK would
    drop is answered: not UTF-8, not JSON, not strict JSON (NaN, Infinity, a name twice in one
    object), nested too deep, over MAX_MESSAGE_BYTES -> parse error (-32700); a `prompts/*`,
    `resources/*` or `completion/*` request -> method not found (-32601: none is offered); a
    batch (MCP 2025-06-18 has none), or not a JSON-RPC message -> invalid request (-32600); a string
    holding a lone surrogate (not Unicode), or a `tools/call` of a tool this server does not
    have -> invalid params (-32602; the name is echoed only when it is a plain identifier).
    The id is the message's when it can be read, null otherwise (JSON-RPC 2.0, section 5). A
    request whose id is null, a fraction or a boolean -> invalid request (MCP requests carry a
    string or an integer; the SDK would take it for a notification and answer nothing)."""
    text, refusal, _ = _screen(line)
    return text, refusal


def _screen(line: bytes) -> tuple[str | None, dict[str, Any] | None, dict[str, Any] | None]:
    """`screen_line`, and the message as parsed when it passes (for `_Answers`)."""
    import mcp_types
    from pydantic import ValidationError

    def error(code: int, message: str, req_id: Any = None) -> tuple[None, dict[str, Any], None]:
        found = None if isinstance(req_id, bool) else req_id
        if found is None and code == _PARSE_ERROR and (m := _ID.search(line[:4096])):
            with contextlib.suppress(ValueError):
                found = json.loads(m.group(1))
        if not isinstance(found, (int, str)) or isinstance(found, bool):
            found = None
        refusal = {"jsonrpc": "2.0", "id": found, "error": {"code": code, "message": message}}
        return None, refusal, None

    if len(line) > MAX_MESSAGE_BYTES:
        return error(_PARSE_ERROR, f"Parse error: a message over {MAX_MESSAGE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
        raw = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_names)
    except UnicodeDecodeError:
        return error(_PARSE_ERROR, "Parse error: not UTF-8")
    except _NotStrictJson as exc:
        return error(_PARSE_ERROR, f"Parse error: {exc}")
    except (ValueError, RecursionError):
        return error(_PARSE_ERROR, "Parse error: not one JSON value (or nested too deep)")
    if isinstance(raw, list):
        return error(_INVALID_REQUEST, "Invalid Request: batches are not supported")
    req_id = raw.get("id") if isinstance(raw, dict) else None
    if _deeper_than(raw, MAX_DEPTH):  # Python 3.13's parser takes 3,000 levels; the SDK did not
        return error(_PARSE_ERROR, "Parse error: nested too deep", req_id)
    try:
        json.dumps(raw, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return error(_INVALID_PARAMS, "Invalid params: a string holds a lone surrogate", req_id)
    except (ValueError, RecursionError):
        return error(_PARSE_ERROR, "Parse error: nested too deep", req_id)
    if isinstance(raw, dict) and "method" in raw and "id" in raw and not _is_id(req_id):
        # MCP: a request's id is a string or an integer, never null. The SDK would read this one
        # as a notification and answer nothing.
        return error(_INVALID_REQUEST, "Invalid Request: an id must be a string or an integer")
    try:
        mcp_types.jsonrpc_message_adapter.validate_python(raw, by_name=False)
    except (ValidationError, RecursionError):
        if isinstance(raw, dict) and isinstance(raw.get("method"), str) and "id" not in raw:
            # A notification is never answered (JSON-RPC 2.0, section 4.1), even a malformed
            # one: an error with a null id would reach a client that asked nothing.
            return None, None, None
        return error(_INVALID_REQUEST, "Invalid Request: not a JSON-RPC message", req_id)
    params = raw.get("params")
    method = raw.get("method")
    if isinstance(method, str) and method.split("/")[0] in _NOT_OFFERED and "id" in raw:
        # Not advertised (`serve_stdio` takes them out of the capabilities): no resource or
        # prompt exists, and a URI or a name the client sent is not echoed back.
        kind = method.split("/")[0]
        return error(_METHOD_NOT_FOUND, f"Method not found: this server offers no {kind}", req_id)
    if raw.get("method") == "tools/call" and "id" in raw and isinstance(params, dict):
        name = params.get("name")
        if name not in TOOL_NAMES:
            said = f": {name}" if isinstance(name, str) and _SAYABLE_NAME.fullmatch(name) else ""
            return error(_INVALID_PARAMS, f"Unknown tool{said}", req_id)
    return text, None, raw


def _shown(method: Any) -> str:
    """A method's name for a log line: itself when it is a plain name, else its length."""
    if isinstance(method, str) and re.fullmatch(r"[A-Za-z0-9_./-]{1,64}", method):
        return method
    return f"a method name of {len(str(method))} characters"


def _is_id(value: Any) -> bool:
    """Whether `value` can be a request's id (MCP 2025-06-18: a string or an integer)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


class _Lifecycle:
    """What the session accepts next (MCP 2025-06-18): `initialize` first and once (only `ping`
    may come before it), and no request id twice in one session. `check` returns the JSON-RPC
    error (code, message) for a message out of turn, or None."""

    _ID_KEPT_CHARS = 64  # a longer string id is remembered by its hash

    def __init__(self) -> None:
        self.initialized = False
        self._ids: set[tuple[str, Any]] = set()

    def check(self, message: dict[str, Any]) -> tuple[int, str] | None:
        method = message.get("method")
        if method is None:
            return None  # the client's answer to a request of the server's
        if "id" in message and not self.use(message["id"]):
            return _INVALID_REQUEST, "Invalid Request: this id was used before in the session"
        if method == "initialize":
            if self.initialized:
                return _INVALID_REQUEST, "Invalid Request: the session is already initialized"
            import mcp_types
            from pydantic import ValidationError

            try:
                mcp_types.InitializeRequestParams.model_validate(message.get("params"))
            except ValidationError:
                return _INVALID_PARAMS, "Invalid params: not the params of an initialize request"
            self.initialized = True
        elif not self.initialized and method != "ping":
            return _INVALID_REQUEST, "Invalid Request: the session is not initialized yet"
        return None

    def use(self, req_id: Any) -> bool:
        """Note `req_id` as used (a request the screen refused used its id too); whether it
        was new."""
        key = self._id_key(req_id)
        if key in self._ids:
            return False
        self._ids.add(key)
        return True

    def _id_key(self, req_id: Any) -> tuple[str, Any]:
        if isinstance(req_id, str):
            if len(req_id) > self._ID_KEPT_CHARS:
                return "sha256", digests.sha256_hex(req_id.encode("utf-8", "surrogatepass"))
            return "str", req_id
        return "int", req_id


class _Answers:
    """The requests passed on to the SDK and not answered yet, counted by id (a client may
    reuse one), so the end of input can wait for them."""

    def __init__(self) -> None:
        import anyio

        self._owed: collections.Counter[Any] = collections.Counter()
        self._settled = anyio.Event()
        self._settled.set()

    def asked(self, message: dict[str, Any]) -> None:
        """A message passed on: a request is owed an answer; a cancellation forgives one."""
        import anyio

        if "method" not in message:
            return  # the client's answer to a request of the server's
        if _is_id(message.get("id")):
            self._owed[message["id"]] += 1
            if self._settled.is_set():
                self._settled = anyio.Event()
            return
        params = message.get("params")
        if message["method"] == "notifications/cancelled" and isinstance(params, dict):
            self._forgive(params.get("requestId"))

    def answered(self, message: Any) -> None:
        """A message the SDK sent: a response or an error pays what its id owed."""
        if getattr(message, "method", None) is None and hasattr(message, "id"):
            self._forgive(message.id)

    def _forgive(self, req_id: Any) -> None:
        if _is_id(req_id) and self._owed[req_id] > 0:
            self._owed[req_id] -= 1
            if self._owed[req_id] == 0:
                del self._owed[req_id]
        if not self._owed:
            self._settled.set()

    @property
    def owed(self) -> int:
        return sum(self._owed.values())

    async def settled(self, within_s: float) -> bool:
        """Wait until nothing is owed, at most `within_s`; whether everything was answered."""
        import anyio

        with anyio.move_on_after(within_s):
            while not self._settled.is_set():
                await self._settled.wait()
        return not self._owed


class _CountingReplies:
    """The SDK's write stream, telling `_Answers` of each message once the transport's writer
    has taken it (a 0-buffer stream: the writer then writes it, and is not cancelled)."""

    def __init__(self, inner: Any, answers: _Answers) -> None:
        self._inner = inner
        self._answers = answers

    async def send(self, item: Any) -> None:
        await self._inner.send(item)
        self._answers.answered(getattr(item, "message", None))

    async def __aenter__(self) -> _CountingReplies:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _ScreenedStdin:
    """The client's lines as the SDK's stdio reader iterates them, each screened first
    (`screen_line`); a refused one is answered through the SDK's writer and logged (its size and
    hash, never its text). Lines are read from a private duplicate of fd 0; fd 0 itself points at
    the null device while serving, as the SDK does (a child process reads EOF). At the end of
    input it waits for the answers still owed before it ends the iteration (the module's
    opening comment says why)."""

    def __init__(self, fd: int, answers: _Answers, check_call: CallCheck | None = None) -> None:
        import anyio

        self._file = open(fd, "rb", closefd=True)  # noqa: SIM115 (closed by aclose)
        self._answers = answers
        self._check_call = check_call
        self._lifecycle = _Lifecycle()
        self.reply: Any = None
        self.ready = anyio.Event()

    def __aiter__(self) -> _ScreenedStdin:
        return self

    async def __anext__(self) -> str:
        import anyio
        from mcp.shared.message import SessionMessage
        from mcp_types import jsonrpc_message_adapter

        def readline(size: int) -> Any:
            return anyio.to_thread.run_sync(self._file.readline, size, abandon_on_cancel=True)

        while True:
            line = await readline(MAX_MESSAGE_BYTES + 1)
            if not line:
                await self._end_of_input()
                raise StopAsyncIteration
            if len(line) > MAX_MESSAGE_BYTES and not line.endswith(b"\n"):
                while (rest := await readline(MAX_MESSAGE_BYTES)) and not rest.endswith(b"\n"):
                    pass  # the rest of an oversized line, dropped unread
            if not line.strip():
                continue
            text, refusal, message = _screen(line)
            if text is None and refusal is None:
                log.info(
                    "dropped a malformed notification: %d bytes, sha256 %s",
                    len(line),
                    digests.sha256_hex(line)[:16],
                )
                continue
            if text is not None:
                assert message is not None
                if (out_of_turn := self._lifecycle.check(message)) is None:
                    if (failed := self._arguments_refused(message)) is not None:
                        log.info("refused a tool call (%s)", failed)
                        await self.ready.wait()
                        result = {"content": [{"type": "text", "text": failed}], "isError": True}
                        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
                        reply = jsonrpc_message_adapter.validate_python(answer, by_name=False)
                        await self.reply.send(SessionMessage(reply))
                        continue
                    self._answers.asked(message)
                    return text
                code, said = out_of_turn
                if "id" not in message:  # a notification: nothing to answer
                    log.info("dropped a notification (%s): %s", said, _shown(message["method"]))
                    continue
                error = {"code": code, "message": said}
                refusal = {"jsonrpc": "2.0", "id": message["id"], "error": error}
            assert refusal is not None
            if _is_id(refusal["id"]):
                self._lifecycle.use(refusal["id"])
            log.info(
                "refused a message (%s): %d bytes, sha256 %s",
                refusal["error"]["message"],
                len(line),
                digests.sha256_hex(line)[:16],
            )
            await self.ready.wait()
            reply = jsonrpc_message_adapter.validate_python(refusal, by_name=False)
            await self.reply.send(SessionMessage(reply))

    def _arguments_refused(self, message: dict[str, Any]) -> str | None:
        """A tool call whose arguments do not fit the tool's schema: its one-line reason
        (`check_call`), answered as the tool's failed result (isError) without running it."""
        params = message.get("params")
        if self._check_call is None or message.get("method") != "tools/call" or "id" not in message:
            return None
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return None
        arguments = params.get("arguments")
        if arguments is not None and not isinstance(arguments, dict):
            return None  # not an object: the SDK answers -32602
        return self._check_call(params["name"], arguments or {})

    async def _end_of_input(self) -> None:
        owed = self._answers.owed
        if not owed:
            return
        log.info("the client closed its input with %d answer(s) owed: answering them first", owed)
        if not await self._answers.settled(ANSWER_AFTER_EOF_S):
            log.warning(
                "%d answer(s) still owed after %.0f s: the session ends without them",
                self._answers.owed,
                ANSWER_AFTER_EOF_S,
            )

    def close(self) -> None:
        self._file.close()


async def serve_stdio(server: MCPServer, check_call: CallCheck | None = None) -> None:
    """`server` on stdin/stdout: the SDK's stdio transport (which owns fd 1: the wire through a
    private duplicate, fd 1 on stderr) fed by `_ScreenedStdin`. `check_call(tool, arguments)`:
    why a tool call's arguments do not fit (one line), or None; such a call never reaches the
    SDK, whose validation error is pydantic's report, several lines with a URL and the values
    the client sent."""
    from mcp.server.stdio import stdio_server

    wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    answers = _Answers()
    stdin = _ScreenedStdin(wire_in, answers, check_call)
    try:
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):  # type: ignore[arg-type]
            stdin.reply = write_stream  # a refusal pays nothing owed: it was never passed on
            replies = _CountingReplies(write_stream, answers)
            stdin.ready.set()
            lowlevel = server._lowlevel_server
            options = lowlevel.create_initialization_options()
            # Only tools are served: no prompts, no resources advertised (`_NOT_OFFERED`).
            options.capabilities.prompts = None
            options.capabilities.resources = None
            await lowlevel.run(read_stream, replies, options)
    except* (BrokenPipeError, ConnectionResetError):
        # The client closed its end without reading its replies: the session is over. A call in
        # flight finished its write (its audit line with it); nothing later was started.
        log.info("the client closed its end of the pipe; the session ends")
    finally:
        stdin.close()
