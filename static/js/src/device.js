// The phone's own features: keeping the screen on while a game is open, sharing a link, and the
// service worker. Each does nothing on a page without its elements, and nothing at all where the
// browser lacks the feature.

import { localStore } from "./dom.js";

// --- Keep the screen on while a game is open, where the browser can.

const WAKE_KEY = "keepScreenOn";
let wakeButton = null;
let wakeLock = null;

const wakeWanted = () => {
  const store = localStore();
  return !store || store.getItem(WAKE_KEY) !== "no";
};

const acquireWakeLock = () => {
  if (!wakeButton || wakeLock || document.hidden || wakeButton.getAttribute("aria-pressed") !== "true") return;
  navigator.wakeLock
    .request("screen")
    .then((lock) => {
      wakeLock = lock;
      lock.addEventListener("release", () => (wakeLock = null));
    })
    .catch(() => {
      /* refused for now (battery saver, hidden page): stay quiet */
    });
};

const setUpWakeLock = () => {
  wakeButton = document.querySelector("[data-wake-lock]");
  if (!wakeButton || !("wakeLock" in navigator)) {
    wakeButton = null;
    return;
  }
  wakeButton.hidden = false;
  wakeButton.setAttribute("aria-pressed", wakeWanted() ? "true" : "false");
  wakeButton.addEventListener("click", () => {
    const on = wakeButton.getAttribute("aria-pressed") !== "true";
    wakeButton.setAttribute("aria-pressed", on ? "true" : "false");
    try {
      localStore()?.setItem(WAKE_KEY, on ? "yes" : "no");
    } catch {
      /* private mode */
    }
    if (on) acquireWakeLock();
    else if (wakeLock) wakeLock.release();
  });
  // The browser lets go of the lock when the page is hidden; take it again when it is back.
  document.addEventListener("visibilitychange", acquireWakeLock);
  acquireWakeLock();
};

// --- Share: copy the link, or hand it to the phone's share sheet.

const setUpSharing = (words) => {
  const status = document.querySelector("[data-share-status]");
  const say = (text) => {
    if (status) status.textContent = text;
  };
  for (const button of document.querySelectorAll("[data-copy]")) {
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(button.dataset.copy).then(
        () => say(words.copied),
        () => say(words.copyFailed),
      );
    });
  }
  for (const button of document.querySelectorAll("[data-share]")) {
    if (!navigator.share) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: button.dataset.shareTitle, url: button.dataset.share }).catch(() => {});
    });
  }
};

// --- The service worker: the offline page, and the app's look without the network.

const registerServiceWorker = () => {
  const url = document.documentElement.dataset.serviceWorker;
  if (url && "serviceWorker" in navigator) navigator.serviceWorker.register(url).catch(() => {});
};

/** Sets up the wake lock, sharing and the service worker once the page is parsed. */
export const startDevice = (words) => {
  setUpWakeLock();
  setUpSharing(words);
  registerServiceWorker();
};
