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
    if (!outRow) return "waiting";
    if (row === outRow) return "out";
    if (row.dataset.eliminated === "true") return "eliminated";
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
