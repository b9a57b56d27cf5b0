// The service worker. It keeps the app's look (stylesheet, scripts, icon), a friendly offline page,
// and the phone's last copy of the home page and of each game page it opened. A copy is shown at
// once when such a page is reopened, but never as if it were current: the worker marks it
// (data-copy-of on <html>) and app.js fetches the fresh page at once and puts it in its place.
// Soon after this phone sent a change, the server's page comes first, so the change shows.
// Fragments, polls, saves and the API always go to the server.
// Each copy is in one language (its Content-Language). The phone reads the language of the latest
// page the server sent it: a copy in another is never shown, and the offline page follows it.
"use strict";

const CACHE = {{ cache | tojson }};
const PAGES = {{ pages | tojson }};
const OFFLINE = {{ url_for("pwa.offline") | tojson }};
const ASSETS = {{ assets | tojson }};
const SIGN_IN_OUT = {{ [url_for("auth.login"), url_for("auth.logout")] | tojson }};
const COPIED = /^\/(games\/\d+)?$/;
// Where the worker keeps the language the phone reads (a cache key, not a page): a worker is
// stopped when idle and forgets what it held in memory.
const SPOKEN = OFFLINE + "?language";
// Sent by app.js when it asks for the fresh page that replaces a copy.
const FRESH = "X-Fresh-Copy";
// Navigation preloads of pages answered from a copy, by URL: the fresh page app.js then asks
// for is already on its way, a round trip sooner than a request of its own.
const preloads = new Map();
// When this phone last sent a change (any request but a GET): a hand edited or undone, a game
// set aside. The page a change leads to must show it, not the copy from before it, so for a
// while after one a copied page is the server's, and its copy only if the server does not
// answer in time. Kept in memory only: a browser stops a worker idle for about as long, which
// ends the while with it.
let changedAt = -Infinity;
const AFTER_CHANGE_MS = 30000;
const SERVER_WAIT_MS = 3000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([OFFLINE, ...ASSETS]).then(() => cache.match(OFFLINE))
        .then((page) => cache.put(SPOKEN, new Response(page.headers.get("Content-Language") || ""))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    Promise.all([
      // Navigation preload: the browser asks the server for a page while this worker starts up,
      // instead of waiting for it to start and ask.
      self.registration.navigationPreload && self.registration.navigationPreload.enable(),
      // Copies link the assets of their release, which only that release's cache holds.
      caches.keys().then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("uno-") && key !== CACHE && key !== PAGES)
          .map((key) => caches.delete(key))
      )),
    ]).then(() => self.clients.claim())
  );
});

const spoken = () => caches.open(CACHE).then((cache) => cache.match(SPOKEN)).then((said) => said && said.text());

// A page from the server says which language the phone reads now. When that changes, the offline
// page is fetched again in it (it comes in the language the page did).
function heard(response) {
  const said = response && response.ok && response.headers.get("Content-Language");
  if (!said) return;
  return spoken().then((old) => old === said || caches.open(CACHE).then((cache) => cache.put(SPOKEN, new Response(said))
    .then(() => fetch(OFFLINE))
    .then((page) => page.ok && page.headers.get("Content-Language") === said && cache.put(OFFLINE, page))));
}

// Keeps a successful page as the phone's copy, with the time it was seen.
function keep(url, response) {
  if (!response || !response.ok || response.redirected || response.type !== "basic") return;
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return;
  const copy = response.clone();
  return copy.text().then((text) => {
    const headers = new Headers(copy.headers);
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    headers.delete("Vary");
    headers.set("X-Seen-At", new Date().toISOString());
    // X-Account marks a signed-in session's pages (scorer/access.py). A page for another session,
    // or for none (the session ended, on this phone or elsewhere: a new password, a sign-out),
    // or in another language, drops every copy made before it. In few names: the worker is in
    // the first visit's 40 KB.
    const same = (copy) => ["X-Account", "Content-Language"].every((name) => copy.headers.get(name) === headers.get(name));
    return caches.open(PAGES).then((cache) => cache.matchAll())
      .then((copies) => copies.every(same) || caches.delete(PAGES))
      .then(() => caches.open(PAGES))
      .then((cache) => cache.put(url, new Response(text, { headers })));
  });
}

// The copy, marked so the page knows it is one (data-copy-of, the time it was seen, 20:41) and
// says so from its first frame (templates/pwa/_copy_mark.html): the page is never presented as
// current, and app.js has nothing to move when it runs.
function marked(copy) {
  // Every copy is put with its X-Seen-At (keep and the message below).
  const seen = new Date(copy.headers.get("X-Seen-At")).toTimeString().slice(0, 5);
  return copy.text().then((text) => new Response(
    text.replace("<html ", '<html data-copy-of="' + seen + '" ')
      .replace(/(id="copy-mark"[^>]*>[^<{]*){seen}/, "$1" + seen),
    { headers: copy.headers }
  ));
}

// The page as it stands after a change (a save, another phone's hand), from app.js: the copy
// follows the game without downloading the page again. Only a page that already has a copy, so
// its headers (the CSP among them) come from the server.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.html !== "string" || !COPIED.test(data.path || "")) return;
  const page = self.location.origin + data.path;
  event.waitUntil(caches.open(PAGES).then((cache) => cache.match(page).then((old) => {
    // A page written in another language than its copy (it changed under the page) is no copy.
    const said = old && old.headers.get("Content-Language");
    if (!old || (said && !data.html.includes('<html lang="' + said + '"'))) return;
    const headers = new Headers(old.headers);
    headers.set("X-Seen-At", new Date().toISOString());
    return cache.put(page, new Response(data.html, { headers }));
  })));
});

function network(event) {
  return Promise.resolve(event.preloadResponse).then((preloaded) => preloaded || fetch(event.request));
}

// The copy, with the server's answer (`pending`, else the navigation preload) held for the fresh
// page app.js asks for at once.
function fromCopy(event, page, copy, pending) {
  const preload = Promise.resolve(pending || event.preloadResponse).catch(() => undefined);
  preloads.set(page, preload);
  event.waitUntil(preload.then(() => new Promise((done) => setTimeout(done, 10000)))
    .then(() => { if (preloads.get(page) === preload) preloads.delete(page); }));
  return marked(copy);
}

// The server's page, kept as the new copy.
function fromServer(event, page, response) {
  event.waitUntil(Promise.all([keep(page, response), heard(response)]).catch(() => {}));
  return response;
}

// Soon after a change: the server's page, or the copy when the server is down or slow.
function afterChange(event, page, copy) {
  const answer = network(event);
  const late = new Promise((done) => setTimeout(done, SERVER_WAIT_MS));
  return Promise.race([answer, late]).then((response) => {
    if (response && response.status < 500) return fromServer(event, page, response);
    return fromCopy(event, page, copy, answer);
  }, () => fromCopy(event, page, copy));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SIGN_IN_OUT.includes(url.pathname) && request.method === "POST") {
    // Another user's pages must not show: copies go before the sign-in or -out is sent.
    event.respondWith(caches.delete(PAGES).then(() => fetch(request)));
    return;
  }
  if (request.method !== "GET") {
    changedAt = Date.now();
    return;
  }
  const page = url.origin + url.pathname;
  if (request.mode === "navigate" && COPIED.test(url.pathname)) {
    event.respondWith(Promise.all([caches.open(PAGES).then((cache) => cache.match(page)), spoken()]).then(([copy, said]) => {
      // A copy in another language than the phone now reads is never shown.
      if (copy && said && copy.headers.get("Content-Language") !== said) copy = null;
      if (!copy) return network(event).then((response) => fromServer(event, page, response));
      if (Date.now() - changedAt < AFTER_CHANGE_MS) return afterChange(event, page, copy);
      return fromCopy(event, page, copy);
    }).catch(() => caches.match(OFFLINE, { ignoreVary: true })));
  } else if (request.mode === "navigate") {
    // Always the network: the preloaded response, else a fetch of our own (no preload in this
    // browser, or none yet on the visit that installed this worker); the offline page only when
    // the server cannot be reached at all.
    event.respondWith(network(event).then((response) => {
      event.waitUntil(Promise.resolve(heard(response)).catch(() => {}));
      return response;
    }).catch(() => caches.match(OFFLINE, { ignoreVary: true })));
  } else if (request.headers.get(FRESH) && COPIED.test(url.pathname)) {
    const preload = preloads.get(page);
    preloads.delete(page);
    event.respondWith(Promise.resolve(preload).then((preloaded) => preloaded || fetch(request))
      .then((response) => {
        // A game that is gone: its copy goes before the page reloads, so it is not shown again.
        if (response.status === 404) return caches.open(PAGES).then((cache) => cache.delete(page)).then(() => response);
        return fromServer(event, page, response);
      }));
  } else if (url.pathname.startsWith("/static/") && url.searchParams.has("v")) {
    // A versioned file never changes, so a cached copy is as good as the server's.
    event.respondWith(caches.match(request, { ignoreVary: true }).then((hit) => hit || fetch(request)));
  }
});
