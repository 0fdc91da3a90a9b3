"""A raw HTTP/1.1 client: sends exactly the header lines and body it is given, reads one response.

The suite needs this rather than a library client: corpus requests carry header lines a library would refuse
or rewrite (WAFFLED's `Content_-Type`, RFC 2231 boundary continuations), and the chunked variant must frame
the body itself.
"""

import dataclasses
import http.client
import json
import random
import socket


@dataclasses.dataclass
class Response:
    """What came back: status, content type, body, and the body as JSON when it is JSON."""

    status: int
    content_type: str
    body: bytes

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None


def _chunked(body, rng):
    out = bytearray()
    offset = 0
    while offset < len(body):
        size = min(len(body) - offset, rng.choice((1, 7, 100, 1000, 4096, 65536, 300000)))
        out += b"%x\r\n" % size + body[offset:offset + size] + b"\r\n"
        offset += size
    return bytes(out + b"0\r\n\r\n")


def send(port, path, headers, body, chunked=False, timeout=120.0, seed=0):
    """POSTs `body` to 127.0.0.1:`port` with `headers` ((name, value) bytes pairs) and returns the Response."""
    head = [b"POST " + path.encode() + b" HTTP/1.1", b"Host: 127.0.0.1:%d" % port]
    head += [name + b": " + value for name, value in headers]
    if chunked:
        head.append(b"Transfer-Encoding: chunked")
        payload = _chunked(body, random.Random(seed))
    else:
        head.append(b"Content-Length: %d" % len(body))
        payload = body
    head.append(b"Connection: close")
    data = b"\r\n".join(head) + b"\r\n\r\n" + payload
    connection = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            connection.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # an early answer (a refusal) closed the connection: read what was answered
        response = http.client.HTTPResponse(connection)
        try:
            response.begin()
            content = response.read()
        except (ConnectionResetError, http.client.RemoteDisconnected, http.client.IncompleteRead) as error:
            return Response(0, "", repr(error).encode())
        return Response(response.status, response.getheader("Content-Type", ""), content)
    finally:
        connection.close()
