"""QR codes drawn as SVG, black on white whatever the page's colours, so any camera reads them."""

from __future__ import annotations

import segno


def data_uri(text: str) -> str:
    """The code for `text` as a data: URI an <img> shows (the CSP allows data: images)."""
    return segno.make_qr(text, error="m").svg_data_uri(
        border=4, omitsize=True, dark="#000", light="#fff"
    )
