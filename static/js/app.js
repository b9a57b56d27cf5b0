// The page's one script, in three parts: the tally pad and game setup; several phones, focus and
// the installable app; and keeping score offline. One file rather than three: each file costs a
// request's headers and compresses apart, and the first visit must stay within 35 KB.
//
// Progressive enhancement for the tally pad and game setup. Without this file every button is a
// plain form post that the server answers with the changed form; with it, card taps stay on the
// phone (no request per card) and only Save talks to the server. The rules come from the server in
// the form's data-pad (forms/hands.py, HandForm.pad_data): this file only adds up and fills in.
(function () {
  "use strict";

  var STORE = "uno:tally:";

  function all(root, selector) {
    return Array.prototype.slice.call(root.querySelectorAll(selector));
  }

  function padOf(form) {
    if (!form._pad) form._pad = JSON.parse(form.dataset.pad);
    return form._pad;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }

  function wentOut(form) {
    var checked = form.querySelector("input[name=went_out]:checked");
    return checked ? checked.value : null;
  }

  function cardsOf(row) {
    var text = row.querySelector("[data-cards]").value.trim();
    return text ? text.split(/\s+/) : [];
  }

  function numberOf(form) {
    return form.querySelector("input[name=number]").value;
  }

  // --- A half-counted tally is kept on the phone, per game and hand, until the hand is saved.

  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  function forget(game, number) {
    var store = storage();
    if (store) store.removeItem(STORE + game + ":" + number);
  }

  // What was entered on the pad (not its token, nor the hand's number), radios by their choice:
  // who went out, each seat's cards and typed total, the seat being counted, the last card.
  function fields(form) {
    return all(form, "input[name]:not([name=csrf_token]):not([name=number])");
  }

  function touched(form) {
    return fields(form).some(function (input) {
      return input.name !== "active" && (input.type === "radio" ? input.checked && input.value : input.value.trim());
    });
  }

  // `counting` is touched(form), which render has already worked out.
  function keep(form, counting) {
    var store = storage();
    if (!store || !form.hasAttribute("data-record") || form.dataset.stale) return;
    var key = STORE + form.dataset.game + ":" + numberOf(form);
    if (!counting) { store.removeItem(key); return; }
    var tally = {};
    fields(form).forEach(function (input) {
      if (input.type !== "radio" || input.checked) tally[input.name] = input.value;
    });
    try { store.setItem(key, JSON.stringify(tally)); } catch (error) { /* full: the pad still works */ }
  }

  // A pad drawn by the server, untouched, takes back what this phone had counted for its hand;
  // tallies of earlier hands are done with.
  function restore(form) {
    var store = storage();
    if (!store || !form.hasAttribute("data-record")) return;
    var prefix = STORE + form.dataset.game + ":";
    var number = parseInt(numberOf(form), 10);
    for (var i = store.length - 1; i >= 0; i--) {
      var key = store.key(i);
      if (key && key.indexOf(prefix) === 0 && parseInt(key.slice(prefix.length), 10) < number) store.removeItem(key);
    }
    var tally;
    try { tally = JSON.parse(store.getItem(prefix + number)); } catch (error) { tally = null; }
    if (!tally || touched(form)) return;
    fields(form).forEach(function (input) {
      var value = tally[input.name] || "";
      if (input.type === "radio") input.checked = input.value === value;
      else input.value = value;
    });
  }

  // --- Drawing the pad from its fields.

  function stateOf(pad, seat, out) {
    if (!(seat in pad.counted)) return "eliminated";
    if (out === null) return "waiting";
    if (seat === out) return "out";
    return pad.counted[out].indexOf(parseInt(seat, 10)) === -1 ? "partner" : "counted";
  }

  function deckPattern(words) {
    var escape = function (text) { return text.replace(/[.*+?^$()|[\]\\]/g, "\\$&"); };
    var one = [words.over, words.none].map(function (template) {
      return escape(template).replace(/\\?\{\w+\\?\}/g, ".+?");
    }).join("|");
    return new RegExp("^(\\s*(" + one + "))+\\s*$");
  }

  // Cards of one kind counted across the hand beyond what the deck has: a message per holder.
  function deckProblems(pad, tokensBySeat) {
    var problems = {};
    pad.limits.forEach(function (limit) {
      var holders = [];
      var counted = 0;
      Object.keys(tokensBySeat).forEach(function (seat) {
        var used = tokensBySeat[seat].filter(function (card) { return limit[1].indexOf(card) !== -1; }).length;
        if (used) { holders.push(seat); counted += used; }
      });
      if (counted <= limit[2]) return;
      var message = fill(limit[2] === 0 ? pad.words.none : pad.words.over, { counted: counted, kind: limit[0], limit: limit[2] });
      holders.forEach(function (seat) { (problems[seat] = problems[seat] || []).push(message); });
    });
    return problems;
  }

  function showDeckProblems(form, row, messages) {
    var note = row.querySelector("[data-deck]");
    var text = (messages || []).join(" ");
    if (!text) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.className = "error";
      note.setAttribute("data-deck", "");
      note.setAttribute("role", "alert");
      row.appendChild(note);
    }
    if (note.textContent !== text) note.textContent = text;
    var server = row.querySelector(".error:not([data-deck])");
    if (server && form._deckPattern.test(server.textContent)) clearServerError(row);
  }

  function clearServerError(row) {
    var error = row.querySelector(".error:not([data-deck])");
    if (error) error.remove();
    var typed = row.querySelector("[data-typed]");
    typed.removeAttribute("aria-invalid");
    typed.removeAttribute("aria-describedby");
  }

  function render(form) {
    var pad = padOf(form);
    var words = pad.words;
    if (!form._deckPattern) form._deckPattern = deckPattern(words);
    var out = wentOut(form);
    var counted = out === null ? [] : pad.counted[out].map(String);
    var activeInput = form.querySelector("[data-active]");
    var challenge = pad.mode === "challenge";
    var rows = all(form, ".tally");
    var total = 0;
    var effect = {};
    var brief = [];
    var tokensBySeat = {};

    rows.forEach(function (row) {
      var seat = row.dataset.seat;
      var state = stateOf(pad, seat, out);
      var on = state === "counted";
      var typedInput = row.querySelector("[data-typed]");
      var typedText = typedInput.value.trim();
      var cards = cardsOf(row);
      var points = 0;
      if (typedText && /^\d+$/.test(typedText)) points = parseInt(typedText, 10);
      else cards.forEach(function (card) { points += pad.values[card] || 0; });
      row.className = row.className.replace(/\bis-\w+\b/g, "").trim() + " is-" + state;
      row.querySelector(".tally-pick").disabled = !on;
      row.querySelector("[data-cards]").disabled = !on;
      typedInput.disabled = !on;
      row.querySelector("[data-note]").textContent = on ? "" : words[state] || "";
      // A tally kept from before who went out changed is not drawn over "went out".
      row.querySelector("[data-tape]").textContent = !on ? "" : typedText
        ? words.typed
        : cards.map(function (card) { return pad.values[card]; }).join(words.tape);
      row.querySelector("[data-points]").textContent = on ? String(points) : "";
      if (!on) return;
      total += points;
      if (!typedText) tokensBySeat[seat] = cards;
      if (challenge) {
        var side = pad.sides[seat];
        effect[side] = (effect[side] || 0) + points;
        brief.push(pad.names[seat] + " +" + points);
      }
    });

    var problems = deckProblems(pad, tokensBySeat);
    rows.forEach(function (row) { showDeckProblems(form, row, problems[row.dataset.seat]); });

    var active = counted.indexOf(activeInput.value) === -1 ? counted[0] || "" : activeInput.value;
    activeInput.value = active;
    rows.forEach(function (row) {
      var isActive = row.dataset.seat === active;
      row.classList.toggle("is-active", isActive);
      row.querySelector(".tally-pick").setAttribute("aria-pressed", isActive ? "true" : "false");
    });

    var summary = words.nobody;
    if (out !== null && challenge) summary = fill(words.challenge, { total: total });
    else if (out !== null) {
      var partners = pad.names.filter(function (_, seat) { return pad.sides[seat] === pad.sides[out]; });
      var names = partners.join(words.and);
      summary = fill(words[partners.length > 1 ? "many" : "one"], { names: names, total: total });
      effect[pad.sides[out]] = total;
      brief.push(names + " +" + total);
    }
    form.querySelector("[data-summary]").textContent = summary;
    var counting = touched(form);
    // The next hand is being counted: its running total takes the saved note's place.
    var saved = form.querySelector("[data-toast]");
    if (saved && counting) saved.hidden = true;
    // For the offline queue (the last part of this file): the hand in a few words, and what each side gains.
    form.dataset.brief = brief.join(" · ");
    form.dataset.effect = JSON.stringify(effect);
    keep(form, counting);
  }

  function activeRow(form) {
    var seat = form.querySelector("[data-active]").value;
    return seat === "" ? null : form.querySelector('.tally[data-seat="' + seat + '"]');
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (button && button.dataset.undo && window.htmx) {
      // Undo of the "Hand N saved" note: the game goes back in place, without leaving the page.
      event.preventDefault();
      window.htmx.ajax("POST", button.dataset.undo, { source: button, target: "#game", swap: "outerHTML" });
      return;
    }
    var form = button && button.closest("form.pad");
    if (!form) return;
    var row = activeRow(form);
    if (button.dataset.card !== undefined || button.dataset.pad) {
      event.preventDefault();
      if (!row) return;
      var cards = cardsOf(row);
      if (button.dataset.card !== undefined) cards.push(button.dataset.card);
      else if (button.dataset.pad === "back") cards.pop();
      else cards = [];
      if (button.dataset.card !== undefined || button.dataset.pad === "clear")
        row.querySelector("[data-typed]").value = "";
      row.querySelector("[data-cards]").value = cards.join(" ");
      clearServerError(row);
      render(form);
    } else if (button.classList.contains("tally-pick")) {
      event.preventDefault();
      form.querySelector("[data-active]").value = button.closest(".tally").dataset.seat;
      render(form);
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form.pad");
    if (!form) return;
    if (event.target.name === "went_out") form.querySelector("[data-active]").value = "";
    if (event.target.name === "went_out" || event.target.name === "last_card") render(form);
  });

  document.addEventListener("input", function (event) {
    var form = event.target.closest("form.pad");
    if (form && event.target.matches("[data-typed]")) {
      var row = event.target.closest(".tally");
      row.querySelector("[data-cards]").value = "";
      form.querySelector("[data-active]").value = row.dataset.seat;
      clearServerError(row);
      render(form);
    }
    var filter = event.target.dataset && event.target.dataset.filter;
    if (filter) {
      var text = event.target.value.trim().toLowerCase();
      document.querySelectorAll(filter).forEach(function (chip) {
        chip.hidden = text !== "" && chip.dataset.name.indexOf(text) === -1
          && chip.getAttribute("aria-pressed") !== "true";
      });
    }
  });

  document.addEventListener("focusin", function (event) {
    var form = event.target.closest && event.target.closest("form.pad");
    if (form && event.target.matches("[data-typed]")) {
      form.querySelector("[data-active]").value = event.target.closest(".tally").dataset.seat;
      render(form);
    }
  });

  // Enter in a typed total moves on to the next hand's total instead of submitting the form.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches || !event.target.matches("form.pad [data-typed]")) return;
    event.preventDefault();
    var form = event.target.closest("form.pad");
    var inputs = all(form, "[data-typed]:not([disabled])");
    var next = inputs[inputs.indexOf(event.target) + 1];
    if (next) next.focus();
    else form.querySelector("button[value=save]").focus();
  });

  // A saved hand is done with on this phone. (Before the swap: afterwards the form is detached,
  // and its events no longer reach the document.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var status = event.detail.xhr && event.detail.xhr.status;
    if (source && source.matches && source.matches("form.pad[data-record]") && status === 200) forget(source.dataset.game, numberOf(source));
  });

  // The note of the hand just saved stays a few seconds, then leaves the summary in view.
  function fadeNote(root) {
    var note = root.querySelector && root.querySelector("[data-toast]");
    if (note) setTimeout(function () { note.hidden = true; }, 6000);
  }

  function enhance(root) {
    var forms = all(root.querySelectorAll ? root : document, "form.pad");
    if (root.matches && root.matches("form.pad")) forms.push(root);
    forms.forEach(function (form) { restore(form); render(form); });
    fadeNote(root);
  }

  // For the offline queue (the last part of this file): an empty pad for another hand, dropping a
  // kept tally, and the pad's words.
  window.unoPad = {
    reset: function (form, number) {
      forget(form.dataset.game, numberOf(form));
      form.querySelector("input[name=number]").value = number;
      var title = form.querySelector(".pad-title");
      title.textContent = title.textContent.replace(/\d+$/, number);
      all(form, "input[name=went_out], input[name=last_card]").forEach(function (input) {
        input.checked = input.name === "last_card" && input.value === "";
      });
      all(form, "[data-cards], [data-typed], [data-active]").forEach(function (input) { input.value = ""; });
      all(form, ".tally").forEach(clearServerError);
      all(form, ".error, .stale, [data-toast]").forEach(function (note) { note.remove(); });
      delete form.dataset.stale;
      render(form);
    },
    forget: forget,
    touched: touched,
    words: function (form) { return padOf(form).words; },
    fill: fill
  };

  // A deferred script runs once the page is parsed: the pad is drawn, with any tally kept on the
  // phone, now rather than after DOMContentLoaded's other work (htmx starting up).
  function start() {
    enhance(document);
    // From here a tap on the pad is answered: benchmarks/reopen.py times the reopen by this mark.
    if (window.performance && performance.mark) performance.mark("uno:pad-ready");
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });
})();

// Several phones on one game, focus and announcements after each swap, the installable app, and
// keeping the screen on. Each part does nothing on a page without its elements, and nothing at all
// where the browser lacks the feature.
(function () {
  "use strict";

  // --- A poll must never wipe a tally being entered.

  function handNumber(root) {
    var input = root && root.querySelector("form.pad input[name=number]");
    return input ? parseInt(input.value, 10) : null;
  }

  // Keeps the touched pad, and says why the game moved on under it. Saving it then gets the
  // server's "already recorded" answer, so a hand is never counted twice.
  function keepPad(pad, fresh) {
    var mine = handNumber(pad.parentNode);
    var next = handNumber(fresh);
    var text;
    if (next === null) text = "The game has just ended on another phone.";
    else if (next > mine) text = "Another phone has just saved hand " + mine + ". Saving this one will not count it twice.";
    else if (next < mine) text = "Another phone has just undone a hand. Save to see where the game stands.";
    else return;
    // Recorded elsewhere: this phone's copy of the tally is not kept for a reload any more.
    if (next === null || next > mine) {
      pad.dataset.stale = "true";
      window.unoPad.forget(pad.dataset.game, mine);
    }
    var note = pad.querySelector(".stale");
    if (!note) {
      note = document.createElement("p");
      note.className = "notice stale";
      note.setAttribute("role", "status");
      pad.querySelector(".pad-title").insertAdjacentElement("afterend", note);
    }
    note.textContent = text;
  }

  // Back at the hand a note was about (another phone undid it): the note no longer holds.
  function tidyNotes() {
    var board = document.getElementById("scoreboard");
    var next = board && parseInt(board.dataset.next, 10);
    if (!next) return;
    var notice = document.querySelector("#game > .notice[data-until]");
    if (notice && next < parseInt(notice.dataset.until, 10)) notice.remove();
    var pad = document.querySelector("form.pad[data-record]");
    var stale = pad && pad.querySelector(".stale");
    if (stale && handNumber(pad.parentNode) === next) {
      stale.remove();
      delete pad.dataset.stale;
    }
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var pad = target.id === "play" && target.querySelector("form.pad");
    if (pad && window.unoPad.touched(pad)) {
      event.preventDefault();
      keepPad(pad, event.detail.fragment);
    }
  });

  function isPoll(element) {
    return element && element.id === "poll";
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isPoll(event.detail.elt)) return;
    // A hidden page need not ask (it asks again when shown), nor one waiting for its own save.
    if (document.hidden || document.querySelector("form.htmx-request")) event.preventDefault();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    // An answer that arrives after the poller was replaced (by a save, or a newer poll) is old news.
    if (isPoll(event.detail.elt) && (!document.body.contains(event.detail.elt) || document.querySelector("form.htmx-request"))) {
      event.detail.shouldSwap = false;
      return;
    }
    rememberFocus();
  });

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && window.htmx && document.getElementById("poll")) window.htmx.trigger(document.body, "refresh");
  });

  // --- Focus: kept where it was when a swap replaces the focused control, else moved on purpose.

  var lastFocus = null;

  function rememberFocus() {
    var element = document.activeElement;
    lastFocus = null;
    if (!element || element === document.body) return;
    if (element.id) lastFocus = "#" + CSS.escape(element.id);
    else if (element.name) {
      lastFocus = '[name="' + CSS.escape(element.name) + '"]';
      if (element.value) lastFocus += '[value="' + CSS.escape(element.value) + '"]';
    }
  }

  function restoreFocus() {
    var active = document.activeElement;
    if (!lastFocus || (active && active !== document.body)) return;
    var element = document.querySelector(lastFocus);
    if (element) element.focus({ preventScroll: true });
  }

  function focusOn(element) {
    if (!element) return;
    if (!element.matches("a[href], button, input, select, textarea, [tabindex]")) element.setAttribute("tabindex", "-1");
    element.focus();
  }

  // The first error of a refused form: its field, the first choice of its group, or the message.
  function focusFirstError(root) {
    var error = root && root.querySelector(".error");
    if (!error) return;
    var owner = error.id && root.querySelector('[aria-describedby~="' + CSS.escape(error.id) + '"]');
    if (owner && owner.tagName === "FIELDSET") owner = owner.querySelector("input:not([disabled])");
    focusOn(owner || error);
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var detail = event.detail;
    var source = detail.requestConfig && detail.requestConfig.elt;
    announce();
    if (!detail.xhr || !source || isPoll(source)) { tidyNotes(); restoreFocus(); return; }
    var status = detail.xhr.status;
    // After an outerHTML swap the request's target is the old, detached element; the event comes
    // from the new one.
    if (status === 422) focusFirstError(event.target.isConnected ? event.target : document.getElementById("main"));
    else if (status === 409 && document.querySelector("#game > .notice")) focusOn(document.querySelector("#game > .notice"));
    else if (status === 200 && source.matches && source.matches("form.pad[data-record], [data-undo]")) {
      // Saved (or undone): the pad is where it was, ready for the next hand; the view stays put.
      var first = document.querySelector("form.pad input[name=went_out]:not([disabled])");
      if (first) first.focus({ preventScroll: true });
      else restoreFocus();
    } else restoreFocus();
  });

  // --- Announcements: one polite sentence whenever the scores change, whoever changed them.

  var announced = null;

  function announce() {
    var board = document.getElementById("scoreboard");
    var out = document.getElementById("announcer");
    if (!board || !out) return;
    if (announced !== null && board.dataset.version !== announced) out.textContent = board.dataset.announce;
    announced = board.dataset.version;
  }

  // --- Keep the screen on while a game is open, where the browser can.

  var wakeButton = null;
  var wakeLock = null;

  function wakeWanted() {
    try { return window.localStorage.getItem("keepScreenOn") !== "no"; } catch (error) { return true; }
  }

  function acquireWakeLock() {
    if (!wakeButton || wakeLock || document.hidden || wakeButton.getAttribute("aria-pressed") !== "true") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* refused for now (battery saver, hidden page): stay quiet */ });
  }

  function setUpWakeLock() {
    wakeButton = document.querySelector("[data-wake-lock]");
    if (!wakeButton || !("wakeLock" in navigator)) { wakeButton = null; return; }
    wakeButton.hidden = false;
    wakeButton.setAttribute("aria-pressed", wakeWanted() ? "true" : "false");
    wakeButton.addEventListener("click", function () {
      var on = wakeButton.getAttribute("aria-pressed") !== "true";
      wakeButton.setAttribute("aria-pressed", on ? "true" : "false");
      try { window.localStorage.setItem("keepScreenOn", on ? "yes" : "no"); } catch (error) { /* private mode */ }
      if (on) acquireWakeLock();
      else if (wakeLock) wakeLock.release();
    });
    // The browser lets go of the lock when the page is hidden; take it again when it is back.
    document.addEventListener("visibilitychange", acquireWakeLock);
    acquireWakeLock();
  }

  // --- Share: copy the link, or hand it to the phone's share sheet.

  function setUpSharing() {
    var status = document.querySelector("[data-share-status]");
    var say = function (text) { if (status) status.textContent = text; };
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      if (!navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.dataset.copy).then(
          function () { say("Link copied."); },
          function () { say("Copying did not work: press and hold the link to copy it."); }
        );
      });
    });
    document.querySelectorAll("[data-share]").forEach(function (button) {
      if (!navigator.share) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.share({ title: button.dataset.shareTitle, url: button.dataset.share }).catch(function () {});
      });
    });
  }

  // --- The service worker: the offline page, and the app's look without the network.

  function registerServiceWorker() {
    var url = document.documentElement.dataset.serviceWorker;
    if (url && "serviceWorker" in navigator) navigator.serviceWorker.register(url).catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    announce();
    setUpWakeLock();
    setUpSharing();
    registerServiceWorker();
  });
})();

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
    var words = window.unoPad.words(form);
    // A copy kept from a release before these words were sent: the server says it instead.
    if (!words.uncounted) return "";
    if (!form.querySelector("input[name=went_out]:checked")) return words.nobody;
    var rows = Array.prototype.filter.call(form.querySelectorAll(".tally.is-counted"), function (row) {
      var typed = row.querySelector("[data-typed]");
      return !row.querySelector("[data-cards]").value.trim() && !(typed && typed.value.trim());
    });
    var names = rows.map(function (row) { return row.dataset.name; }).join(", ");
    return rows.length ? window.unoPad.fill(words.uncounted, { names: names }) : "";
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
    // Under the pad, so hands waiting never push it down under the thumb; above it when one needs
    // the table's choice (another phone's version of it, or a refusal).
    var choose = queue.some(function (hand) { return hand.conflict || hand.problem; });
    if (choose && box.nextElementSibling !== play) play.parentNode.insertBefore(box, play);
    else if (!choose && box.previousElementSibling !== play) play.parentNode.insertBefore(box, play.nextSibling);
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

  // The copy's mark, hidden in the markup and shown by the stylesheet while the page is a copy
  // (html[data-copy-of]), in the words the worker gave it: only a change of words is written, so
  // nothing is laid out again for nothing.
  var updatingWords = (document.getElementById("copy-mark") || {}).textContent;
  function mark(text) {
    var node = document.getElementById("copy-mark");
    if (node && node.textContent !== text) node.textContent = text;
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
    if (seen !== undefined) mark(updatingWords);
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
      show();
      flush();
    }, function () {
      freshening = false;
      if (isCopy()) mark((navigator.onLine ? "Can't reach the scorer" : "Offline") + " · last seen " + seen);
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
