"""multipart/form-data as a server reads it (RFC 7578), for the fakes: the fake Bot API's
sendVoice and the fake transcriber parse the pet's real uploads with it. Strict on purpose: a part
without a Content-Disposition name, a body that does not end with the closing boundary, or a
boundary missing from the Content-Type is an error the fake answers with 400."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message


class MultipartError(ValueError):
    pass


@dataclass(frozen=True)
class Part:
    name: str
    data: bytes
    filename: str | None = None
    content_type: str | None = None


def boundary_of(content_type: str) -> str:
    message = Message()
    message["Content-Type"] = content_type
    if message.get_content_type() != "multipart/form-data":
        raise MultipartError(f"not multipart/form-data: {content_type!r}")
    boundary = message.get_param("boundary")
    if not isinstance(boundary, str) or not boundary:
        raise MultipartError("no boundary in the Content-Type")
    return boundary


def parse(body: bytes, content_type: str) -> dict[str, Part]:
    delimiter = b"--" + boundary_of(content_type).encode("latin-1")
    if not body.startswith(delimiter):
        raise MultipartError("the body does not start with the boundary")
    if not body.rstrip(b"\r\n").endswith(delimiter + b"--"):
        raise MultipartError("the body does not end with the closing boundary")
    parts: dict[str, Part] = {}
    for chunk in body.split(b"\r\n" + delimiter)[:-1]:
        chunk = chunk.removeprefix(delimiter).removeprefix(b"\r\n")
        head, separator, data = chunk.partition(b"\r\n\r\n")
        if not separator:
            raise MultipartError("a part without a blank line after its headers")
        headers = Message()
        for line in head.decode("utf-8").split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip()] = value.strip()
        disposition = headers.get("Content-Disposition", "")
        holder = Message()
        holder["Content-Disposition"] = disposition
        name = holder.get_param("name", header="Content-Disposition")
        if not disposition.startswith("form-data") or not isinstance(name, str):
            raise MultipartError("a part without a form-data name")
        filename = holder.get_param("filename", header="Content-Disposition")
        parts[name] = Part(
            name=name,
            data=data,
            filename=filename if isinstance(filename, str) else None,
            content_type=headers.get("Content-Type"),
        )
    return parts
