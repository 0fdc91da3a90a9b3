"""Backend 2: a Starlette app under uvicorn (TLS) whose multipart bodies are read by python-multipart.

`request.form()` runs `starlette.formparsers.MultiPartParser`, which drives python-multipart's
`MultipartParser` and reads the part headers with python-multipart's `parse_options_header`. The subclass
below changes one thing: a field's value is kept as the raw bytes python-multipart delivered instead of
Starlette's `_user_safe_decode` string (which falls back to latin-1), so its size and SHA-256 can be compared.
Limits are raised so that only parsing, not Starlette's defaults, decides.

Usage: starlette_backend.py CERT KEY. Binds 127.0.0.1:0 and prints `PORT n`.
"""

import hashlib
import socket
import sys

import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.responses import JSONResponse
from starlette.routing import Route

from common import announce, describe

LIMIT = 1 << 30


class RawField:
    """A field part: its raw bytes and its part headers."""

    def __init__(self, data, headers):
        self.data = data
        self.headers = headers


class RawFieldParser(MultiPartParser):
    """Starlette's multipart parser, keeping field values as bytes."""

    def on_part_end(self):
        if self._current_part.file is None:
            headers = dict(self._current_part.item_headers)
            self.items.append((self._current_part.field_name, RawField(bytes(self._current_part.data), headers)))
        else:
            super().on_part_end()


async def upload(request):
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        return JSONResponse({"backend": "python-multipart", "error": "not multipart"}, status_code=415)
    parser = RawFieldParser(request.headers, request.stream(), max_files=LIMIT, max_fields=LIMIT,
                            max_part_size=LIMIT)
    try:
        form = await parser.parse()
    except MultiPartException as error:
        return JSONResponse({"backend": "python-multipart", "error": error.message}, status_code=400)
    parts = []
    for name, value in form.multi_items():
        if isinstance(value, RawField):
            declared = value.headers.get(b"content-type")
            parts.append(describe(name, None, declared.decode("utf-8", "replace") if declared is not None else None,
                                  value.data))
        else:
            assert isinstance(value, UploadFile)
            data = await value.read()
            parts.append(describe(name, value.filename, value.content_type, data))
            await value.close()
    return JSONResponse({"backend": "python-multipart", "parts": parts,
                         "transfer_encoding": request.headers.get("transfer-encoding")})


app = Starlette(routes=[Route("/{path:path}", upload, methods=["POST", "PUT"])])


def main():
    certificate, key = sys.argv[1], sys.argv[2]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    announce(listener.getsockname()[1])
    config = uvicorn.Config(app, ssl_certfile=certificate, ssl_keyfile=key, log_level="warning",
                            timeout_keep_alive=60, h11_max_incomplete_event_size=1 << 20)
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    main()
