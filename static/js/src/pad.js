// The tally pad's DOM glue, and game setup's player filter. Without the script every button is a
// plain form post that the server answers with the changed form; with it, card taps stay on the
// phone (no request per card) and only Save talks to the server. The rules and words come from
// the form's data-pad (HandForm.pad_data); tally.js adds up, this file reads and draws.

import { all, handNumber, localStore } from "./dom.js";
import { activeSeat, rowLabel, tally, uncounted } from "./tally.js";
import { fill } from "./words.js";

const TALLY_KEY = "uno:tally:";
// How long the "Hand N saved" note stays before it leaves the summary in view.
const SAVED_NOTE_MS = 6000;

/** The pad's data from the server, read once per form. */
export const padData = (form) => {
  if (!form._pad) form._pad = JSON.parse(form.dataset.pad);
  return form._pad;
};

const wentOut = (form) => {
  const checked = form.querySelector("input[name=went_out]:checked");
  return checked ? checked.value : null;
};

const lastCard = (form) => {
  const checked = form.querySelector("input[name=last_card]:checked");
  return checked ? checked.value : null;
};

const cardsOf = (row) => {
  const text = row.querySelector("[data-cards]").value.trim();
  return text ? text.split(/\s+/) : [];
};

/** Each row as tally.js takes it. */
const rowsOf = (form) =>
  all(form, ".tally").map((row) => ({
    seat: row.dataset.seat,
    cards: cardsOf(row),
    typed: row.querySelector("[data-typed]").value.trim(),
  }));

// --- A half-counted tally is kept on the phone, per game and hand, until the hand is saved.

/** Drops the tally this phone kept for a hand. */
export const forgetTally = (game, number) => {
  const store = localStore();
  if (store) store.removeItem(TALLY_KEY + game + ":" + number);
};

// What was entered on the pad (not its token, nor the hand's number), radios by their choice:
// who went out, each seat's cards and typed total, the seat being counted, the last card.
const fields = (form) => all(form, "input[name]:not([name=csrf_token], [name=number], [name=game_key])");

/** Whether anything has been entered on the pad (choosing the seat being counted aside). */
export const hasTally = (form) =>
  fields(form).some(
    (input) => input.name !== "active" && (input.type === "radio" ? input.checked && input.value : input.value.trim()),
  );

// `counting` is hasTally(form), which drawPad has already worked out.
const keepTally = (form, counting) => {
  const store = localStore();
  if (!store || !form.hasAttribute("data-record") || form.dataset.stale) return;
  const key = TALLY_KEY + form.dataset.game + ":" + handNumber(form);
  if (!counting) {
    store.removeItem(key);
    return;
  }
  const kept = {};
  for (const input of fields(form)) if (input.type !== "radio" || input.checked) kept[input.name] = input.value;
  try {
    store.setItem(key, JSON.stringify(kept));
  } catch {
    /* full: the pad still works */
  }
};

// A pad drawn by the server, untouched, takes back what this phone had counted for its hand;
// tallies of earlier hands are done with.
const restoreTally = (form) => {
  const store = localStore();
  if (!store || !form.hasAttribute("data-record")) return;
  const prefix = TALLY_KEY + form.dataset.game + ":";
  const number = handNumber(form);
  for (let i = store.length - 1; i >= 0; i--) {
    const key = store.key(i);
    if (key && key.startsWith(prefix) && parseInt(key.slice(prefix.length), 10) < number) store.removeItem(key);
  }
  let kept;
  try {
    kept = JSON.parse(store.getItem(prefix + number));
  } catch {
    kept = null;
  }
  if (!kept || hasTally(form)) return;
  for (const input of fields(form)) {
    const value = kept[input.name] || "";
    if (input.type === "radio") input.checked = input.value === value;
    else input.value = value;
  }
};

// --- Drawing the pad from its fields.

// A note the script writes is marked data-deck; so is a deck problem the server wrote into a row,
// which the script then treats as its own.
const showDeckProblems = (row, messages) => {
  // The server writes a note per limit passed; the script keeps them in one.
  const notes = [...row.querySelectorAll("[data-deck]")];
  for (const extra of notes.slice(1)) extra.remove();
  let note = notes[0];
  const text = (messages || []).join(" ");
  if (!text) {
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.className = "error";
    note.setAttribute("data-deck", "");
    note.setAttribute("role", "alert");
    row.appendChild(note);
  }
  if (note.textContent !== text) note.textContent = text;
};

// A typed total that is not one: marked invalid, with the server's words next to it (the script's
// own note, marked data-typed-error, which it replaces or removes as the total changes).
const showTypedProblem = (row, problem) => {
  const typed = row.querySelector("[data-typed]");
  let note = row.querySelector("[data-typed-error]");
  if (!problem) {
    if (note) {
      note.remove();
      typed.removeAttribute("aria-invalid");
      typed.removeAttribute("aria-describedby");
    }
    return;
  }
  // The server's refusal of the same total already says it, in the same words.
  if (!note && row.querySelector(".error[id]:not([data-typed-error])")) return;
  if (!note) {
    note = document.createElement("p");
    note.className = "error";
    note.id = "counts-" + row.dataset.seat + "-error";
    note.setAttribute("data-typed-error", "");
    typed.closest(".tally-total").after(note);
  }
  if (note.textContent !== problem) note.textContent = problem;
  typed.setAttribute("aria-invalid", "true");
  typed.setAttribute("aria-describedby", note.id);
};

const clearServerError = (row) => {
  const error = row.querySelector(".error:not([data-deck]):not([data-typed-error])");
  if (error) error.remove();
  const typed = row.querySelector("[data-typed]");
  typed.removeAttribute("aria-invalid");
  typed.removeAttribute("aria-describedby");
};

// Brought into view when any of what the row says (its name, cards, note, points) is off the
// screen or under the dock; its padding alone under the dock's edge is no reason to move the page.
const showRow = (form, seat) => {
  const row = form.querySelector('.tally[data-seat="' + seat + '"]');
  const dock = form.querySelector(".dock");
  if (!row || !dock) return;
  const bottom = Math.min(dock.getBoundingClientRect().top, window.innerHeight);
  const hidden = all(row, ".tally-pick > span:not(:empty)").some((span) => {
    const box = span.getBoundingClientRect();
    return box.top < 0 || box.bottom > bottom;
  });
  if (!hidden) return;
  // Scrolled by hand, to stop above the dock: a scroll padding set from here would be an inline
  // style, which the page's copy would carry and its Content-Security-Policy refuse.
  const box = row.getBoundingClientRect();
  window.scrollBy({ top: box.bottom > bottom ? box.bottom - bottom : box.top, behavior: "instant" });
};

/** Draws the pad from its fields: rows, seat being counted, summary; keeps the tally. */
export const drawPad = (form) => {
  const pad = padData(form);
  const out = wentOut(form);
  const worked = tally(pad, rowsOf(form), out, lastCard(form));
  const rows = all(form, ".tally");
  rows.forEach((row, index) => {
    const drawn = worked.rows[index];
    row.className = row.className.replace(/\bis-\w+\b/g, "").trim() + " is-" + drawn.state;
    row.querySelector(".tally-pick").disabled = !drawn.counting;
    row.querySelector("[data-cards]").disabled = !drawn.counting;
    row.querySelector("[data-typed]").disabled = !drawn.counting;
    row.querySelector("[data-note]").textContent = drawn.note;
    row.querySelector("[data-tape]").textContent = drawn.tape;
    row.querySelector("[data-points]").textContent = drawn.points;
    showDeckProblems(row, worked.problems[row.dataset.seat]);
    showTypedProblem(row, drawn.problem);
  });

  const activeInput = form.querySelector("[data-active]");
  const active = activeSeat(pad, out, activeInput.value);
  activeInput.value = active;
  rows.forEach((row, index) => {
    const isActive = row.dataset.seat === active;
    row.classList.toggle("is-active", isActive);
    const pick = row.querySelector(".tally-pick");
    pick.setAttribute("aria-pressed", isActive ? "true" : "false");
    const label = rowLabel(pad, worked.rows[index], isActive);
    if (pick.getAttribute("aria-label") !== label) pick.setAttribute("aria-label", label);
  });
  // A row that becomes the one counted is brought into view, above the docked keys. Not on the
  // first draw: a page opened or swapped in stays where it is.
  if (form._active !== undefined && active !== form._active && active !== "") showRow(form, active);
  form._active = active;

  form.querySelector("[data-summary]").textContent = worked.summary;
  const counting = hasTally(form);
  // The next hand is being counted: its running total takes the saved note's place.
  const saved = form.querySelector("[data-toast]");
  if (saved && counting) saved.hidden = true;
  // For the offline queue: the hand in a few words, and what each side gains.
  form.dataset.brief = worked.brief;
  form.dataset.effect = JSON.stringify(worked.effect);
  keepTally(form, counting);
};

/** What the server would refuse at once about this pad's hand, or "". */
export const padRefusal = (form) => uncounted(padData(form), rowsOf(form), wentOut(form));

/** An empty pad for another hand (after one was queued on the phone), its kept tally dropped. */
export const resetPad = (form, number, words) => {
  forgetTally(form.dataset.game, handNumber(form));
  form.querySelector("input[name=number]").value = String(number);
  form.querySelector(".pad-title").textContent = fill(words.recordHand, { number });
  for (const input of all(form, "input[name=went_out], input[name=last_card]"))
    input.checked = input.name === "last_card" && input.value === "";
  for (const input of all(form, "[data-cards], [data-typed], [data-active]")) input.value = "";
  all(form, ".tally").forEach(clearServerError);
  for (const note of all(form, ".error, .stale, [data-toast]")) note.remove();
  delete form.dataset.stale;
  drawPad(form);
};

const activeRow = (form) => {
  const seat = form.querySelector("[data-active]").value;
  return seat === "" ? null : form.querySelector('.tally[data-seat="' + seat + '"]');
};

// A pad key on the row being counted: a card added, the last removed, or the row cleared.
const tapKey = (form, row, { card, pad }) => {
  let cards = cardsOf(row);
  if (card !== undefined) cards.push(card);
  else if (pad === "back") cards.pop();
  else cards = [];
  if (card !== undefined || pad === "clear") row.querySelector("[data-typed]").value = "";
  row.querySelector("[data-cards]").value = cards.join(" ");
  clearServerError(row);
  drawPad(form);
};

const onClick = (event) => {
  const button = event.target.closest("button");
  if (button && button.dataset.undo && window.htmx) {
    // Undo of the "Hand N saved" note: the game goes back in place, without leaving the page.
    event.preventDefault();
    // A failure is htmx:sendError's to report (offline.js); the promise need not say it again.
    window.htmx
      .ajax("POST", button.dataset.undo, { source: button, target: "#game", swap: "outerHTML" })
      .catch(() => {});
    return;
  }
  const form = button && button.closest("form.pad");
  if (!form) return;
  const { card, pad } = button.dataset;
  if (card !== undefined || pad) {
    event.preventDefault();
    const row = activeRow(form);
    if (row) tapKey(form, row, { card, pad });
  } else if (button.classList.contains("tally-pick")) {
    event.preventDefault();
    form.querySelector("[data-active]").value = button.closest(".tally").dataset.seat;
    drawPad(form);
  }
};

const onChange = (event) => {
  const form = event.target.closest("form.pad");
  if (!form) return;
  if (event.target.name === "went_out") form.querySelector("[data-active]").value = "";
  if (event.target.name === "went_out" || event.target.name === "last_card") drawPad(form);
};

const onInput = (event) => {
  const form = event.target.closest("form.pad");
  if (form && event.target.matches("[data-typed]")) {
    const row = event.target.closest(".tally");
    row.querySelector("[data-cards]").value = "";
    form.querySelector("[data-active]").value = row.dataset.seat;
    clearServerError(row);
    drawPad(form);
  }
  // Game setup: the roster's chips narrowed to the typed name (chosen ones stay).
  const filter = event.target.dataset && event.target.dataset.filter;
  if (filter) {
    const text = event.target.value.trim().toLowerCase();
    for (const chip of document.querySelectorAll(filter)) {
      chip.hidden = text !== "" && !chip.dataset.name.includes(text) && chip.getAttribute("aria-pressed") !== "true";
    }
  }
};

// A tap on a total box counts that row. Focus alone does not: tabbing past the boxes must not
// move the row the keys count into.
const onPointerDown = (event) => {
  const form = event.target.closest && event.target.closest("form.pad");
  if (form && event.target.matches("[data-typed]:not([disabled])")) {
    form.querySelector("[data-active]").value = event.target.closest(".tally").dataset.seat;
    drawPad(form);
  }
};

// A row focused from the keyboard is brought above the dock, like a row chosen by a tap, once the
// browser has scrolled it into view its own way.
const onFocusIn = (event) => {
  const form = event.target.closest && event.target.closest("form.pad");
  if (!form || !event.target.matches(".tally-pick, [data-typed]")) return;
  const { seat } = event.target.closest(".tally").dataset;
  requestAnimationFrame(() => showRow(form, seat));
};

// The pad's keys from the keyboard, as the server maps them (pad data's keyboard): while a row has
// the focus they count into that row; while a pad key has it, into the row being counted.
const padShortcut = (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || !event.target.matches) return false;
  const target = event.target;
  if (!target.matches("form.pad .tally-pick:not([disabled]), form.pad .keys .key")) return false;
  const form = target.closest("form.pad");
  const key = padData(form).keyboard[event.key.length === 1 ? event.key.toLowerCase() : event.key];
  if (key === undefined) return false;
  event.preventDefault();
  if (target.classList.contains("tally-pick"))
    form.querySelector("[data-active]").value = target.closest(".tally").dataset.seat;
  const row = activeRow(form);
  if (row) tapKey(form, row, key === "back" || key === "clear" ? { pad: key } : { card: key });
  return true;
};

// Enter in a typed total moves on to the next hand's total instead of submitting the form.
const onKeyDown = (event) => {
  if (padShortcut(event)) return;
  if (event.key !== "Enter" || !event.target.matches || !event.target.matches("form.pad [data-typed]")) return;
  event.preventDefault();
  const form = event.target.closest("form.pad");
  const inputs = all(form, "[data-typed]:not([disabled])");
  const next = inputs[inputs.indexOf(event.target) + 1];
  if (next) next.focus();
  else form.querySelector("button[value=save]").focus();
};

// A saved hand is done with on this phone. (Before the swap: afterwards the form is detached,
// and its events no longer reach the document.)
const onBeforeSwap = (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  const status = event.detail.xhr && event.detail.xhr.status;
  if (source && source.matches && source.matches("form.pad[data-record]") && status === 200)
    forgetTally(source.dataset.game, handNumber(source));
};

// The note of the hand just saved stays a few seconds, then leaves the summary in view.
const fadeSavedNote = (root) => {
  const note = root.querySelector && root.querySelector("[data-toast]");
  if (note) setTimeout(() => (note.hidden = true), SAVED_NOTE_MS);
};

/** Draws every pad in `root` (new content from the server), with any tally kept on the phone. */
export const enhancePads = (root) => {
  const forms = all(root.querySelectorAll ? root : document, "form.pad");
  if (root.matches && root.matches("form.pad")) forms.push(root);
  for (const form of forms) {
    // The keyboard's keys work now: the hint that says them is shown while a row has the focus.
    const hint = form.querySelector(".pad-keyboard");
    if (hint) {
      hint.hidden = false;
      for (const pick of all(form, ".tally-pick")) pick.setAttribute("aria-describedby", hint.id);
    }
    restoreTally(form);
    drawPad(form);
  }
  fadeSavedNote(root);
};

/** Listens for taps on any pad of the page, now and after swaps. */
export const startPads = () => {
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  document.addEventListener("input", onInput);
  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("htmx:beforeSwap", onBeforeSwap);
  document.addEventListener("htmx:load", (event) => enhancePads(event.detail.elt));
};
