// The page's one script, built from these modules into /static/js/app.js (scorer/bundles.py):
// the tally pad and game setup (pad.js), several phones and focus (live.js), the phone's own
// features (device.js), and keeping score offline with the phone's copy of a page (offline.js).
// This file wires them to the page, in that order, with the server's words and URLs.

import { startDevice } from "./device.js";
import { afterParse, whenParsed } from "./dom.js";
import { announce, startLive } from "./live.js";
import { startOffline } from "./offline.js";
import { enhancePads, startPads } from "./pad.js";

/** The server's words, URLs and the page's game, from <html data-client> (base.html). */
const clientData = () => {
  const data = JSON.parse(document.documentElement.dataset.client || "{}");
  return { words: data.words || {}, urls: data.urls || {}, game: data.game ?? null };
};

const client = clientData();

startPads();
// The script is async: it may run while the page is still parsed. The pad is drawn, with any tally
// kept on the phone, as soon as the parser has passed it, so a tap is answered before the rest of
// the page (the history, the chart) is parsed and laid out.
const drawPads = () => {
  enhancePads(document);
  // From here a tap on the pad is answered: benchmarks/reopen.py times the reopen by this mark.
  if (window.performance && performance.mark) performance.mark("uno:pad-ready");
};
whenParsed("form.pad", drawPads);

startLive(client.words);
afterParse(() => {
  announce();
  startDevice(client.words);
});
// The copy's mark and the parts the fresh page replaces are whole only once the page is parsed.
afterParse(() => startOffline(client));
