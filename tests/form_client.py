"""A phone of sorts for tests against a real server.

It keeps its session cookie and posts forms with the CSRF token of the last page it read. Plain
http.client, so each request is its own connection.
"""

from __future__ import annotations

import http.client
import re
from html import unescape
from urllib.parse import urlencode

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


class FormClient:
    def __init__(self, port: int, timeout: float = 10.0):
        self.port = port
        self.timeout = timeout
        self.cookie = ""
        self.token = ""

    def request(self, method: str, path: str, fields: dict | None = None) -> tuple[int, str, str]:
        """(status, Location, body); follows nothing."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            body = None
            if fields is not None:
                body = urlencode({**fields, "csrf_token": self.token})
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        if cookie := response.getheader("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        if token := TOKEN.search(text):
            self.token = unescape(token.group(1))
        return response.status, response.getheader("Location") or "", text
