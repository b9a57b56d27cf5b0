"""Charts as SVG images drawn on the server with pygal: no charting JavaScript on the page.

Pages show them with <img>, so the strict Content-Security-Policy of the pages stays as it is: the
styles pygal puts inside the SVG belong to the image. pygal's own scripts (tooltips) are turned off
and its configuration script is taken out. Sizes are chosen for a phone: a 400-wide chart shrinks
little on a 390-pixel screen, so its 12-14 px labels stay readable. Colours and text are mid-tone
on a transparent background, to read on the light and the dark page alike.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import pygal
from flask_babel import gettext as _
from pygal.style import Style

# pygal puts an import hook for its map plugins on sys.meta_path; it has no find_spec, so every
# later import of a missing module (which libraries try routinely) raises an ImportWarning, an
# error under the test settings. No map plugin is used here: take the hook out.
sys.meta_path[:] = [
    finder for finder in sys.meta_path if not isinstance(finder, pygal.PluginImportFixer)
]

WIDTH = 400
HEIGHT = 280
SCRIPT = re.compile(rb"<script\b.*?</script>", re.S)
# A colour for each line, in order: enough for the ten players a game can have.
COLOURS = (
    "#d7261e",
    "#1f6fd1",
    "#1e9e4a",
    "#e0a000",
    "#8e44ad",
    "#00a3a3",
    "#e0578a",
    "#6d7b1b",
    "#a0522d",
    "#5a5a5a",
)
STYLE_OPTIONS = dict(
    background="transparent",
    plot_background="transparent",
    foreground="#808080",
    foreground_strong="#808080",
    foreground_subtle="#8a8a8a",
    opacity=".9",
    opacity_hover="1",
    stroke_width="3",
    guide_stroke_color="#8a8a8a",
    major_guide_stroke_color="#8a8a8a",
    colors=COLOURS,
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=14,
    title_font_size=15,
    value_font_size=12,
    no_data_font_size=18,
)
STYLE = Style(**STYLE_OPTIONS)
TARGET_COLOUR = "#808080"


def _config(**options) -> dict:
    return {
        "js": [],
        "style": STYLE,
        "width": WIDTH,
        "height": HEIGHT,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 2,
        "truncate_legend": 18,
        "show_y_guides": True,
        "margin": 8,
        "no_data_text": _("No games yet"),
        **options,
    }


def render(chart) -> bytes:
    """The chart as a standalone SVG document, without pygal's configuration script."""
    return SCRIPT.sub(b"", chart.render())


def score_lines(
    lines: Sequence[tuple[str, Sequence[int]]], target: int | None, title: str = ""
) -> bytes:
    """Score after each hand (hand 0 is the start), a line per player or team, and the target.

    A game of fixed length has no target (None), and no target line.
    """
    hands = max((len(points) for _name, points in lines), default=1)
    chart = pygal.Line(
        **_config(
            title=title or None,
            x_title=_("Hand"),
            show_dots=hands <= 20,
            dots_size=3,
            show_minor_x_labels=hands <= 12,
            x_labels_major_every=max(1, hands // 8),
            # The target line is grey, whatever the number of lines before it.
            style=Style(
                **{
                    **STYLE_OPTIONS,
                    "colors": (*COLOURS[: len(lines)], TARGET_COLOUR),
                }
            ),
        )
    )
    chart.x_labels = [str(number) for number in range(hands)]
    for name, points in lines:
        chart.add(name, list(points))
    if target is not None:
        chart.add(
            _("Target %(target)s", target=target),
            [target] * hands,
            show_dots=False,
            stroke_style={"width": 2, "dasharray": "6, 6"},
        )
    return render(chart)


def rating_line(ratings: Sequence[float]) -> bytes:
    """Rating (mu − 3·sigma) after each of the player's last games, oldest first."""
    chart = pygal.Line(
        **_config(
            show_legend=False,
            x_title=_("Games"),
            show_dots=len(ratings) <= 30,
            dots_size=3,
            show_x_labels=False,
        )
    )
    chart.x_labels = [str(number) for number in range(1, len(ratings) + 1)]
    chart.add(_("Rating"), [round(rating, 2) for rating in ratings])
    return render(chart)


def points_bars(points: Sequence[int]) -> bytes:
    """Points the player scored in each of their last games, oldest first."""
    chart = pygal.Bar(**_config(show_legend=False, x_title=_("Games"), show_x_labels=False))
    chart.x_labels = [str(number) for number in range(1, len(points) + 1)]
    chart.add(_("Points"), list(points))
    return render(chart)
