// Keeping score when the server cannot be reached, and reopening a page from the phone's copy.
//
// A hand saved while the server is out of reach waits on the phone (localStorage, which works over
// plain http on a LAN, where service workers are off) and is sent, in order, when the server
// answers again. Sending is idempotent by hand number; a hand another phone recorded meanwhile is
// shown with ours, for the table to choose. A page the service worker answered from its copy
// (html[data-copy-of]) is marked as such until the fresh page, fetched at once, replaces it.
(function () {
  "use strict";

  var FIRST_RETRY_MS = 2000;
  var LAST_RETRY_MS = 60000;
  var sending = false;
  var retryIn = 0;
  var retryTimer = null;
  var signIn = false;
  var staleToken = false;
  var freshening = false;

  // --- The queue of waiting hands, per game.

  function key(game) { return "uno:queue:" + game; }

  function load(game) {
    try { return JSON.parse(localStorage.getItem(key(game)) || "[]"); } catch (error) { return []; }
  }

  function store(game, queue) {
    try {
      if (queue.length) localStorage.setItem(key(game), JSON.stringify(queue));
      else localStorage.removeItem(key(game));
    } catch (error) { /* private mode or full: the hand stays on screen only */ }
  }

  function drop(game, number) {
    store(game, load(game).filter(function (hand) { return hand.number !== number; }));
  }

  function change(game, number, fields) {
    store(game, load(game).map(function (hand) {
      if (hand.number === number) for (var name in fields) hand[name] = fields[name];
      return hand;
    }));
  }

  // --- The page: which game, its record form, its token.

  function pageGame() {
    var found = location.pathname.match(/^\/games\/(\d+)$/);
    return found ? found[1] : null;
  }

  function recordForm() {
    var form = document.getElementById("hand-form");
    var action = form && (form.getAttribute("hx-post") || "");
    if (!form || !(form.hasAttribute("data-record") || /\/hands$/.test(action))) return null;
    return form;
  }

  function numberOf(form) { return parseInt(form.querySelector("input[name=number]").value, 10); }

  function token() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (error) { return ""; }
  }

  function render(element) {
    if (window.htmx) window.htmx.trigger(element, "htmx:load", { elt: element });
  }

  // The pad's own reset when it offers one (app.js, window.unoPad); else an empty pad by hand.
  function resetPad(form, number) {
    if (window.unoPad && window.unoPad.reset) { window.unoPad.reset(form, number); return; }
    form.querySelector("input[name=number]").value = String(number);
    form.querySelectorAll("input[type=radio]").forEach(function (radio) { radio.checked = radio.name === "last_card" && radio.value === ""; });
    form.querySelectorAll("[data-cards], [data-typed], [data-active]").forEach(function (input) { input.value = ""; });
    var title = form.querySelector(".pad-title");
    if (title) title.textContent = "Record hand " + number;
    var stale = form.querySelector(".stale");
    if (stale) stale.remove();
    render(form);
  }

  function summaryOf(form) {
    var summary = form.querySelector("[data-summary]");
    return form.dataset.brief || (summary ? summary.textContent.trim() : "");
  }

  // --- Saving without the server.

  function enqueue(form) {
    var game = pageGame();
    var number = numberOf(form);
    var body = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && name !== "action") body.push([name, String(value)]);
    });
    var effect = {};
    try { effect = JSON.parse(form.dataset.effect || "{}"); } catch (error) { /* shown without it */ }
    var queue = load(game).filter(function (hand) { return hand.number !== number; });
    queue.push({ number: number, body: body, brief: summaryOf(form), effect: effect, queuedAt: new Date().toISOString() });
    queue.sort(function (a, b) { return a.number - b.number; });
    store(game, queue);
    // The app's own "nothing was saved" note would now be wrong.
    var note = document.getElementById("unreachable");
    if (note) note.remove();
    resetPad(form, number + 1);
    show();
  }

  function isSave(event) {
    var form = recordForm();
    return form && event.detail.elt === form && pageGame() ? form : null;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = isSave(event);
    if (!form || (navigator.onLine && !load(pageGame()).length)) return;
    event.preventDefault();
    var missing = uncounted(form);
    if (missing) return note(form, missing);
    enqueue(form);
    flush();
  });

  // What the server would refuse at once, said now rather than after the hand has waited.
  function uncounted(form) {
    if (!form.querySelector("input[name=went_out]:checked")) return "Tap who went out.";
    var rows = Array.prototype.filter.call(form.querySelectorAll(".tally.is-counted"), function (row) {
      var typed = row.querySelector("[data-typed]");
      return !row.querySelector("[data-cards]").value.trim() && !(typed && typed.value.trim());
    });
    return rows.length ? "Count every hand before saving: " + rows.map(function (row) { return row.dataset.name; }).join(", ") + "." : "";
  }

  function note(form, text) {
    var summary = form.querySelector("[data-summary]");
    if (summary) summary.textContent = text;
  }

  document.addEventListener("htmx:sendError", function (event) {
    var form = isSave(event);
    var missing = form && uncounted(form);
    if (missing) note(form, missing);
    else if (form) {
      enqueue(form);
      retryLater();
    } else if (event.detail.elt.id !== "poll" && !document.getElementById("unreachable")) {
      // Any other change (an edit, an undo) cannot wait: say it was not made.
      var main = document.getElementById("main");
      var warning = element("p", "notice", "The scorer can't be reached, so nothing was saved. Check the Wi-Fi and try again.");
      warning.id = "unreachable";
      warning.setAttribute("role", "alert");
      main.insertBefore(warning, main.firstChild);
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var warning = document.getElementById("unreachable");
    if (warning && event.detail.successful) warning.remove();
  });

  // --- Showing the waiting hands.

  function say(text) {
    var status = document.getElementById("waiting-status");
    if (status) status.textContent = text;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function button(label, action, number) {
    var node = element("button", "button small", label);
    node.type = "button";
    node.dataset.queue = action;
    node.dataset.number = String(number);
    return node;
  }

  function version(label, hand) {
    return element("p", "version", label + ": " + hand.brief + " (" + hand.detail + ")");
  }

  function itemFor(hand) {
    var item = element("li", "waiting-hand");
    item.dataset.number = String(hand.number);
    var state = hand.conflict ? "another phone recorded it" : hand.problem ? "not sent" : "waiting to send";
    item.appendChild(element("span", "", "Hand " + hand.number + " · " + (hand.brief || "hand") + " · " + state));
    if (hand.conflict) {
      item.appendChild(version("Theirs", hand.conflict.theirs));
      item.appendChild(version("Ours", hand.conflict.ours));
      item.appendChild(button("Keep theirs", "theirs", hand.number));
      item.appendChild(button("Use ours", "ours", hand.number));
    } else if (hand.problem) {
      item.appendChild(element("p", "error", hand.problem));
      item.appendChild(button("Drop this hand", "theirs", hand.number));
    }
    return item;
  }

  function show() {
    var game = pageGame();
    if (!game) return;
    var queue = load(game);
    var box = document.getElementById("waiting");
    var play = document.getElementById("play");
    showEffects(queue);
    if (!queue.length || !play) { if (box) box.remove(); return; }
    if (!box) {
      box = element("section", "waiting-hands panel");
      box.id = "waiting";
      box.setAttribute("aria-label", "Hands waiting to send");
      box.appendChild(element("ol", "waiting-list"));
      var status = element("p", "waiting-status muted");
      status.id = "waiting-status";
      status.setAttribute("role", "status");
      box.appendChild(status);
    }
    if (box.nextElementSibling !== play) play.parentNode.insertBefore(box, play);
    var list = box.querySelector("ol");
    list.replaceChildren.apply(list, queue.map(itemFor));
    say(signIn ? "" : sending ? "Sending…" : "Kept on this phone; sent when the scorer answers.");
    var login = box.querySelector(".sign-in");
    if (signIn && !login) {
      login = element("a", "sign-in", "Sign in to send");
      login.href = "/login?next=" + encodeURIComponent(location.pathname);
      box.appendChild(login);
    } else if (!signIn && login) login.remove();
    // The pad counts the hand after the last one waiting.
    var form = recordForm();
    var last = queue[queue.length - 1].number;
    if (form && numberOf(form) <= last && !form.querySelector("input[name=went_out]:checked")) resetPad(form, last + 1);
  }

  // What the waiting hands would add to each side, next to its confirmed score.
  function showEffects(queue) {
    var totals = {};
    queue.forEach(function (hand) {
      for (var side in hand.effect || {}) totals[side] = (totals[side] || 0) + hand.effect[side];
    });
    document.querySelectorAll("[data-side] [data-waiting]").forEach(function (slot) {
      var points = totals[slot.closest("[data-side]").dataset.side];
      slot.hidden = points === undefined;
      slot.textContent = points === undefined ? "" : "+" + points + " waiting";
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-queue]");
    var game = pageGame();
    if (!target || !game) return;
    var number = parseInt(target.dataset.number, 10);
    if (target.dataset.queue === "theirs") {
      drop(game, number);
      refresh();
      show();
      flush();
      return;
    }
    var hand = load(game).filter(function (waiting) { return waiting.number === number; })[0];
    if (!hand) return;
    target.disabled = true;
    send(game, hand, true).then(function (answer) {
      if (answer.ok) drop(game, number);
      else handle(game, hand, answer);
      refresh();
      show();
      flush();
    }, function () { target.disabled = false; say("The scorer can't be reached. Try again in a moment."); });
  });

  // --- Sending, in order, when the server answers.

  function send(game, hand, replace) {
    var body = new URLSearchParams();
    hand.body.forEach(function (field) { body.append(field[0], field[1]); });
    if (replace) body.append("replace", "1");
    return fetch("/games/" + game + "/hands/" + hand.number + "/sync", {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": token() },
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        data.ok = response.ok;
        data.code = response.status;
        return data;
      });
    });
  }

  // An answer that keeps the hand waiting for the table (or a sign-in); false if it is worth retrying.
  function handle(game, hand, answer) {
    signIn = answer.code === 401 || answer.code === 403;
    if (answer.status === "conflict") change(game, hand.number, { conflict: { theirs: answer.theirs, ours: answer.ours } });
    else if (answer.status === "invalid" || answer.status === "refused")
      change(game, hand.number, { problem: answer.message || (answer.errors || []).join(" ") || "The scorer refused this hand." });
    // A token the server no longer takes (a new session): the fresh page's, on the next try.
    staleToken = answer.code === 400;
    return signIn || !!answer.status;
  }

  function flush() {
    var game = pageGame();
    var queue = game ? load(game) : [];
    if (sending || !queue.length || queue[0].conflict || queue[0].problem) return;
    if (staleToken) {
      staleToken = false;
      freshen();
      return;
    }
    sending = true;
    clearTimeout(retryTimer);
    show();
    var hand = queue[0];
    send(game, hand, false).then(function (answer) {
      sending = false;
      if (answer.ok) {
        signIn = false;
        retryIn = 0;
        drop(game, hand.number);
        if (window.unoPad && window.unoPad.forget) window.unoPad.forget(game, hand.number);
        if (load(game).length) flush();
        else refresh();
      } else if (handle(game, hand, answer)) refresh();
      else retryLater();
      show();
    }, function () {
      sending = false;
      retryLater();
      show();
    });
  }

  function isCopy() { return document.documentElement.dataset.copyOf !== undefined; }

  // Asks the server again later, less and less often, while something waits for it.
  function retryLater() {
    clearTimeout(retryTimer);
    if (!isCopy() && !(pageGame() && load(pageGame()).length)) return;
    retryIn = Math.min(LAST_RETRY_MS, retryIn ? retryIn * 2 : FIRST_RETRY_MS);
    retryTimer = setTimeout(retry, retryIn);
  }

  function retry() {
    if (isCopy()) freshen();
    else flush();
  }

  // The game as the server has it now: the poll when the page has one, else the whole page.
  function refresh() {
    if (!isCopy() && window.htmx && document.getElementById("poll")) window.htmx.trigger(document.body, "refresh");
    else freshen();
  }

  // --- A page from the phone's copy: marked until the fresh one replaces it.

  function clock(iso) {
    var seen = new Date(iso);
    if (isNaN(seen)) return "earlier";
    return ("0" + seen.getHours()).slice(-2) + ":" + ("0" + seen.getMinutes()).slice(-2);
  }

  function mark(text) {
    var node = document.getElementById("copy-mark");
    if (!node) return;
    node.textContent = text || "";
    node.hidden = !text;
  }

  function touched(play) {
    return !!(play && play.querySelector("input[name=went_out]:checked"));
  }

  function swap(from, to, selector) {
    var old = document.querySelector(selector);
    var fresh = to.querySelector(selector);
    if (old && fresh) old.replaceWith(fresh);
    return old && fresh ? fresh : null;
  }

  function replace(fresh) {
    document.title = fresh.title;
    var headers = fresh.body.getAttribute("hx-headers");
    if (headers) document.body.setAttribute("hx-headers", headers);
    swap(document, fresh, "header.topbar");
    var oldPlay = document.getElementById("play");
    var freshPlay = fresh.getElementById("play");
    // A tally started on the copy stays when the fresh page still wants that hand.
    if (touched(oldPlay) && freshPlay && handOf(oldPlay) === handOf(freshPlay)) freshPlay.replaceWith(oldPlay);
    var part = swap(document, fresh, "#game") || swap(document, fresh, "main");
    if (!part) return;
    if (window.htmx) window.htmx.process(part);
    render(part);
  }

  function handOf(play) {
    var input = play.querySelector("form.pad input[name=number]");
    return input ? input.value : null;
  }

  function freshen() {
    var root = document.documentElement;
    var seen = root.dataset.copyOf;
    if (freshening) return;
    freshening = true;
    clearTimeout(retryTimer);
    if (seen !== undefined) mark("Last seen " + clock(seen) + " · updating…");
    return fetch(location.pathname + location.search, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-Fresh-Copy": "1" },
    }).then(function (response) {
      // Gone (a game deleted): the server's own page says so; the worker dropped the copy.
      if (response.status === 404 && isCopy()) location.reload();
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    }).then(function (text) {
      freshening = false;
      replace(new DOMParser().parseFromString(text, "text/html"));
      delete root.dataset.copyOf;
      mark("");
      show();
      flush();
    }, function () {
      freshening = false;
      if (isCopy()) mark((navigator.onLine ? "Can't reach the scorer" : "Offline") + " · last seen " + clock(seen));
      retryLater();
    });
  }

  // The phone's copy follows the page as it changes (a save, a hand from another phone) without
  // downloading it again: the worker keeps what this page shows.
  var copyTimer = null;
  function keepCopy() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || isCopy()) return;
    clearTimeout(copyTimer);
    copyTimer = setTimeout(function () {
      // A tally being counted is the pad's to keep, not the copy's: the copy waits for the save.
      if (touched(document.getElementById("play"))) return;
      worker.postMessage({ path: location.pathname, html: "<!doctype html>\n" + document.documentElement.outerHTML });
    }, 300);
  }

  document.addEventListener("htmx:afterSettle", function () {
    show();
    keepCopy();
  });
  function again() {
    retryIn = 0;
    retry();
  }

  window.addEventListener("online", again);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) again(); });
  // A deferred script runs once the page is parsed: the fresh page is asked for now, not after
  // DOMContentLoaded's other work.
  show();
  retry();
})();
