"""Response headers that keep the pages from being framed, sniffed or running injected script,
and, over HTTPS, from being fetched over plain HTTP again."""

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
# For a static file opened as a document (an SVG icon can be one): it needs nothing at all, and
# this stricter policy is a third the size of the pages' one, which every first visit downloads.
STATIC_FILE_POLICY = "default-src 'none'; frame-ancestors 'none'"
# For the service worker: of the pages' directives only its fetches' (connect-src) and imported
# scripts' (script-src) apply to a worker, and both fall back to this.
WORKER_POLICY = "default-src 'self'"
# A year: browsers that saw the site over HTTPS refuse plain HTTP to it for that long. Sent only
# over HTTPS, as browsers ignore it otherwise, and a plain-HTTP site on a home network must stay
# reachable.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


class SessionInterface(SecureCookieSessionInterface):
    """Marks the session cookie Secure whenever the page was served over HTTPS, and says a static
    file does not vary by cookie."""

    def get_cookie_secure(self, app: Flask) -> bool:
        secure = super().get_cookie_secure(app)
        return secure or (has_request_context() and request.is_secure)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        # Flask-Login looks in the session after every request, static ones too, and a session
        # looked at adds "Vary: Cookie"; a static file's bytes never depend on the cookie.
        if request.endpoint == "static" and not session.modified:
            session.accessed = False
        super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.after_request(_add_headers)


def _add_headers(response: Response) -> Response:
    # A policy governs documents and workers; on a stylesheet or a script loaded by a page it does
    # nothing, and dropping it keeps the first visit within its 40 KB budget (BENCHMARKS.md).
    if not _is_subresource(response):
        response.headers.setdefault("Content-Security-Policy", _policy_for(response))
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # A referrer policy governs the links and requests of what it comes with; a static file makes
    # none that leave the site (the policy above allows only 'self'), so there it is only bytes.
    if not (has_request_context() and request.endpoint == "static"):
        response.headers.setdefault("Referrer-Policy", "same-origin")
    if has_request_context() and request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
    return response


def _is_subresource(response: Response) -> bool:
    """A static stylesheet or script: never a document (an SVG can be one) nor the worker."""
    return (
        has_request_context()
        and request.endpoint == "static"
        and response.mimetype in ("text/css", "text/javascript")
    )


def _policy_for(response: Response) -> str:
    if not has_request_context():
        return CONTENT_SECURITY_POLICY
    if request.endpoint == "static":
        return STATIC_FILE_POLICY
    if request.endpoint == "pwa.service_worker":
        return WORKER_POLICY
    return CONTENT_SECURITY_POLICY
