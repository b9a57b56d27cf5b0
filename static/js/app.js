// Progressive enhancement for the tally pad and game setup. Without this file every button is a
// plain form post that the server answers with the changed form; with it, card taps stay on the
// phone (no request per card) and only Save talks to the server.
(function () {
  "use strict";

  function tallies(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".tally"));
  }

  function valuesOf(form) {
    if (!form._values) form._values = JSON.parse(form.dataset.values || "{}");
    return form._values;
  }

  function wentOut(form) {
    var checked = form.querySelector("input[name=went_out]:checked");
    return checked ? checked.value : null;
  }

  function cardsOf(row) {
    var text = row.querySelector("[data-cards]").value.trim();
    return text ? text.split(/\s+/) : [];
  }

  // Which rows count, given who went out: not that player's side, not anyone out of the game.
  function stateOf(row, outRow) {
    if (row.dataset.eliminated === "true") return "eliminated";
    if (!outRow) return "waiting";
    if (row === outRow) return "out";
    if (row.dataset.side === outRow.dataset.side) return "partner";
    return "counted";
  }

  var NOTES = { out: "went out", partner: "partner, not counted", eliminated: "out of the game" };

  function render(form) {
    var rows = tallies(form);
    var out = wentOut(form);
    var outRow = rows.filter(function (row) { return row.dataset.seat === out; })[0] || null;
    var activeInput = form.querySelector("[data-active]");
    var values = valuesOf(form);
    var counted = [];
    var total = 0;

    rows.forEach(function (row) {
      var state = stateOf(row, outRow);
      row.className = row.className.replace(/\bis-\w+\b/g, "").trim() + " is-" + state;
      var on = state === "counted";
      row.querySelector(".tally-pick").disabled = !on;
      row.querySelector("[data-cards]").disabled = !on;
      row.querySelector("[data-typed]").disabled = !on;
      row.querySelector("[data-note]").textContent = NOTES[state] || "";
      var typedText = row.querySelector("[data-typed]").value.trim();
      var cards = cardsOf(row);
      var points = 0;
      if (typedText && /^\d+$/.test(typedText)) points = parseInt(typedText, 10);
      else cards.forEach(function (card) { points += values[card] || 0; });
      row.querySelector("[data-tape]").textContent = typedText
        ? "typed"
        : cards.map(function (card) { return values[card]; }).join(" · ");
      row.querySelector("[data-points]").textContent = on ? String(points) : "";
      if (on) { counted.push(row); total += points; }
    });

    // Seats after the one who went out come first, so the pad starts on the next player.
    if (outRow) {
      var start = rows.indexOf(outRow);
      counted.sort(function (a, b) {
        var n = rows.length;
        return ((rows.indexOf(a) - start + n) % n) - ((rows.indexOf(b) - start + n) % n);
      });
    }
    var active = counted.filter(function (row) { return row.dataset.seat === activeInput.value; })[0];
    if (!active) active = counted[0] || null;
    activeInput.value = active ? active.dataset.seat : "";
    rows.forEach(function (row) {
      var isActive = row === active;
      row.classList.toggle("is-active", isActive);
      row.querySelector(".tally-pick").setAttribute("aria-pressed", isActive ? "true" : "false");
    });

    var summary = form.querySelector("[data-summary]");
    if (!outRow) summary.textContent = "Tap who went out.";
    else if (form.dataset.mode === "challenge")
      summary.textContent = "The others take " + total + " points between them.";
    else {
      var side = rows.filter(function (row) { return row.dataset.side === outRow.dataset.side; });
      var names = side.map(function (row) { return row.dataset.name; }).join(" & ");
      summary.textContent = names + (side.length > 1 ? " score " : " scores ") + total;
    }
    return active;
  }

  function activeRow(form) {
    var seat = form.querySelector("[data-active]").value;
    return form.querySelector('.tally[data-seat="' + seat + '"]');
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    var form = button && button.closest("form.pad");
    if (!form) return;
    var row = activeRow(form);
    if (button.dataset.card !== undefined || button.dataset.pad) {
      event.preventDefault();
      if (!row) return;
      var cardsInput = row.querySelector("[data-cards]");
      var cards = cardsOf(row);
      if (button.dataset.card !== undefined) cards.push(button.dataset.card);
      else if (button.dataset.pad === "back") cards.pop();
      else cards = [];
      if (button.dataset.card !== undefined || button.dataset.pad === "clear")
        row.querySelector("[data-typed]").value = "";
      cardsInput.value = cards.join(" ");
      render(form);
    } else if (button.classList.contains("tally-pick")) {
      event.preventDefault();
      form.querySelector("[data-active]").value = button.closest(".tally").dataset.seat;
      render(form);
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form.pad");
    if (form && event.target.name === "went_out") {
      form.querySelector("[data-active]").value = "";
      render(form);
      var tallyList = form.querySelector(".tallies");
      var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      if (tallyList.scrollIntoView) tallyList.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }
  });

  document.addEventListener("input", function (event) {
    var form = event.target.closest("form.pad");
    if (form && event.target.matches("[data-typed]")) {
      var row = event.target.closest(".tally");
      row.querySelector("[data-cards]").value = "";
      form.querySelector("[data-active]").value = row.dataset.seat;
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
    var inputs = Array.prototype.slice.call(form.querySelectorAll("[data-typed]:not([disabled])"));
    var next = inputs[inputs.indexOf(event.target) + 1];
    if (next) next.focus();
    else form.querySelector("button[value=save]").focus();
  });

  function enhance(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("form.pad").forEach(render);
    if (root.matches && root.matches("form.pad")) render(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });
})();

// Several phones on one game, focus and announcements after each swap, the installable app, and
// keeping the screen on. Each part does nothing on a page without its elements, and nothing at all
// where the browser lacks the feature.
(function () {
  "use strict";

  // --- A poll must never wipe a tally being entered.

  // Whether anyone has tapped or typed anything on the pad since it was drawn.
  function touched(pad) {
    if (pad.querySelector("input[name=went_out]:checked")) return true;
    var last = pad.querySelector("input[name=last_card]:checked");
    if (last && last.value) return true;
    return Array.prototype.some.call(pad.querySelectorAll("[data-cards], [data-typed]"), function (input) {
      return input.value.trim() !== "";
    });
  }

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
    var note = pad.querySelector(".stale");
    if (!note) {
      note = document.createElement("p");
      note.className = "notice stale";
      note.setAttribute("role", "status");
      pad.querySelector(".pad-title").insertAdjacentElement("afterend", note);
    }
    note.textContent = text;
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var pad = target.id === "play" && target.querySelector("form.pad");
    if (pad && touched(pad)) {
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
    if (!detail.xhr || !source || isPoll(source)) { restoreFocus(); return; }
    var status = detail.xhr.status;
    // After an outerHTML swap the request's target is the old, detached element; the event comes
    // from the new one.
    if (status === 422) focusFirstError(event.target.isConnected ? event.target : document.getElementById("main"));
    else if (status === 409 && document.querySelector("#game > .notice")) focusOn(document.querySelector("#game > .notice"));
    else if (status === 200 && source.matches && source.matches("form.pad") && document.getElementById("scoreboard-title")) {
      // Saved: the new standings first; the pad for the next hand follows them.
      focusOn(document.getElementById("scoreboard-title"));
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

  // --- The server out of reach while saving: say so, and keep what was entered.

  document.addEventListener("htmx:sendError", function (event) {
    if (isPoll(event.detail.elt)) return;
    var main = document.getElementById("main");
    var note = document.getElementById("unreachable");
    if (!note) {
      note = document.createElement("p");
      note.id = "unreachable";
      note.className = "notice";
      note.setAttribute("role", "alert");
      main.insertBefore(note, main.firstChild);
    }
    note.textContent = "The scorer can't be reached, so nothing was saved. What you entered is still here: check the Wi-Fi and try again.";
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var note = document.getElementById("unreachable");
    if (note && event.detail.successful) note.remove();
  });

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
