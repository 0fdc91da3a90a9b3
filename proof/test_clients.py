"""Real clients → partgate → a backend: curl, Python requests, and headless Chromium submitting an HTML form.

Each test knows what its client sent (names, values, file bytes) and checks that the backend read exactly that,
as the route's policy rewrote it (`internal_*` stripped, `legacy_*` renamed, unsafe filenames sanitised), and
that partgate's audit record says the same. Every client runs against every backend.
"""

import hashlib
import http.server
import json
import os
import subprocess
import threading

import pytest
import requests

from support.compare import differences, forwarded_parts
from support.partgate import BACKENDS

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")


def part(name, data, filename=None, content_type=None):
    return {"name": name, "filename": filename, "content_type": content_type, "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def check(partgate, target, body, expected):
    """The backend's reading (`body`) and partgate's audit record for `target` both equal `expected`."""
    _, audits = partgate.records_for(target)
    assert isinstance(body, dict) and "parts" in body, body
    assert differences(expected, body["parts"]) == [], (expected, body["parts"])
    assert differences(expected, forwarded_parts(audits)) == [], (expected, audits)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("client-files")
    paths = {}
    contents = {
        "pixel.png": PNG,
        "notes.txt": "first line\nsecond — ligne deux ☃\n".encode(),
        "blob.bin": bytes(range(256)) * 300 + b"\r\n--boundary-like\r\n",
        'say "hi".txt': b"quoted name\n",
    }
    for name, data in contents.items():
        path = folder / name
        path.write_bytes(data)
        paths[name] = (str(path), data)
    return paths


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_curl_forms(partgate, files, backend, chunked):
    png_path, png = files["pixel.png"]
    blob_path, blob = files["blob.bin"]
    target = "/%s/curl-%s" % (backend, "chunked" if chunked else "length")
    argv = ["curl", "-sS", "--max-time", "60", "http://127.0.0.1:%d%s" % (partgate.port, target),
            "-F", "title=Hello, world",
            "--form-string", "literal=@not-a-file;type=x <y>",
            "-F", "avatar=@%s;type=image/png" % png_path,
            "-F", "blob=@%s;filename=../../etc/blob.bin;type=application/octet-stream" % blob_path,
            "-F", "internal_token=secret",
            "-F", "legacy_name=kept value"]
    if chunked:
        argv[1:1] = ["-H", "Transfer-Encoding: chunked"]
    result = subprocess.run(argv, capture_output=True, timeout=90)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["transfer_encoding"] == "chunked"  # stream mode, a body over buffer_small_bodies (64 KiB): chunked
    expected = [
        part("title", b"Hello, world"),
        part("literal", b"@not-a-file;type=x <y>"),
        part("avatar", png, "pixel.png", "image/png"),
        part("blob", blob, "blob.bin", "application/octet-stream"),  # path removed by unsafe_filenames: sanitize
        part("renamed_5", b"kept value"),  # internal_token (index 4) stripped; legacy_name renamed ({index} = 5)
    ]
    check(partgate, target, body, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_requests(partgate, files, backend):
    notes_path, notes = files["notes.txt"]
    target = "/%s/requests" % backend
    with open(notes_path, "rb") as handle:
        response = requests.post(
            "http://127.0.0.1:%d%s" % (partgate.port, target),
            data={"comment": "héllo wörld ☃", "tags": ["a", "b"], "empty": ""},
            files=[("upload", ("photo ☃.png", PNG, "image/png")), ("notes", ("notes.txt", handle, "text/plain")),
                   ("nothing", ("", b"", "application/octet-stream"))],
            timeout=60,
        )
    assert response.status_code == 200, response.text
    expected = [
        part("comment", "héllo wörld ☃".encode()),
        part("tags", b"a"),
        part("tags", b"b"),
        part("empty", b""),
        part("upload", PNG, "photo ☃.png", "image/png"),
        part("notes", notes, "notes.txt", "text/plain"),
        part("nothing", b"", "", "application/octet-stream"),
    ]
    check(partgate, target, response.json(), expected)


class FormPage(http.server.BaseHTTPRequestHandler):
    """Serves the upload form whose action is partgate (set on the server as `html`)."""

    def do_GET(self):
        page = self.server.html.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args):
        pass


FORM = """<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>upload</title></head>
<body><form id="f" method="post" enctype="multipart/form-data" action="{action}">
<input type="text" name="title" id="title">
<textarea name="notes" id="notes"></textarea>
<input type="text" name="prénom" id="prenom">
<input type="file" name="attachment" id="attachment">
<input type="file" name="photos" id="photos" multiple>
<input type="file" name="none" id="none">
<input type="hidden" name="internal_csrf" value="x">
<input type="submit" id="go" value="Send">
</form></body></html>"""


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("PROOF_CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
    service = Service(os.environ.get("PROOF_CHROMEDRIVER", "/usr/bin/chromedriver"), port=0)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.parametrize("backend", BACKENDS)
def test_chromium_submits_a_form(partgate, files, browser, backend):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    target = "/%s/browser" % backend
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FormPage)
    server.html = FORM.format(action="http://127.0.0.1:%d%s" % (partgate.port, target))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        browser.get("http://127.0.0.1:%d/" % server.server_address[1])
        browser.find_element(By.ID, "title").send_keys("Grüße aus dem Browser")
        browser.find_element(By.ID, "notes").send_keys("line one\nline two")
        browser.find_element(By.ID, "prenom").send_keys("Zoë")
        browser.find_element(By.ID, "attachment").send_keys(files['say "hi".txt'][0])
        browser.find_element(By.ID, "photos").send_keys(files["pixel.png"][0] + "\n" + files["blob.bin"][0])
        browser.find_element(By.ID, "go").click()
        WebDriverWait(browser, 60).until(expected_conditions.url_contains(target))
        WebDriverWait(browser, 60).until(lambda driver: '"parts"' in driver.find_element(By.TAG_NAME, "body").text)
        body = json.loads(browser.find_element(By.TAG_NAME, "body").text)
    finally:
        server.shutdown()
        server.server_close()
    expected = [
        part("title", "Grüße aus dem Browser".encode()),
        part("notes", b"line one\r\nline two"),  # the HTML form encoding turns newlines into CRLF
        part("prénom", "Zoë".encode()),
        # Chromium escapes the quote as %22; unsafe_filenames: sanitize makes the % a _.
        part("attachment", files['say "hi".txt'][1], "say _22hi_22.txt", "text/plain"),
        part("photos", PNG, "pixel.png", "image/png"),
        part("photos", files["blob.bin"][1], "blob.bin", "application/octet-stream"),
        part("none", b"", "", "application/octet-stream"),  # no file chosen
    ]  # internal_csrf stripped by the drop-internal rule
    check(partgate, target, body, expected)
