"""The generated requests: seeded (random.Random(seed)), so a run is reproduced by its seed.

Random field names (ASCII, punctuation that header parsers split on, Unicode, HTML-entity and percent-escape
look-alikes), Unicode filenames, binary bodies full of boundary-like bytes, empty parts, a 500-part form,
20 MiB files, and parts the policy strips, renames or refuses. Each body is written here, by hand, with a
random client boundary (sometimes one that must be quoted), varied header spelling, and a third of the
requests chunked.
"""

import random

from .inputs import ProofRequest

ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."
PUNCTUATION = " ;=,:/?&#<>()[]{}@!$'*+|~^`"
UNICODE = "éüßøñçÅΩЖжשלוםمرحبا中文字符日本語한국어☃★♥€😀🎉\u00a0\u200b\u202e"
TRICKY_NAMES = [
    "a; filename=x.txt; b", "name=other", "x filename=y", "q;", "semi;colon", "eq=ual", "comma,field",
    "&#9731;", "file&#1234;name", "%41%42", "%2522", "tab\tname", "sp ace", " leading", "trailing ",
    "a%22b", 'quote"d', "back\\slash", "line\nfeed", "star*", "filename*=utf-8''x", "x\u2028y", "p\u2029q",
]
TRICKY_FILENAMES = [
    "a; name=other.txt", "report;.pdf", "&#9731;.txt", "snow&#9731;man.png", "x&#0034;y.txt", "%41.txt",
    "a%22b.txt", 'quo"te.txt', "C:\\Users\\me\\photo.jpg", "../../etc/passwd", "dir/file.txt", "..",
    "file name with spaces.txt", "ünïcödé.txt", "☃.png", "日本語.pdf", "e\u0301.txt", "\u202eexe.txt",
    "emoji😀.bin", "line\u2028sep.txt", "para\u2029sep.txt", "a=b.txt", "semi;.txt", "dots...txt", "  spaced  .txt", "tab\t.txt",
]
CONTENT_TYPES = [
    None, None, "text/plain", "text/plain; charset=utf-8", "application/octet-stream", "image/png",
    "application/json", "text/plain; charset=iso-8859-1", "TEXT/PLAIN", "application/x-custom+json",
]
BOUNDARY_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?"


def _name(rng):
    kind = rng.random()
    length = rng.randint(1, 24)
    if kind < 0.4:
        return "".join(rng.choice(ASCII) for _ in range(length))
    if kind < 0.6:
        return "".join(rng.choice(ASCII + PUNCTUATION) for _ in range(length))
    if kind < 0.85:
        return "".join(rng.choice(ASCII + UNICODE) for _ in range(length))
    return rng.choice(TRICKY_NAMES)


def _filename(rng):
    if rng.random() < 0.3:
        return rng.choice(TRICKY_FILENAMES)
    stem = "".join(rng.choice(ASCII + UNICODE + " ") for _ in range(rng.randint(1, 20))).strip() or "f"
    return stem + rng.choice([".txt", ".png", ".bin", ".tar.gz", "", ".JPG", ".pdf"])


def _boundary(rng):
    if rng.random() < 0.25:
        inner = "".join(rng.choice(BOUNDARY_CHARS + " ") for _ in range(rng.randint(1, 40)))
        return (inner + rng.choice(BOUNDARY_CHARS)).encode()
    return ("----pg" + "".join(rng.choice(ASCII[:62]) for _ in range(rng.randint(4, 50)))).encode()


def _data(rng, boundary, size):
    """`size` bytes: random binary with boundary-like sequences spliced in (none of them a real delimiter)."""
    if size == 0:
        return b""
    pieces = []
    total = 0
    look_alikes = [
        b"\r\n--" + boundary[:-1], b"--" + boundary, b"\r\n-" + boundary, b"\n--" + boundary,
        b"\r--" + boundary, b"\r\n--" + boundary[: len(boundary) // 2], b"\r\n\r\n", b"\r\n--", b"--\r\n",
        b"\r\n" * 5, b"Content-Disposition: form-data; name=\"evil\"\r\n\r\n",
    ]
    while total < size:
        if rng.random() < 0.15:
            piece = rng.choice(look_alikes)
        else:
            piece = rng.randbytes(min(size - total, rng.randint(1, 512)))
        pieces.append(piece)
        total += len(piece)
    return b"".join(pieces)[:size]


def _part_size(rng):
    roll = rng.random()
    if roll < 0.15:
        return 0
    if roll < 0.8:
        return rng.randint(1, 2000)
    if roll < 0.97:
        return rng.randint(2000, 200_000)
    return rng.randint(200_000, 900_000)


def encode(rng, boundary, parts, preamble=b""):
    """A multipart body from (name, filename or None, content type or None, data) tuples."""
    disposition = rng.choice([b"Content-Disposition", b"content-disposition", b"CONTENT-DISPOSITION"])
    out = bytearray(preamble)
    for name, filename, content_type, data in parts:
        out += b"--" + boundary + b"\r\n"
        out += disposition + b": form-data; name=\"" + name.encode() + b"\""
        if filename is not None:
            out += b"; filename=\"" + filename.encode() + b"\""
        out += b"\r\n"
        if content_type is not None:
            out += b"Content-Type: " + content_type.encode() + b"\r\n"
        out += b"\r\n" + data + b"\r\n"
    out += b"--" + boundary + b"--\r\n"
    return bytes(out)


def _headers(boundary, rng):
    quoted = any(c in boundary for c in b"'()+,/:=? ") or rng.random() < 0.2
    value = b'"' + boundary + b'"' if quoted else boundary
    return [(b"Content-Type", b"multipart/form-data; boundary=" + value)]


def _random_part(rng, boundary):
    has_file = rng.random() < 0.5
    roll = rng.random()
    if roll < 0.05:
        name = "internal_" + _name(rng)
    elif roll < 0.1:
        name = "legacy_" + _name(rng)
    else:
        name = _name(rng)
    filename = (_filename(rng) if rng.random() < 0.9 else "") if has_file else None
    content_type = rng.choice(CONTENT_TYPES) if has_file else rng.choice([None] * 6 + ["text/plain"])
    size = _part_size(rng) if has_file else min(_part_size(rng), 4000)
    data = _data(rng, boundary, size)
    if has_file and rng.random() < 0.03:
        data = b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x02\x00\x3e\x00" + data  # an executable: refused (415)
    return name, filename, content_type, data


def generated_requests(seed, large_mib=20, many_parts=500):
    """The generated set for `seed`, in a fixed order."""
    rng = random.Random(seed)
    requests = []

    def add(label, parts, chunked=None, preamble=b"", boundary=None):
        boundary = boundary or _boundary(rng)
        body = encode(rng, boundary, [(n, f, t, d(boundary) if callable(d) else d) for n, f, t, d in parts], preamble)
        chunked = rng.random() < 0.33 if chunked is None else chunked
        requests.append(ProofRequest("generated/%s" % label, _headers(boundary, rng), body, chunked))

    for number in range(150):
        boundary = _boundary(rng)
        parts = [_random_part(rng, boundary) for _ in range(rng.randint(1, 12))]
        add("random-%03d" % number, parts, boundary=boundary)
    for number, name in enumerate(TRICKY_NAMES):
        add("tricky-name-%02d" % number, [(name, None, None, b"value"), ("after", None, None, b"x")])
    for number, filename in enumerate(TRICKY_FILENAMES):
        add("tricky-filename-%02d" % number,
            [("file", filename, "text/plain", b"content of " + filename.encode()), ("after", None, None, b"x")])
    for number in range(10):
        boundary = _boundary(rng)
        data = _data(rng, boundary, rng.randint(1000, 100_000))
        add("boundary-like-%02d" % number, [("blob", "blob.bin", "application/octet-stream", data),
                                            ("text", None, None, _data(rng, boundary, 300))], boundary=boundary)
    add("empty-parts", [("", None, None, b""), ("empty", None, None, b""), ("nofile", "", "application/octet-stream",
                        b""), ("zero", "zero.bin", None, b""), ("z2", "z2.txt", "text/plain", b"")])
    add("empty-name-only", [("", None, None, b"")])
    # filename="" with content (empty_filename): Go reads it as a field, PHP/Django/Rack drop it; partgate names it.
    add("empty-filename-content", [("upload", "", "application/octet-stream", b"role=admin"),
                                   ("after", None, None, b"x")])
    add("preamble", [("a", None, None, b"1")], preamble=b"this is a preamble\r\n")
    add("many-parts", [("field-%03d" % i, ("f%d.txt" % i) if i % 5 == 0 else None, None, b"%d" % i)
                       for i in range(many_parts)])
    add("field-over-limit", [("big", None, None, rng.randbytes(2 * 1024 * 1024))], chunked=False)
    big = rng.randbytes(large_mib * 1024 * 1024)
    add("large-file", [("note", None, None, b"before"), ("big", "big.bin", "application/octet-stream", big),
                       ("after", None, None, b"after")], chunked=False)
    add("large-file-chunked", [("big", "big.bin", None, big[: (large_mib * 1024 * 1024) // 2] + b"\r\n--x" + big[:4096])],
        chunked=True)
    return requests
