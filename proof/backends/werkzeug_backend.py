"""Backend 1: a Flask app whose multipart bodies are read by Werkzeug's parser, served over TLS.

The view drives `werkzeug.sansio.multipart.MultipartDecoder` over `request.stream` exactly as Werkzeug's own
`formparser.MultiPartParser.parse` does, but keeps every part's raw bytes and the order of fields and files
(`request.form` and `request.files` split them and decode field values with errors="replace").

Usage: werkzeug_backend.py CERT KEY. Binds 127.0.0.1:0 and prints `PORT n`.
"""

import json
import sys

from flask import Flask, Response, request
from werkzeug.http import parse_options_header
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData
from werkzeug.serving import make_server

from common import announce, describe

app = Flask(__name__)


def parse_multipart(stream, boundary):
    """The parts of a multipart body in order, each with its raw bytes, or raises ValueError."""
    decoder = MultipartDecoder(boundary.encode("latin-1"), max_form_memory_size=None)
    parts = []
    current = None
    chunks = []
    while True:
        data = stream.read(64 * 1024)
        decoder.receive_data(data if data else None)
        event = decoder.next_event()
        while not isinstance(event, (Epilogue, NeedData)):
            if isinstance(event, (Field, File)):
                current = event
                chunks = []
            elif isinstance(event, Data):
                chunks.append(event.data)
                if not event.more_data:
                    filename = current.filename if isinstance(current, File) else None
                    content_type = current.headers.get("content-type")
                    parts.append(describe(current.name, filename, content_type, b"".join(chunks)))
            event = decoder.next_event()
        if isinstance(event, Epilogue):
            return parts
        if not data:
            raise ValueError("body ended before the final boundary")


@app.route("/", defaults={"path": ""}, methods=["POST", "PUT"])
@app.route("/<path:path>", methods=["POST", "PUT"])
def upload(path):
    mimetype, options = parse_options_header(request.headers.get("Content-Type", ""))
    if mimetype != "multipart/form-data" or "boundary" not in options:
        return Response(json.dumps({"backend": "werkzeug", "error": "not multipart"}), 415,
                        mimetype="application/json")
    try:
        parts = parse_multipart(request.stream, options["boundary"])
    except ValueError as error:
        return Response(json.dumps({"backend": "werkzeug", "error": str(error)}), 400, mimetype="application/json")
    body = {"backend": "werkzeug", "parts": parts, "transfer_encoding": request.headers.get("Transfer-Encoding")}
    return Response(json.dumps(body), 200, mimetype="application/json")


def main():
    certificate, key = sys.argv[1], sys.argv[2]
    server = make_server("127.0.0.1", 0, app, threaded=True, ssl_context=(certificate, key))
    announce(server.server_port)
    server.serve_forever()


if __name__ == "__main__":
    main()
