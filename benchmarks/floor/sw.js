// The least a worker can do to serve a page offline: keep it when installed, and answer with the
// kept copy first.
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open("floor").then((cache) => cache.add("/")));
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  event.respondWith(caches.match(event.request).then((kept) => kept || fetch(event.request)));
});
