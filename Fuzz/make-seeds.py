#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/<Target>/ (see Fuzz/README.md).

Seeds are hand-written inputs plus bodies and header values taken from the shared conformance corpus
(shared/corpus beside the repository, or the path given as the first argument). Files are written under
fixed names, so re-running only rewrites the seeds; inputs added by hand or from fuzzing runs stay.

FuzzMultipart and FuzzRoundTrip read structured inputs; the layouts are documented in
Fuzz/FuzzMultipart/MultipartCase.swift and Fuzz/FuzzRoundTrip/FormBuilder.swift and mirrored here.
"""
import json
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(ROOT, "corpus")
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "..", "shared", "corpus")
MAX_BODY = 4096  # keep the committed corpus small

# StrictFlag cases with a choice of action, in declaration order (MultipartCase.choosableFlags).
CHOOSABLE = ["preamble", "epilogue", "transport_padding", "lf_line", "missing_final_boundary",
             "header_folding", "filename_extended", "unsafe_filename", "invalid_utf8",
             "content_transfer_encoding", "nested_multipart"]
# Two bits per flag: 0 default, 1 reject, 2 normalize (allow for nested_multipart), 3 allow where permitted.
LENIENT = sum(2 << (2 * i) for i in range(len(CHOOSABLE)))


def strict(**choices):
    word = 0
    for name, choice in choices.items():
        word |= choice << (2 * CHOOSABLE.index(name))
    return word


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as file:
        file.write(data)


def multipart_case(boundary, body, strictness=0, small=0, scale=0, pieces=(), checkpoint=128):
    """[boundary length - 1][boundary][strictness x3][limits x2][checkpoint][piece count][piece size - 1 ...][body]"""
    assert 1 <= len(boundary) <= 70 and len(pieces) < 16 and all(1 <= p <= 256 for p in pieces)
    return (bytes([len(boundary) - 1]) + boundary + strictness.to_bytes(3, "little")
            + bytes([small, scale, checkpoint, len(pieces)]) + bytes(p - 1 for p in pieces) + body)


def crlf(text):
    return text.replace("\n", "\r\n").encode()


def part(name, data, extra=""):
    return f"--B\nContent-Disposition: form-data; name=\"{name}\"\n{extra}\n{data}\n"


# ---------------------------------------------------------------------------------------------------------
# FuzzContentType: request Content-Type values.
CONTENT_TYPES = {
    "token": "multipart/form-data; boundary=abc",
    "quoted": 'multipart/form-data; boundary="a b:c?d"',
    "upper": "Multipart/Form-Data; BOUNDARY=XyZ",
    "webkit": "multipart/form-data; boundary=----WebKitFormBoundaryTkr3kCBQlBe1nrhc",
    "charset-first": "multipart/form-data; charset=utf-8; boundary=x",
    "ows": "\t multipart/form-data ;  boundary=x ; \t",
    "max-70": "multipart/form-data; boundary=" + "b" * 70,
    "over-71": "multipart/form-data; boundary=" + "b" * 71,
    "trailing-space": 'multipart/form-data; boundary="ab "',
    "duplicate": "multipart/form-data; boundary=a; boundary=b",
    "continuation": "multipart/form-data; boundary*0=re; boundary*1=al",
    "extended": "multipart/form-data; boundary*=utf-8''abc",
    "empty-quoted": 'multipart/form-data; boundary=""',
    "missing": "multipart/form-data",
    "mixed": "multipart/mixed; boundary=abc",
    "space-around-eq": "multipart/form-data; boundary = abc",
    "quoted-pair": 'multipart/form-data; boundary="a\\"b"',
    "nul": "multipart/form-data; boundary=ab\0\0 10",
    "semicolons": "multipart/form-data;;; boundary=abc;",
    "garbage-after": 'multipart/form-data; boundary="abc"x',
    "bchars": "multipart/form-data; boundary=\"'()+_,-./:=? 09azAZ\"",
    "unterminated": 'multipart/form-data; boundary="abc',
}


def content_type_seeds():
    for name, value in CONTENT_TYPES.items():
        write("FuzzContentType", name, value.encode("latin-1"))
    # Request Content-Type headers of the shared corpus requests.
    values = set()
    for directory in ("formidable/http", "waffled/requests"):
        for path in walk(directory, ".http"):
            head = read(path).split(b"\r\n\r\n", 1)[0]
            for match in re.finditer(rb"(?im)^content-type:(.*)$", head):
                values.add(match.group(1).rstrip(b"\r"))
    for index, value in enumerate(sorted(values)):
        write("FuzzContentType", f"shared-{index:02}", value)


# ---------------------------------------------------------------------------------------------------------
# FuzzContentDisposition: part Content-Disposition values.
DISPOSITIONS = {
    "name": 'form-data; name="field"',
    "token-name": "form-data; name=field",
    "file": 'form-data; name="file"; filename="a b.txt"',
    "empty-filename": 'form-data; name="f"; filename=""',
    "filename-star-utf8": "form-data; name=f; filename*=UTF-8''%E2%82%AC%20rates.txt",
    "filename-star-latin1": "form-data; name=f; filename*=iso-8859-1'en'%A3%20rates",
    "filename-conflict": "form-data; name=f; filename=a; filename*=utf-8''b",
    "bad-charset": "form-data; name=f; filename*=koi8-r''abc",
    "bad-percent": "form-data; name=f; filename*=utf-8''%4",
    "quoted-pair": 'form-data; name="a\\"b"',
    "unsafe-pct22": 'form-data; name="a%22b"',
    "unsafe-quote-filename": 'form-data; name="a"; filename="x%0d%0Ay"',
    "backslash-path": 'form-data; name="f"; filename="C:\\dir\\a.txt"',
    "empty-name": 'form-data; name=""',
    "no-name": 'form-data; filename="a"',
    "duplicate-name": 'form-data; name="a"; name="b"',
    "upper": 'FORM-DATA; NAME="A"; FILENAME="B"',
    "other-params": 'form-data; name="a"; size=10; creation-date="x"',
    "attachment": 'attachment; name="a"',
    "ows": ' \tform-data ;name="a" ;\tfilename="b" ; ',
    "utf8-name": 'form-data; name="\u00e9t\u00e9"; filename="\u65e5\u672c.txt"',
    "invalid-utf8": b'form-data; name="\xff\xfe"',
    "continuation": "form-data; name*0=a; name*1=b",
    "trailing-garbage": 'form-data; name="a" b',
    "tab-in-quotes": 'form-data; name="a\tb"',
    "semicolons": "form-data;; name=a;;",
}


def disposition_seeds():
    for name, value in DISPOSITIONS.items():
        write("FuzzContentDisposition", name, value if isinstance(value, bytes) else value.encode())
    values = set()
    for path in walk("python-multipart/http", ".http") + walk("busboy/cases", ".body"):
        for match in re.finditer(rb"(?im)^content-disposition:[ \t]*([^\r\n]*)", read(path)):
            if len(match.group(1)) <= 512:
                values.add(match.group(1))
    for index, value in enumerate(sorted(values)[:24]):
        write("FuzzContentDisposition", f"shared-{index:02}", value)


# ---------------------------------------------------------------------------------------------------------
# FuzzMultipart: hand-written fixtures (the must-haves of the style guide) and shared bodies.
def multipart_seeds():
    b = b"B"
    basic = crlf(part("a", "hello") + part("f", "line1\nline2", 'Content-Type: Text/Plain; Charset="UTF-8"\n')
                 + "--B--\n")
    write("FuzzMultipart", "hand-basic", multipart_case(b, basic))
    write("FuzzMultipart", "hand-basic-bytewise", multipart_case(b, basic, pieces=(1,)))
    lookalike = crlf(part("x", "a\n-B\n--\r--B x--B\n--C\r\r\n--") + "--B--")
    write("FuzzMultipart", "hand-lookalikes-in-data", multipart_case(b, lookalike, pieces=(57, 1, 2, 3)))
    # Data ending in CR, CR LF, CR LF - at piece edges.
    edges = crlf(part("x", "xyz\r") + "--B--\n")
    write("FuzzMultipart", "hand-cr-at-edge", multipart_case(b, edges, pieces=(50, 1, 1, 1)))
    pre_epi = b"preamble text\r\n" + basic + b"epilogue\r\n"
    write("FuzzMultipart", "hand-preamble-epilogue", multipart_case(b, pre_epi, LENIENT))
    write("FuzzMultipart", "hand-preamble-rejected", multipart_case(b, pre_epi, strict(preamble=1)))
    ows = b"--B\r\nContent-Disposition :x\r\ncontent-disposition:\t form-data; name=a \t\r\n\r\nv\r\n--B--\r\n"
    write("FuzzMultipart", "hand-header-ows", multipart_case(b, ows))
    ows2 = b"--B\r\ncontent-disposition:\t form-data; name=a \t\r\nX-A:  v  \r\n\r\nv\r\n--B--\r\n"
    write("FuzzMultipart", "hand-header-ows-ok", multipart_case(b, ows2))
    missing = crlf(part("a", "v")).rstrip(b"\r\n") + b"\r\n--B"
    write("FuzzMultipart", "hand-missing-final", multipart_case(b, missing))
    write("FuzzMultipart", "hand-missing-final-normalized",
          multipart_case(b, missing + b"\r\n", strict(missing_final_boundary=2)))
    long_header = b"--B\r\nContent-Disposition: form-data; name=a\r\nX-Long: " + b"v" * 300 + b"\r\n\r\nv\r\n--B--"
    write("FuzzMultipart", "hand-header-over-limit", multipart_case(b, long_header, small=0x02, scale=40))
    write("FuzzMultipart", "hand-header-lines-limit",
          multipart_case(b, crlf(part("a", "v", "X-1: 1\nX-2: 2\nX-3: 3\n") + "--B--"), small=0x04, scale=1))
    lf = part("a", "v") + part("b", "w\r") + "--B--\n"
    write("FuzzMultipart", "hand-lf-only", multipart_case(b, lf.encode(), strict(lf_line=2)))
    write("FuzzMultipart", "hand-mixed-endings", multipart_case(b, (part("a", "v") + "--B--\r\n").encode().replace(
        b"\n\nv", b"\r\n\r\nv", 1), strict(lf_line=2)))
    folded = b"--B\r\nContent-Disposition: form-data;\r\n name=a\r\n\r\nv\r\n--B--\r\n"
    write("FuzzMultipart", "hand-folded", multipart_case(b, folded, strict(header_folding=2)))
    padding = b"--B \t\r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--B--  \r\n"
    write("FuzzMultipart", "hand-transport-padding", multipart_case(b, padding))
    cte = crlf(part("a", "v", "Content-Transfer-Encoding: binary\n") + part("b", "dg==", "Content-Transfer-Encoding: base64\n")
               + "--B--")
    write("FuzzMultipart", "hand-cte", multipart_case(b, cte, strict(content_transfer_encoding=2)))
    names = (b"--B\r\nContent-Disposition: form-data; name=f; filename*=iso-8859-1''%A3%22.txt\r\n\r\nx\r\n"
             b"--B\r\nContent-Disposition: form-data; name=\"\xff\"; filename=\"a%22\"\r\n\r\n\r\n--B--\r\n")
    write("FuzzMultipart", "hand-names-normalized", multipart_case(b, names, LENIENT))
    nested = crlf(part("m", "x", "Content-Type: multipart/mixed; boundary=C\n") + "--B--")
    write("FuzzMultipart", "hand-nested", multipart_case(b, nested, strict(nested_multipart=2)))
    write("FuzzMultipart", "hand-empty-form", multipart_case(b, b"--B--\r\n"))
    write("FuzzMultipart", "hand-empty-part", multipart_case(b, crlf(part("e", "")[:-1] + "--B--"), pieces=(40, 1)))
    write("FuzzMultipart", "hand-garbage-after-delimiter", multipart_case(b, crlf(part("a", "v") + "--Bx\n")))
    many = crlf("".join(part(f"p{i}", str(i)) for i in range(6)) + "--B--")
    write("FuzzMultipart", "hand-parts-limit", multipart_case(b, many, small=0x01, scale=3))
    write("FuzzMultipart", "hand-field-limit", multipart_case(b, crlf(part("a", "v" * 100) + "--B--"), small=0x20, scale=8))
    write("FuzzMultipart", "hand-epilogue-limit",
          multipart_case(b, basic + b"x" * 80, strict(epilogue=2), small=0x10, scale=64))
    long_b = b"'()+_,-./:=? 09" + b"z" * 55
    write("FuzzMultipart", "hand-boundary-70",
          multipart_case(long_b, b"--" + long_b + b"\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--"
                         + long_b + b"\r\n--" + long_b + b"--", pieces=(3, 70, 5)))

    for path in walk("python-multipart/http", ".http"):
        yaml = read(path[:-5] + ".yaml").decode()
        boundary = re.search(r"(?m)^boundary: (.*)$", yaml).group(1).strip().encode()
        stem = os.path.basename(path)[:-5]
        write("FuzzMultipart", f"pm-{stem}", multipart_case(boundary, read(path), pieces=(7, 1)))
    for case in json.load(open(os.path.join(SHARED, "busboy/cases/cases.json"))):
        body = read(os.path.join("busboy/cases", case["body_file"]))
        if len(body) > MAX_BODY:
            continue
        pieces = tuple(p for p in case["chunk_lengths"] if 1 <= p <= 256)[:15]
        write("FuzzMultipart", f"busboy-{case['id'][:40]}",
              multipart_case(case["boundary"].encode(), body, LENIENT if case["id"][:2] in ("17", "10") else 0, pieces=pieces))
    for directory in ("formidable/http", "waffled/requests"):
        for path in walk(directory, ".http"):
            head, _, body = read(path).partition(b"\r\n\r\n")
            match = re.search(rb'(?i)boundary="?([^";\r\n]+)', head)
            if not match or len(body) > MAX_BODY or not 1 <= len(match.group(1)) <= 70:
                continue
            name = os.path.relpath(path, SHARED).replace("/", "-")[:-5]
            write("FuzzMultipart", name, multipart_case(match.group(1), body, LENIENT))


# ---------------------------------------------------------------------------------------------------------
# FuzzRoundTrip: raw bodies (read as bodies by the fixed-point half) and random form recipes.
def round_trip_seeds():
    for path in walk("python-multipart/http", ".http") + walk("busboy/cases", ".body"):
        body = read(path)
        if 0 < len(body) <= MAX_BODY:
            write("FuzzRoundTrip", "body-" + os.path.basename(path).rsplit(".", 1)[0][:40], body)
    write("FuzzRoundTrip", "body-hand-names",
          b"--B\r\ncontent-disposition: form-data; name=\"\xff\"; filename*=utf-8''%41%22\r\n"
          b"x-KEEP:  v  \r\ncontent-type: TEXT/Plain ;charset=\"utf-8\"\r\n\r\n--B\r\n--B--\r\n")
    rng = random.Random(2046)
    for index in range(12):
        # Every byte string is a valid recipe; bias toward short names, some parts and boundary steps.
        recipe = bytes([rng.randrange(8), *b"Bnd", rng.randrange(256), 1 + rng.randrange(5)])
        recipe += bytes(rng.choice((rng.randrange(256), rng.randrange(8), 0x2D, 0x0D, 0x0A)) for _ in range(200))
        write("FuzzRoundTrip", f"recipe-{index:02}", recipe)


def walk(directory, suffix):
    root = os.path.join(SHARED, directory)
    found = []
    for base, _, files in os.walk(root):
        found += [os.path.join(base, f) for f in files if f.endswith(suffix)]
    return sorted(found)


def read(path):
    with open(path if os.path.isabs(path) else os.path.join(SHARED, path), "rb") as file:
        return file.read()


def llhttp_vectors(kind):
    """(name, bytes) of every rendered llhttp vector of `kind` ("request" or "response"), named by its path."""
    base = os.path.join(SHARED, "llhttp", "rendered", kind)
    for path in walk(base, ".bin"):
        yield os.path.relpath(path, base).replace(os.sep, "--")[:-4], read(path)


def request_head_seeds():
    """FuzzRequestHead: every llhttp request vector (rendered bytes), plus a few pipelined heads."""
    for name, data in llhttp_vectors("request"):
        write("FuzzRequestHead", "llhttp-" + name, data[:4096])
    write("FuzzRequestHead", "pipelined", crlf("GET / HTTP/1.1\nHost: a\n\nPOST /u HTTP/1.1\nHost: a\n"
                                               "Content-Length: 3\n\n"))
    write("FuzzRequestHead", "leading-empty-lines", crlf("\n\nGET /x?y=1 HTTP/1.0\nHost: [::1]:80\n\n"))
    write("FuzzRequestHead", "chunked-upload", crlf("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n"
                                                    "Content-Type: multipart/form-data; boundary=b\n"
                                                    "Expect: 100-continue\n\n"))


def chunked_seeds():
    """FuzzChunked: the bodies of the llhttp request vectors that use chunked framing, plus hand-written ones."""
    for name, data in llhttp_vectors("request"):
        head, separator, body = data.partition(b"\r\n\r\n")
        if separator and b"chunked" in head.lower() and body:
            write("FuzzChunked", "llhttp-" + name, body[:4096])
    write("FuzzChunked", "two-chunks", b"5\r\nhello\r\n6;ext=\"q\\\"x\"\r\n world\r\n0\r\n\r\n")
    write("FuzzChunked", "trailers", b"3\r\nabc\r\n0\r\nExpires: never\r\nX-A: b\r\n\r\n")
    write("FuzzChunked", "upper-hex", b"1A\r\n" + bytes(range(26)) + b"\r\n0\r\n\r\n")
    write("FuzzChunked", "overflow", b"FFFFFFFFFFFFFFFFF\r\n")
    write("FuzzChunked", "bare-lf", b"3\nabc\r\n0\r\n\r\n")


def response_head_seeds():
    """FuzzResponseHead: every llhttp response vector (rendered bytes), plus interim and framing heads."""
    for name, data in llhttp_vectors("response"):
        write("FuzzResponseHead", "llhttp-" + name, data[:4096])
    write("FuzzResponseHead", "interim-then-final", crlf("HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\n"
                                                         "Content-Length: 2\n\n"))
    write("FuzzResponseHead", "chunked-with-options", crlf("HTTP/1.1 201 Created\nConnection: keep-alive, X-Hop\n"
                                                           "X-Hop: 1\nTransfer-Encoding: gzip, chunked\n\n"))
    write("FuzzResponseHead", "no-reason", crlf("HTTP/1.1 301\nLocation: /x\nContent-Length: 0\n\n"))
    write("FuzzResponseHead", "http10-keep-alive", crlf("HTTP/1.0 200 OK\nConnection: keep-alive\n"
                                                        "Content-Length: 5\n\n"))


def file_structure_seeds():
    """FuzzFileStructure: small complete PNG, JPEG, GIF, WebP and PDF files (Tests/PolicyTests' FileFixtures),
    the PNGs and GIF of the shared corpus, polyglots, and the leading bytes of other sniffed formats."""
    import struct
    import zlib

    def be32(value):
        return struct.pack(">I", value)

    def le32(value):
        return struct.pack("<I", value)

    def filler(count, seed=7):
        return bytes(((i * 31 + seed) & 0x7F) | 0x20 for i in range(count))

    def png_chunk(kind, data):
        return be32(len(data)) + kind + data + be32(zlib.crc32(kind + data))

    png = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", be32(16) + be32(16) + bytes([8, 2, 0, 0, 0]))
           + png_chunk(b"tEXt", b"Comment\0made by a test") + png_chunk(b"IDAT", filler(40)) + png_chunk(b"IEND", b""))
    scan = bytearray(filler(60))
    scan[20:20] = b"\xff\x00"
    scan[len(scan) * 2 // 3:len(scan) * 2 // 3] = b"\xff\xd3"
    jpeg = (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0" + bytes([1, 1, 0, 0, 1, 0, 1, 0, 0])
            + b"\xff\xe1" + struct.pack(">H", 14) + b"Exif\0\0" + b"\xff\xd8\xff\xd9\0\0"
            + b"\xff\xdb" + struct.pack(">H", 67) + b"\0" + filler(64)
            + b"\xff\xc0" + struct.pack(">H", 17) + bytes([8, 0, 16, 0, 16, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
            + b"\xff\xc4" + struct.pack(">H", 31) + b"\0" + filler(28)
            + b"\xff\xda" + struct.pack(">H", 12) + bytes([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
            + bytes(scan) + b"\xff\xd9")
    gif = (b"GIF89a" + bytes([16, 0, 16, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]) + bytes([0x21, 0xF9, 4, 0, 0, 0, 0, 0])
           + bytes([0x2C, 0, 0, 0, 0, 16, 0, 16, 0, 0, 2]) + bytes([30]) + filler(30) + b"\0;")
    vp8l = b"VP8L" + le32(25) + b"\x2f" + filler(24) + b"\0"
    webp = b"RIFF" + le32(4 + len(vp8l)) + b"WEBP" + vp8l
    pdf = ("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
           "\nxref\n0 1\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n"
           "2 0 obj\n<< >>\nendobj\nstartxref\n60\n%%EOF\r\n").encode("utf-8")
    samples = {"png": png, "jpeg": jpeg, "gif": gif, "webp": webp, "pdf": pdf}
    for name, data in samples.items():
        write("FuzzFileStructure", name, data)
        write("FuzzFileStructure", name + "-zip-polyglot", data + b"PK\x03\x04\x14\0\0\0\0\0payload.php<?php system($_GET['c']); ?>")
        write("FuzzFileStructure", name + "-truncated", data[:len(data) * 2 // 3])
    for path in ["formidable/file/beta-sticker-1.png", "formidable/file/menu_separator.png", "formidable/file/blank.gif",
                 "werkzeug/multipart/firefox3-2png1txt/file1.png", "werkzeug/multipart/firefox3-2png1txt/file2.png"]:
        write("FuzzFileStructure", "corpus-" + os.path.basename(path), read(path))
    write("FuzzFileStructure", "html", b"  <!DOCTYPE html><html><script>alert(1)</script>")
    write("FuzzFileStructure", "svg", b"<?xml version=\"1.0\"?>\n<!-- c -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    write("FuzzFileStructure", "php", b"\xef\xbb\xbf<?php echo 1; ?>")
    write("FuzzFileStructure", "pe", b"MZ" + b"\x90" * 0x3A + le32(0x40) + b"PE\0\0\x4c\x01\x03\0" + b"\0" * 64)
    write("FuzzFileStructure", "elf", b"\x7fELF\x02\x01\x01" + b"\0" * 57)
    write("FuzzFileStructure", "docx", b"PK\x03\x04\x14\0\0\0\x08\0" + b"\0" * 16 + struct.pack("<HH", 19, 0)
          + b"[Content_Types].xml" + b"\0" * 32)
    write("FuzzFileStructure", "avif", struct.pack(">I", 28) + b"ftypavif" + b"\0\0\0\0" + b"avifmif1miaf")
    write("FuzzFileStructure", "cfb", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)
    write("FuzzFileStructure", "tar", b"a.txt".ljust(100, b"\0") + b"0000644\0" * 3 + b"\0" * 24 + b"ustar\0" + b"\0" * 249)


def policy_seeds():
    """FuzzPolicy: `[route][boundary length - 1][boundary][body]` for each of the five routes (FuzzRoutes.swift):
    forms with images, scripts, executables, documents and long notes, and the browser bodies of werkzeug."""
    def case(route, boundary, body):
        return bytes([route, len(boundary) - 1]) + boundary + body

    def form(*parts):
        out = b""
        for name, filename, ctype, data in parts:
            disposition = f'Content-Disposition: form-data; name="{name}"'
            if filename is not None:
                disposition += f'; filename="{filename}"'
            out += b"--B\r\n" + disposition.encode() + b"\r\n"
            if ctype:
                out += b"Content-Type: " + ctype.encode() + b"\r\n"
            out += b"\r\n" + data + b"\r\n"
        return out + b"--B--\r\n"

    def sample(name):
        return read(os.path.join(CORPUS, "FuzzFileStructure", name))

    png, jpeg, gif, pdf = sample("png"), sample("jpeg"), sample("gif"), sample("pdf")
    pe = sample("pe")
    bodies = {
        "images": form(("title", None, None, b"holiday"), ("file", "a.png", "image/png", png),
                       ("photo", "b.jpg", "image/jpeg", jpeg), ("file2", "c.gif", "image/gif", gif)),
        "scripts": form(("file", "shell.php", "image/png", b"<?php system($_GET['c']); ?>"),
                        ("doc", "report.pdf", "application/pdf", pdf), ("doc2", "notes.txt", "text/plain", b"plain"),
                        ("note", None, None, b"n" * 300)),
        "executable": form(("file", "setup.png", "image/png", pe), ("x", None, "text/plain; charset=latin1", b"v")),
        "polyglot": form(("file", "p.png", "image/png", png + b"PK\x03\x04payload")),
        "unsafe-names": form(("file", "../../etc/passwd", None, b"x"), ("a\x7f", "e\u00e9.txt".encode("utf-8").decode("latin1"), None, b"y")),
        "big-image": form(("file", "big.png", "image/png", png[:-12] + b"\0" * 3000 + png[-12:])),
    }
    for route in range(5):
        for name, body in bodies.items():
            write("FuzzPolicy", f"route{route}-{name}", case(route, b"B", body))
    for browser in ["firefox3-2png1txt", "webkit3-2png1txt"]:
        body = read(f"werkzeug/multipart/{browser}/request.http")
        boundary = body.split(b"\r\n", 1)[0][2:]
        if body.startswith(b"--") and 1 <= len(boundary) <= 70:
            for route in (1, 3):
                write("FuzzPolicy", f"route{route}-werkzeug-{browser}", case(route, boundary, body))


if __name__ == "__main__":
    if not os.path.isdir(SHARED):
        sys.exit(f"shared corpus not found at {SHARED} (pass its path as the first argument)")
    content_type_seeds()
    disposition_seeds()
    multipart_seeds()
    round_trip_seeds()
    request_head_seeds()
    chunked_seeds()
    response_head_seeds()
    file_structure_seeds()
    policy_seeds()
