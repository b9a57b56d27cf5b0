import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { freshPlan, GAME_PARTS, markText, nextState, startState } from "../../static/js/src/copy.js";

const WORDS = { copyOffline: "Offline · last seen {seen}", copyUnreachable: "Can't reach the scorer · last seen {seen}" };
const mark = (state) => markText(state, { words: WORDS, updating: "Last seen 20:41 · updating…", seen: "20:41" });

describe("the copy's states", () => {
  test("a page starts as a copy when the worker marked it, else fresh", () => {
    assert.equal(startState(true), "copy");
    assert.equal(startState(false), "fresh");
  });
  test("asked for, the fresh page is updating; answered, the page is fresh", () => {
    assert.equal(nextState("copy", "ask"), "updating");
    assert.equal(nextState("updating", "answered"), "fresh");
  });
  test("not fetched: offline without a network, unreachable with one", () => {
    assert.equal(nextState("updating", "failed", false), "offline");
    assert.equal(nextState("updating", "failed", true), "unreachable");
  });
  test("asked again after a failure, it is updating again", () => {
    assert.equal(nextState("offline", "ask"), "updating");
    assert.equal(nextState("unreachable", "ask"), "updating");
  });
  test("a fresh page stays fresh whatever happens", () => {
    for (const event of ["ask", "failed", "answered"]) assert.equal(nextState("fresh", event, false), "fresh");
  });
  test("an unknown event changes nothing", () => {
    assert.equal(nextState("offline", "poll"), "offline");
  });
});

describe("the copy's mark", () => {
  test("a copy and an update say the worker's words, with the time filled in", () => {
    assert.equal(mark("copy"), "Last seen 20:41 · updating…");
    assert.equal(mark("updating"), "Last seen 20:41 · updating…");
  });
  test("offline and unreachable say so, with when the copy was seen", () => {
    assert.equal(mark("offline"), "Offline · last seen 20:41");
    assert.equal(mark("unreachable"), "Can't reach the scorer · last seen 20:41");
  });
  test("a fresh page has no mark", () => {
    assert.equal(mark("fresh"), null);
  });
});

describe("what the fresh page changes on the copy", () => {
  test("nothing while the game is where the copy left it, touched or not", () => {
    for (const touched of [false, true]) {
      assert.deepEqual(freshPlan({ sameGame: true, touched, hand: 3, freshHand: 3 }), { parts: [], play: "keep" });
    }
  });
  test("a game that moved on: its parts, and an untouched pad", () => {
    assert.deepEqual(freshPlan({ sameGame: false, touched: false, hand: 3, freshHand: 4 }), {
      parts: GAME_PARTS,
      play: "swap",
    });
  });
  test("a pad being counted stays: as it is for the same hand, with a word for another", () => {
    assert.equal(freshPlan({ sameGame: false, touched: true, hand: 3, freshHand: 3 }).play, "keep");
    assert.equal(freshPlan({ sameGame: false, touched: true, hand: 3, freshHand: 4 }).play, "note");
    assert.equal(freshPlan({ sameGame: false, touched: true, hand: 3, freshHand: null }).play, "note");
  });
});
