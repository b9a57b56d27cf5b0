import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  activeSeat,
  deckProblems,
  pointsOf,
  rowLabel,
  seatState,
  tally,
  typedProblem,
  uncounted,
} from "../../static/js/src/tally.js";
import { padData, partners, rows } from "./pad_data.js";

describe("seat states", () => {
  test("nobody chosen: everyone in play waits", () => {
    assert.equal(seatState(padData(), "1", null), "waiting");
  });
  test("who went out, who is counted, a partner, an eliminated seat", () => {
    const pad = partners();
    assert.equal(seatState(pad, "0", "0"), "out");
    assert.equal(seatState(pad, "1", "0"), "counted");
    assert.equal(seatState(pad, "2", "0"), "partner");
    const inPlay = { ...pad.counted };
    delete inPlay[3];
    assert.equal(seatState({ ...pad, counted: inPlay }, "3", "0"), "eliminated");
  });
});

describe("sums", () => {
  test("cards add up by the server's values", () => {
    assert.equal(pointsOf(padData(), ["3", "20", "50"], ""), 73);
  });
  test("a whole typed total wins over the cards", () => {
    assert.equal(pointsOf(padData(), ["3"], "41"), 41);
  });
  test("a typed total that is not a whole number counts the cards", () => {
    assert.equal(pointsOf(padData(), ["8"], "1a2b"), 8);
    assert.equal(pointsOf(padData(), ["8"], "-5"), 8);
  });
  test("the reference hand: Ann goes out, 101 points", () => {
    const worked = tally(padData(), rows({ 1: ["3", "20"], 2: ["50", "20"], 3: ["8"] }), "0");
    assert.equal(worked.total, 101);
    assert.equal(worked.summary, "Ann scores 101");
    assert.deepEqual(worked.effect, { 0: 101 });
    assert.equal(worked.brief, "Ann +101");
    assert.deepEqual(
      worked.rows.map(({ state, points, tape, note }) => [state, points, tape, note]),
      [
        ["out", "", "", "went out"],
        ["counted", "23", "3 · 20", ""],
        ["counted", "70", "50 · 20", ""],
        ["counted", "8", "8", ""],
      ],
    );
  });
  test("a typed total shows as typed on the tape", () => {
    const worked = tally(padData(), rows({ 1: ["3"] }, { 1: "12" }), "0");
    assert.equal(worked.rows[1].tape, "typed");
    assert.equal(worked.total, 12);
  });
  test("nobody chosen yet: the summary asks who went out", () => {
    const worked = tally(padData(), rows(), null);
    assert.equal(worked.summary, "Tap who went out.");
    assert.equal(worked.brief, "");
    assert.deepEqual(worked.effect, {});
  });
  test("partners: the side's names, partners not counted", () => {
    const worked = tally(partners(), rows({ 1: ["9"], 2: ["50"], 3: ["20"] }), "0");
    assert.equal(worked.summary, "Ann & Cat score 29");
    assert.equal(worked.brief, "Ann & Cat +29");
    assert.equal(worked.rows[2].state, "partner");
    assert.equal(worked.rows[2].points, "");
  });
  test("challenge: each counted player gains their own points", () => {
    const pad = padData({ mode: "challenge" });
    const worked = tally(pad, rows({ 1: ["9", "3"], 2: ["20"], 3: [] }, { 3: "5" }), "0");
    assert.equal(worked.summary, "The others take 37 points between them.");
    assert.deepEqual(worked.effect, { 1: 12, 2: 20, 3: 5 });
    assert.equal(worked.brief, "Bob +12 · Cat +20 · Dan +5");
  });
  test("a side's effect in the server's words when it sends them", () => {
    const pad = padData();
    pad.words = { ...pad.words, effect: "[{names} gains {points}]" };
    assert.equal(tally(pad, rows({ 1: ["9"] }), "0").brief, "[Ann gains 9]");
  });
  test("the effects are listed in the server's words too", () => {
    const pad = padData({ mode: "challenge" });
    pad.words = { ...pad.words, list: " / " };
    assert.equal(tally(pad, rows({ 1: ["9"], 2: ["20"], 3: ["3"] }), "0").brief, "Bob +9 / Cat +20 / Dan +3");
  });
});

describe("a player not yet counted", () => {
  test("shows a dash, never a bare 0, and its name says so", () => {
    const pad = padData();
    const worked = tally(pad, rows({ 1: ["3"] }), "0");
    assert.deepEqual(
      worked.rows.map(({ points, note, entered }) => [points, note, entered]),
      [
        ["", "went out", false],
        ["3", "", true],
        ["—", "", false],
        ["—", "", false],
      ],
    );
    assert.equal(rowLabel(pad, worked.rows[2], false), "Cat, not counted yet, choose to count");
  });
  test("a typed 0 and a tapped 0 are counted zeros", () => {
    const worked = tally(padData(), rows({ 1: ["0"] }, { 2: "0" }), "0");
    assert.deepEqual(
      worked.rows.slice(1, 3).map(({ points, note, tape }) => [points, note, tape]),
      [
        ["0", "", "0"],
        ["0", "", "typed"],
      ],
    );
  });
  test("nobody chosen yet: no row shows points", () => {
    assert.deepEqual(
      tally(padData(), rows({ 1: ["3"] }), null).rows.map(({ points }) => points),
      ["", "", "", ""],
    );
  });
});

describe("a typed total checked as it is typed", () => {
  test("the server's rule and words: digits only, not negative, at most the max", () => {
    const pad = padData();
    assert.equal(typedProblem(pad, ""), "");
    assert.equal(typedProblem(pad, "37"), "");
    assert.equal(typedProblem(pad, "0"), "");
    assert.equal(typedProblem(pad, "1a2b"), "Type a whole number of points, like 37.");
    assert.equal(typedProblem(pad, "-5"), "A total cannot be negative.");
    assert.equal(typedProblem(pad, "100000"), "A total is at most 99999.");
    assert.equal(typedProblem(padData({ total: { ...pad.total, max: 500 } }), "501"), "A total is at most 500.");
  });
  test("a total that is not one is marked, counts nothing, and the summary claims no score", () => {
    const worked = tally(padData(), rows({ 1: ["3", "20"], 3: ["8"] }, { 2: "1a2b" }), "0");
    assert.equal(worked.rows[2].problem, "Type a whole number of points, like 37.");
    assert.equal(worked.rows[2].points, "—");
    assert.equal(worked.rows[2].tape, "");
    assert.equal(worked.summary, "Fix the total for Cat.");
    assert.doesNotMatch(worked.summary, /scores/);
  });
  test("the queue is told to refuse it, in the same words", () => {
    assert.equal(uncounted(padData(), rows({ 1: ["3"], 3: ["8"] }, { 2: "-5" }), "0"), "Fix the total for Cat.");
  });
  test("a partner's row is not checked: it is not posted", () => {
    assert.equal(tally(partners(), rows({ 1: ["3"], 3: ["8"] }, { 2: "zz" }), "0").summary, "Ann & Cat score 11");
  });
});

describe("deck limits", () => {
  test("within the deck: no problem", () => {
    assert.deepEqual(deckProblems(padData(), { 1: ["0", "0"], 2: ["0", "0"] }), {});
  });
  test("one over: a message for every seat holding that kind", () => {
    const message = "5 0s counted, but the deck has only 4.";
    assert.deepEqual(deckProblems(padData(), { 1: ["0", "0", "0"], 2: ["0", "0"], 3: ["8"] }), {
      1: [message],
      2: [message],
    });
  });
  test("a kind the deck has none of", () => {
    assert.deepEqual(deckProblems(padData(), { 2: ["blank"] }), { 2: ["This game's deck has no blank cards."] });
  });
  test("typed totals are not checked: tally leaves their cards out", () => {
    const worked = tally(padData(), rows({ 1: ["0", "0", "0"], 2: ["0", "0"] }, { 2: "7" }), "0");
    assert.deepEqual(worked.problems, {});
  });
  test("the last card played counts against its kind", () => {
    const cards = { 1: ["wild4", "wild4"], 2: ["wild4", "wild4"] };
    assert.deepEqual(deckProblems(padData(), cards, ""), {});
    const message = "5 Wild Draw Fours counted, but the deck has only 4.";
    assert.deepEqual(deckProblems(padData(), cards, "wild4", "0"), { 1: [message], 2: [message] });
    assert.deepEqual(tally(padData(), rows(cards), "0", "wild4").problems, { 1: [message], 2: [message] });
  });
  test("a last card alone over the limit is shown on the row of who played it", () => {
    assert.deepEqual(deckProblems(padData({ limits: [["Wild Draw Fours", ["wild4"], 0]] }), {}, "wild4", "2"), {
      2: ["This game's deck has no Wild Draw Fours."],
    });
  });
  test("a last card that is in no limit changes nothing", () => {
    assert.deepEqual(deckProblems(padData(), { 1: ["0", "0", "0", "0"] }, "draw2", "0"), {});
  });
});

describe("a row's name for a screen reader", () => {
  test("name, points and state, in the server's words", () => {
    const pad = padData();
    const worked = tally(pad, rows({ 1: ["3", "20"], 2: ["0", "1"] }), "0").rows;
    worked[2].points = "1";
    assert.deepEqual(
      [rowLabel(pad, worked[0], false), rowLabel(pad, worked[1], true), rowLabel(pad, worked[2], false)],
      ["Ann, went out", "Bob, 23 points, being counted", "Cat, 1 point, choose to count"],
    );
    assert.equal(rowLabel(pad, worked[3], false), "Dan, not counted yet, choose to count");
  });
  test("partners and nobody chosen yet", () => {
    assert.equal(rowLabel(partners(), tally(partners(), rows(), "0").rows[2], false), "Cat, partner, not counted");
    assert.equal(rowLabel(padData(), tally(padData(), rows(), null).rows[1], false), "Bob");
  });
});

describe("the seat being counted", () => {
  test("the one chosen when it is counted, else the first counted", () => {
    const pad = padData();
    assert.equal(activeSeat(pad, "0", "2"), "2");
    assert.equal(activeSeat(pad, "0", "0"), "1");
    assert.equal(activeSeat(pad, "0", ""), "1");
    assert.equal(activeSeat(pad, null, "2"), "");
  });
});

describe("what the server would refuse", () => {
  test("nobody went out", () => {
    assert.equal(uncounted(padData(), rows(), null), "Tap who went out.");
  });
  test("counted players with neither cards nor a total, by name", () => {
    assert.equal(uncounted(padData(), rows({ 1: ["5"] }), "0"), "Count every hand before saving: Cat, Dan.");
  });
  test("a typed total counts, partners need nothing", () => {
    assert.equal(uncounted(padData(), rows({ 1: ["5"] }, { 2: "0", 3: "4" }), "0"), "");
    assert.equal(uncounted(partners(), rows({ 1: ["5"], 3: ["9"] }), "0"), "");
  });
});
