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

  function keep(form) {
    var store = storage();
    if (!store || !form.hasAttribute("data-record") || form.dataset.stale) return;
    var key = STORE + form.dataset.game + ":" + numberOf(form);
    if (!touched(form)) { store.removeItem(key); return; }
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
    // For the offline queue (offline.js): the hand in a few words, and what each side gains.
    form.dataset.brief = brief.join(" · ");
    form.dataset.effect = JSON.stringify(effect);
    keep(form);
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

  // For the offline queue (offline.js): an empty pad for another hand, and dropping a kept tally.
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
    touched: touched
  };

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
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
