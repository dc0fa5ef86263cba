"""``python tests/range_http_server.py PORT DIR``: Python's http.server with HTTP Range support.

GDAL's /vsicurl/ reads COGs by byte ranges; the standard library's SimpleHTTPRequestHandler
(Python 3.11-3.13) ignores the Range header, which GDAL refuses. This adds single ranges.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import sys

_RANGE = re.compile(r"bytes=(\d*)-(\d*)$")


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    def send_head(self):
        match = _RANGE.match(self.headers.get("Range", "").strip())
        path = self.translate_path(self.path)
        if not match or not os.path.isfile(path):
            return super().send_head()
        size = os.path.getsize(path)
        first, last = match.groups()
        start = int(first) if first else max(0, size - int(last))
        end = min(int(last), size - 1) if first and last else size - 1
        if start >= size or end < start:
            self.send_error(416, "Requested Range Not Satisfiable")
            return None
        handle = open(path, "rb")
        handle.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self._remaining = end - start + 1
        return handle

    def copyfile(self, source, outputfile):
        remaining = getattr(self, "_remaining", None)
        if remaining is None:
            return super().copyfile(source, outputfile)
        outputfile.write(source.read(remaining))
        self._remaining = None
        return None

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        return None


def main() -> None:
    port, folder = int(sys.argv[1]), sys.argv[2]
    handler = functools.partial(RangeHandler, directory=folder)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
