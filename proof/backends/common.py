"""What every Python backend shares: the JSON description of a part, and printing the bound port."""

import hashlib
import sys


def describe(name, filename, content_type, data):
    """One parsed part as the suite compares it: strings as the parser gave them, size and SHA-256 of the bytes."""
    return {
        "name": name,
        "filename": filename,
        "content_type": content_type,
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def announce(port):
    """Tells the harness the port this backend bound (it reads the first `PORT n` line of standard output)."""
    sys.stdout.write("PORT %d\n" % port)
    sys.stdout.flush()
