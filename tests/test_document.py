"""tests/document.py reads HTML as a browser does, where the old home-made tree did not."""

from document import parse


def test_implied_end_tags_close_elements_as_a_browser_closes_them():
    page = parse("<!doctype html><ul><li class='hand won'>Ann<li class=hand>Bob</ul><p>one<p>two")
    assert [item.text for item in page.find_all("li", class_="hand")] == ["Ann", "Bob"]
    assert [item.text for item in page.select("li.won")] == ["Ann"]
    assert [paragraph.text for paragraph in page.find_all("p")] == ["one", "two"]


def test_a_fragment_stays_a_fragment():
    part = parse('<section id="scores"><h2>Scores</h2></section><div id="poll" hx-swap-oob="true">')
    assert part.find("html") is None and part.find("body") is None
    assert [node.attrs["id"] for node in part.find_all(hx_swap_oob="true")] == ["poll"]
    assert part.by_id("scores").find("h2").text == "Scores"


def test_inputs_give_the_value_they_would_post():
    page = parse('<form><input name="target" value="500"><input name="note"></form>')
    assert page.value("target") == "500" and page.value("note") == "" and page.value("x") is None


def test_iter_gives_each_element_once_in_document_order():
    section = parse("<section><h2>Scores</h2><p>Ann <b>120</b></p></section>").find("section")
    assert [node.tag for node in section.iter()] == ["section", "h2", "p", "b"]
