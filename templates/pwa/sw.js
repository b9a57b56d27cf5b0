// The service worker. It keeps the app's look (stylesheet, scripts, icon) and a friendly offline
// page, and nothing else: pages, htmx fragments, polls and the API always go to the server, so a
// phone never shows an old score as if it were current.
"use strict";

const CACHE = {{ cache | tojson }};
const OFFLINE = {{ url_for("pwa.offline") | tojson }};
const ASSETS = {{ assets | tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([OFFLINE, ...ASSETS]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    Promise.all([
      // Navigation preload: the browser asks the server for a page while this worker starts up,
      // instead of waiting for it to start and ask.
      self.registration.navigationPreload && self.registration.navigationPreload.enable(),
      caches.keys().then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("uno-scorer-") && key !== CACHE)
          .map((key) => caches.delete(key))
      )),
    ]).then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Always the network: the preloaded response, else a fetch of our own (no preload in this
    // browser, or none yet on the visit that installed this worker); the offline page only when
    // the server cannot be reached at all.
    event.respondWith(
      Promise.resolve(event.preloadResponse)
        .then((preloaded) => preloaded || fetch(request))
        .catch(() => caches.match(OFFLINE, { ignoreVary: true }))
    );
  } else if (url.pathname.startsWith("/static/") && url.searchParams.has("v")) {
    // A versioned file never changes, so a cached copy is as good as the server's.
    event.respondWith(caches.match(request, { ignoreVary: true }).then((hit) => hit || fetch(request)));
  }
});
