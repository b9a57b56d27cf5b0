// The page's one script, built from these modules into /static/js/app.js (scorer/bundles.py):
// the tally pad and game setup (pad.js), several phones and focus (live.js), the phone's own
// features (device.js), and keeping score offline with the phone's copy of a page (offline.js).
// This file wires them to the page, in that order, with the server's words and URLs.

import { startDevice } from "./device.js";
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
// A deferred script runs once the page is parsed: the pad is drawn, with any tally kept on the
// phone, now rather than after DOMContentLoaded's other work (htmx starting up).
const drawPads = () => {
  enhancePads(document);
  // From here a tap on the pad is answered: benchmarks/reopen.py times the reopen by this mark.
  if (window.performance && performance.mark) performance.mark("uno:pad-ready");
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawPads);
else drawPads();

startLive(client.words);
document.addEventListener("DOMContentLoaded", () => {
  announce();
  startDevice(client.words);
});
startOffline(client);
