// Several phones on one game: the poll never wipes a tally being entered, focus stays where it was
// when a swap replaces the focused control (or moves on purpose after a save or a refusal), and a
// screen reader hears one polite sentence whenever the scores change, whoever changed them.

import { handNumber } from "./dom.js";
import { forgetTally, hasTally } from "./pad.js";
import { fill } from "./words.js";

let words = {};

// --- A poll must never wipe a tally being entered.

/**
 * Keeps the touched pad, and says why the game moved on under it: `fresh` holds the pad the
 * server would show now. Saving it then gets the server's answer to a hand already recorded, so
 * a hand is never counted twice.
 */
export const keepPad = (pad, fresh) => {
  const mine = handNumber(pad);
  const next = handNumber(fresh);
  let text;
  if (next === null) text = words.ended;
  else if (next > mine) text = fill(words.savedElsewhere, { number: mine });
  else if (next < mine) text = words.undoneElsewhere;
  else return;
  // Recorded elsewhere: this phone's copy of the tally is not kept for a reload any more.
  if (next === null || next > mine) {
    pad.dataset.stale = "true";
    forgetTally(pad.dataset.game, mine);
  }
  let note = pad.querySelector(".stale");
  if (!note) {
    note = document.createElement("p");
    note.className = "notice stale";
    note.setAttribute("role", "status");
    pad.querySelector(".pad-title").insertAdjacentElement("afterend", note);
  }
  note.textContent = text;
};

// Back at the hand a note was about (another phone undid it): the note no longer holds.
const tidyNotes = () => {
  const board = document.getElementById("scoreboard");
  const next = board && parseInt(board.dataset.next, 10);
  if (!next) return;
  const notice = document.querySelector("#game > .notice[data-until]");
  if (notice && next < parseInt(notice.dataset.until, 10)) notice.remove();
  const pad = document.querySelector("form.pad[data-record]");
  const stale = pad && pad.querySelector(".stale");
  if (stale && handNumber(pad) === next) {
    stale.remove();
    delete pad.dataset.stale;
  }
};

const isPoll = (node) => !!node && node.id === "poll";

/** Asks the server for the game as it is now, where the page polls. */
export const pollNow = () => {
  if (window.htmx && document.getElementById("poll")) window.htmx.trigger(document.body, "refresh");
};

// --- Focus: kept where it was when a swap replaces the focused control, else moved on purpose.

let lastFocus = null;

const rememberFocus = () => {
  const focused = document.activeElement;
  lastFocus = null;
  if (!focused || focused === document.body) return;
  if (focused.id) lastFocus = "#" + CSS.escape(focused.id);
  else if (focused.name) {
    lastFocus = '[name="' + CSS.escape(focused.name) + '"]';
    if (focused.value) lastFocus += '[value="' + CSS.escape(focused.value) + '"]';
  }
};

const restoreFocus = () => {
  const active = document.activeElement;
  if (!lastFocus || (active && active !== document.body)) return;
  const target = document.querySelector(lastFocus);
  if (target) target.focus({ preventScroll: true });
};

const focusOn = (target) => {
  if (!target) return;
  if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.setAttribute("tabindex", "-1");
  target.focus();
};

// The first error of a refused form: its field, the first choice of its group, or the message.
const focusFirstError = (root) => {
  const error = root && root.querySelector(".error");
  if (!error) return;
  let owner = error.id && root.querySelector('[aria-describedby~="' + CSS.escape(error.id) + '"]');
  if (owner && owner.tagName === "FIELDSET") owner = owner.querySelector("input:not([disabled])");
  focusOn(owner || error);
};

// --- Announcements.

let announced = null;

/** Says the scores' new state when they changed since the last call. */
export const announce = () => {
  const board = document.getElementById("scoreboard");
  const out = document.getElementById("announcer");
  if (!board || !out) return;
  if (announced !== null && board.dataset.version !== announced) out.textContent = board.dataset.announce;
  announced = board.dataset.version;
};

const onOobBeforeSwap = (event) => {
  const target = event.detail.target;
  const pad = target.id === "play" && target.querySelector("form.pad");
  if (pad && hasTally(pad)) {
    event.preventDefault();
    keepPad(pad, event.detail.fragment);
  }
};

const onBeforeRequest = (event) => {
  if (!isPoll(event.detail.elt)) return;
  // A hidden page need not ask (it asks again when shown), nor one waiting for its own save.
  if (document.hidden || document.querySelector("form.htmx-request")) event.preventDefault();
};

const onBeforeSwap = (event) => {
  // An answer that arrives after the poller was replaced (by a save, or a newer poll) is old news.
  const source = event.detail.elt;
  if (isPoll(source) && (!document.body.contains(source) || document.querySelector("form.htmx-request"))) {
    event.detail.shouldSwap = false;
    return;
  }
  rememberFocus();
};

const onAfterSettle = (event) => {
  const detail = event.detail;
  const source = detail.requestConfig && detail.requestConfig.elt;
  announce();
  if (!detail.xhr || !source || isPoll(source)) {
    tidyNotes();
    restoreFocus();
    return;
  }
  const status = detail.xhr.status;
  // After an outerHTML swap the request's target is the old, detached element; the event comes
  // from the new one.
  if (status === 422) focusFirstError(event.target.isConnected ? event.target : document.getElementById("main"));
  else if (status === 409 && document.getElementById("race")) {
    // Another phone saved the hand first: its note is where the pad was, so the view stays put.
    document.getElementById("race").focus({ preventScroll: true });
  } else if (status === 409 && document.querySelector("#game > .notice")) focusOn(document.querySelector("#game > .notice"));
  else if (status === 200 && source.matches && source.matches("form.pad[data-record], [data-undo]")) {
    // Saved (or undone): the pad is where it was, ready for the next hand; the view stays put.
    const first = document.querySelector("form.pad input[name=went_out]:not([disabled])");
    if (first) first.focus({ preventScroll: true });
    else restoreFocus();
  } else restoreFocus();
};

// "Keep theirs" after another phone saved the hand first: the pad for the next hand, which the
// server sent behind the note, takes the note's place. Without a script the link reloads the game.
const onClick = (event) => {
  const keep = event.target.closest && event.target.closest("[data-keep-theirs]");
  const race = keep && document.getElementById("race");
  const pad = race && document.querySelector("[data-race-pad]");
  if (!pad) return;
  event.preventDefault();
  race.remove();
  pad.hidden = false;
  const first = pad.querySelector("input[name=went_out]:not([disabled])");
  if (first) first.focus({ preventScroll: true });
};

/** Listens for the poll's answers and every swap. `clientWords` are the server's words. */
export const startLive = (clientWords) => {
  words = clientWords;
  document.addEventListener("htmx:oobBeforeSwap", onOobBeforeSwap);
  document.addEventListener("htmx:beforeRequest", onBeforeRequest);
  document.addEventListener("htmx:beforeSwap", onBeforeSwap);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) pollNow();
  });
  document.addEventListener("htmx:afterSettle", onAfterSettle);
  document.addEventListener("click", onClick);
};
