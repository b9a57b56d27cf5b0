// Keeping score when the server cannot be reached, and reopening a page from the phone's copy.
//
// A hand saved while the server is out of reach waits on the phone (localStorage, which works over
// plain http on a LAN, where service workers are off) and is sent, in order, when the server
// answers again (queue.js). A hand another phone recorded meanwhile is shown with ours, for the
// table to choose. A page the service worker answered from its copy (html[data-copy-of]) is marked
// as such until the fresh page, fetched at once, is in place: on a game page only the parts that
// changed are replaced, and never the pad being touched (copy.js, freshPlan).

import { freshPlan, markText, nextState, startState } from "./copy.js";
import { element, handNumber, localStore } from "./dom.js";
import { keepPad, pollNow } from "./live.js";
import { enhancePads, forgetTally, hasTally, padRefusal, resetPad } from "./pad.js";
import { dealerOf, nextRetry, nextToSend, needsChoice, outcome, waitingHands, waitingPoints } from "./queue.js";
import { fill } from "./words.js";

// How long the page waits after a change before the worker's copy follows it.
const COPY_DELAY_MS = 300;

let words = {};
let urls = {};
let game = null;
let sending = false;
let retryIn = 0;
let retryTimer = null;
let signIn = false;
let staleToken = false;
let freshening = false;
let copyState = "fresh";
// The copy's mark as the worker served it, its time filled in: what it says while updating.
let updatingText = "";

// Where the browser refuses storage, nothing waits beyond the page.
const NO_STORAGE = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const queue = () => waitingHands(localStore() || NO_STORAGE, game);

// --- The page: its record form, its token.

const recordForm = () => {
  const form = document.getElementById("hand-form");
  return form && form.hasAttribute("data-record") ? form : null;
};

const csrfToken = () => {
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch {
    return "";
  }
};

const briefOf = (form) => {
  const summary = form.querySelector("[data-summary]");
  return form.dataset.brief || (summary ? summary.textContent.trim() : "");
};

// --- Saving without the server.

const enqueue = (form) => {
  const number = handNumber(form);
  const body = [];
  new FormData(form).forEach((value, name) => {
    if (name !== "csrf_token" && name !== "action") body.push([name, String(value)]);
  });
  let effect = {};
  try {
    effect = JSON.parse(form.dataset.effect || "{}");
  } catch {
    /* shown without it */
  }
  queue().add({ number, body, brief: briefOf(form), effect, queuedAt: new Date().toISOString() });
  // The app's own "nothing was saved" note would now be wrong.
  document.getElementById("unreachable")?.remove();
  resetPad(form, number + 1, words);
  showQueue();
};

const isSave = (event) => {
  const form = recordForm();
  return form && event.detail.elt === form && game ? form : null;
};

const sayOnPad = (form, text) => {
  const summary = form.querySelector("[data-summary]");
  if (summary) summary.textContent = text;
};

const onBeforeRequest = (event) => {
  const form = isSave(event);
  if (!form || (navigator.onLine && !queue().list().length)) return;
  event.preventDefault();
  const refusal = padRefusal(form);
  if (refusal) {
    sayOnPad(form, refusal);
    return;
  }
  enqueue(form);
  flush();
};

const onSendError = (event) => {
  const form = isSave(event);
  const refusal = form && padRefusal(form);
  if (refusal) sayOnPad(form, refusal);
  else if (form) {
    enqueue(form);
    retryLater();
  } else if (event.detail.elt.id !== "poll" && !document.getElementById("unreachable")) {
    // Any other change (an edit, an undo) cannot wait: say it was not made.
    const main = document.getElementById("main");
    const warning = element("p", "notice", words.notSaved);
    warning.id = "unreachable";
    warning.setAttribute("role", "alert");
    main.insertBefore(warning, main.firstChild);
  }
};

const onAfterRequest = (event) => {
  const warning = document.getElementById("unreachable");
  if (warning && event.detail.successful) warning.remove();
};

// --- Showing the waiting hands.

const sayStatus = (text) => {
  const status = document.getElementById("waiting-status");
  if (status) status.textContent = text;
};

const queueButton = (label, action, number) => {
  const node = element("button", "button small", label);
  node.type = "button";
  node.dataset.queue = action;
  node.dataset.number = String(number);
  return node;
};

const versionLine = (label, version) =>
  element("p", "version", fill(words.version, { label, brief: version.brief, detail: version.detail }));

const waitingItem = (hand) => {
  const item = element("li", "waiting-hand");
  item.dataset.number = String(hand.number);
  const state = hand.conflict ? words.conflict : hand.problem ? words.notSent : words.waiting;
  item.appendChild(element("span", "", fill(words.waitingHand, { number: hand.number, brief: hand.brief || words.aHand, state })));
  if (hand.conflict) {
    item.appendChild(versionLine(words.theirs, hand.conflict.theirs));
    item.appendChild(versionLine(words.ours, hand.conflict.ours));
    item.appendChild(queueButton(words.keepTheirs, "theirs", hand.number));
    item.appendChild(queueButton(words.useOurs, "ours", hand.number));
  } else if (hand.problem) {
    item.appendChild(element("p", "error", hand.problem));
    item.appendChild(queueButton(words.drop, "theirs", hand.number));
  }
  return item;
};

// What the waiting hands would add to each side, next to its confirmed score.
const showWaitingPoints = (hands) => {
  const totals = waitingPoints(hands);
  for (const slot of document.querySelectorAll("[data-side] [data-waiting]")) {
    const points = totals[slot.closest("[data-side]").dataset.side];
    slot.hidden = points === undefined;
    slot.textContent = points === undefined ? "" : fill(words.waitingPoints, { points });
  }
};

// The dealer line, the DEALS badge and the Save button follow the hand the pad counts, which runs
// ahead of the scoreboard while hands wait: who deals it is the server's (data-dealers), or the
// server's line saying it cannot be known yet.
const showDealer = () => {
  const board = document.getElementById("scoreboard");
  const form = recordForm();
  const line = board && board.querySelector(".deal-line");
  const number = handNumber(form);
  if (!line || number === null || board.dataset.dealers === undefined) return;
  const save = form.querySelector("button.save");
  if (save) save.textContent = fill(words.saveHand, { number });
  // Only a pad ahead of the scoreboard needs it: one behind counts a hand another phone saved.
  const next = parseInt(board.dataset.next, 10);
  if (!(number > next) || String(number) === line.dataset.hand) return;
  line.dataset.hand = String(number);
  let dealers = [];
  try {
    dealers = JSON.parse(board.dataset.dealers);
  } catch {
    /* no dealer named */
  }
  const seat = dealerOf(dealers, next, number);
  const player = seat === null ? null : board.querySelector('.player[data-seat="' + seat + '"]');
  const mark = board.querySelector(".dealer-mark");
  if (mark) {
    mark.hidden = !player;
    // After the dealer's side, naming the dealer where the side is a team.
    const side = player && player.closest(".side-names");
    if (side) {
      const team = side.querySelectorAll(".player").length > 1;
      mark.textContent = team ? fill(words.dealerMarkTeam, { dealer: player.dataset.name }) : words.dealerMark;
      if (mark.parentNode !== side || side.lastElementChild !== mark) side.append(" ", mark);
    }
  }
  if (!player) {
    line.textContent = fill(words.dealerUnknown, { number });
    return;
  }
  // The name stands out, as in the server's line: the words around it are filled in.
  const [before, after = ""] = words.dealsHand.split("{dealer}");
  const name = element("strong", "", player.dataset.name);
  line.replaceChildren(fill(before, { number }), name, fill(after, { number }));
};

const showQueue = () => {
  showHands();
  showDealer();
};

const showHands = () => {
  if (!game) return;
  const hands = queue().list();
  let box = document.getElementById("waiting");
  const play = document.getElementById("play");
  showWaitingPoints(hands);
  if (!hands.length || !play) {
    box?.remove();
    return;
  }
  if (!box) {
    box = element("section", "waiting-hands panel");
    box.id = "waiting";
    box.setAttribute("aria-label", words.waitingLabel);
    box.appendChild(element("ol", "waiting-list"));
    const status = element("p", "waiting-status muted");
    status.id = "waiting-status";
    status.setAttribute("role", "status");
    box.appendChild(status);
  }
  // Under the pad, so hands waiting never push it down under the thumb; above it when one needs
  // the table's choice (another phone's version of it, or a refusal).
  const choose = needsChoice(hands);
  if (choose && box.nextElementSibling !== play) play.parentNode.insertBefore(box, play);
  else if (!choose && box.previousElementSibling !== play) play.parentNode.insertBefore(box, play.nextSibling);
  box.querySelector("ol").replaceChildren(...hands.map(waitingItem));
  sayStatus(signIn ? "" : sending ? words.sending : words.kept);
  let login = box.querySelector(".sign-in");
  if (signIn && !login) {
    login = element("a", "sign-in", words.signIn);
    login.href = urls.signIn;
    box.appendChild(login);
  } else if (!signIn && login) login.remove();
  // The pad counts the hand after the last one waiting.
  const form = recordForm();
  const last = hands[hands.length - 1].number;
  if (form && handNumber(form) <= last && !form.querySelector("input[name=went_out]:checked")) resetPad(form, last + 1, words);
};

const onQueueClick = (event) => {
  const target = event.target.closest && event.target.closest("[data-queue]");
  if (!target || !game) return;
  const number = parseInt(target.dataset.number, 10);
  if (target.dataset.queue === "theirs") {
    queue().drop(number);
    refresh();
    showQueue();
    flush();
    return;
  }
  const hand = queue().find(number);
  if (!hand) return;
  target.disabled = true;
  send(hand, true).then(
    (answer) => {
      if (answer.ok) queue().drop(number);
      else handle(hand, answer);
      refresh();
      showQueue();
      flush();
    },
    () => {
      target.disabled = false;
      sayStatus(words.tryAgain);
    },
  );
};

// --- Sending, in order, when the server answers.

const send = (hand, replace) => {
  const body = new URLSearchParams();
  for (const [name, value] of hand.body) body.append(name, value);
  if (replace) body.append("replace", "1");
  return fetch(fill(urls.sync, { number: hand.number }), {
    method: "POST",
    body,
    credentials: "same-origin",
    headers: { "X-CSRFToken": csrfToken() },
  }).then((response) =>
    response
      .json()
      .catch(() => ({}))
      .then((data) => ({ ...data, ok: response.ok, code: response.status })),
  );
};

// An answer that keeps the hand waiting for the table (or a sign-in); false if it is worth retrying.
const handle = (hand, answer) => {
  const result = outcome(answer, words.refused);
  signIn = result.signIn;
  if (result.fields) queue().mark(hand.number, result.fields);
  // A token the server no longer takes (a new session): the fresh page's, on the next try.
  staleToken = result.staleToken;
  return result.hold;
};

const flush = () => {
  const hand = game ? nextToSend(queue().list()) : null;
  if (sending || !hand) return;
  if (staleToken) {
    staleToken = false;
    freshen();
    return;
  }
  sending = true;
  clearTimeout(retryTimer);
  showQueue();
  send(hand, false).then(
    (answer) => {
      sending = false;
      if (answer.ok) {
        signIn = false;
        retryIn = 0;
        queue().drop(hand.number);
        forgetTally(game, hand.number);
        if (queue().list().length) flush();
        else refresh();
      } else if (handle(hand, answer)) refresh();
      else retryLater();
      showQueue();
    },
    () => {
      sending = false;
      retryLater();
      showQueue();
    },
  );
};

const isCopy = () => document.documentElement.dataset.copyOf !== undefined;

// Asks the server again later, less and less often, while something waits for it.
const retryLater = () => {
  clearTimeout(retryTimer);
  if (!isCopy() && !(game && queue().list().length)) return;
  retryIn = nextRetry(retryIn);
  retryTimer = setTimeout(retry, retryIn);
};

const retry = () => {
  if (isCopy()) freshen();
  else flush();
};

// The game as the server has it now: the poll when the page has one, else the whole page.
const refresh = () => {
  if (!isCopy() && window.htmx && document.getElementById("poll")) pollNow();
  else freshen();
};

// --- A page from the phone's copy: marked until the fresh one replaces it.

// The copy's mark, hidden in the markup and shown by the stylesheet while the page is a copy: only
// a change of words is written, so nothing is laid out again for nothing.
const showCopyState = (event, seen) => {
  copyState = nextState(copyState, event, navigator.onLine);
  const text = markText(copyState, { words, updating: updatingText, seen });
  const node = document.getElementById("copy-mark");
  if (node && text !== null && node.textContent !== text) node.textContent = text;
};

const wentOutChosen = (play) => !!(play && play.querySelector("input[name=went_out]:checked"));

const swapPart = (fresh, selector) => {
  const old = document.querySelector(selector);
  const part = fresh.querySelector(selector);
  if (old && part) old.replaceWith(part);
  return old && part ? part : null;
};

const activate = (part) => {
  if (window.htmx) window.htmx.process(part);
  enhancePads(part);
};

// A game page takes the fresh state in place, part by part (freshPlan): the parts of a game that
// did not move on are not laid out again, and the pad being touched is never replaced.
const freshenGame = (fresh) => {
  const board = document.getElementById("scoreboard");
  const freshBoard = fresh.getElementById("scoreboard");
  const oldPlay = document.getElementById("play");
  const freshPlay = fresh.getElementById("play");
  const oldPad = oldPlay && oldPlay.querySelector("form.pad");
  // A page for someone else (the copy was made signed in, the session has ended since) is no
  // game moved on: all of it is the fresh page's, the pad included.
  const sameViewer = !!oldPad === !!(freshPlay && freshPlay.querySelector("form.pad"));
  const plan = freshPlan({
    sameGame: sameViewer && board.dataset.version === freshBoard.dataset.version,
    touched: sameViewer && !!oldPad && hasTally(oldPad),
    hand: handNumber(oldPlay),
    freshHand: handNumber(freshPlay),
  });
  for (const id of plan.parts) {
    const part = swapPart(fresh, "#" + id);
    // A part the fresh page no longer has (the poller of a game now over) goes.
    if (part) activate(part);
    else if (!fresh.getElementById(id)) document.getElementById(id)?.remove();
  }
  if (plan.parts.length) for (const notice of document.querySelectorAll("#game > .notice")) notice.remove();
  if (plan.play === "swap" && oldPlay && freshPlay) {
    oldPlay.replaceWith(freshPlay);
    activate(freshPlay);
  } else if (plan.play === "note" && oldPad) keepPad(oldPad, freshPlay);
  // The pad kept saves with the fresh page's token: the copy's may have expired.
  const token = fresh.querySelector("input[name=csrf_token]");
  if (token) for (const input of document.querySelectorAll("#game input[name=csrf_token]")) input.value = token.value;
};

const replacePage = (fresh) => {
  document.title = fresh.title;
  const headers = fresh.body.getAttribute("hx-headers");
  if (headers) document.body.setAttribute("hx-headers", headers);
  swapPart(fresh, "header.topbar");
  if (document.getElementById("scoreboard") && fresh.getElementById("scoreboard") && document.getElementById("game")) {
    freshenGame(fresh);
    return;
  }
  const part = swapPart(fresh, "#game") || swapPart(fresh, "main");
  if (part) activate(part);
};

const freshen = () => {
  const root = document.documentElement;
  const seen = root.dataset.copyOf;
  if (freshening) return;
  freshening = true;
  clearTimeout(retryTimer);
  showCopyState("ask", seen);
  fetch(location.pathname + location.search, {
    credentials: "same-origin",
    cache: "no-store",
    headers: { "X-Fresh-Copy": "1" },
  })
    .then((response) => {
      // Gone (a game deleted): the server's own page says so; the worker dropped the copy.
      if (response.status === 404 && isCopy()) location.reload();
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    })
    .then(
      (text) => {
        freshening = false;
        replacePage(new DOMParser().parseFromString(text, "text/html"));
        delete root.dataset.copyOf;
        showCopyState("answered", seen);
        showQueue();
        flush();
      },
      () => {
        freshening = false;
        showCopyState("failed", seen);
        retryLater();
      },
    );
};

// The phone's copy follows the page as it changes (a save, a hand from another phone) without
// downloading it again: the worker keeps what this page shows.
let copyTimer = null;
const keepCopy = () => {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!worker || isCopy()) return;
  clearTimeout(copyTimer);
  copyTimer = setTimeout(() => {
    // A tally being counted is the pad's to keep, not the copy's: the copy waits for the save.
    if (wentOutChosen(document.getElementById("play"))) return;
    worker.postMessage({ path: location.pathname, html: "<!doctype html>\n" + document.documentElement.outerHTML });
  }, COPY_DELAY_MS);
};

const tryAgainNow = () => {
  retryIn = 0;
  retry();
};

/**
 * Starts the queue and the copy: `client` is the server's words, its URLs and the page's game
 * (null on a page of no game).
 */
export const startOffline = (client) => {
  ({ words, urls, game } = client);
  copyState = startState(isCopy());
  updatingText = document.getElementById("copy-mark")?.textContent || "";
  document.addEventListener("htmx:beforeRequest", onBeforeRequest);
  document.addEventListener("htmx:sendError", onSendError);
  document.addEventListener("htmx:afterRequest", onAfterRequest);
  document.addEventListener("click", onQueueClick);
  document.addEventListener("htmx:afterSettle", () => {
    showQueue();
    keepCopy();
  });
  window.addEventListener("online", tryAgainNow);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) tryAgainNow();
  });
  // Started once the page is parsed (main.js): the fresh page is asked for now, not after
  // DOMContentLoaded's other work.
  showQueue();
  retry();
};
