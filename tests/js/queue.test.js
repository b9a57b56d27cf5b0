import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  dealerOf,
  FIRST_RETRY_MS,
  LAST_RETRY_MS,
  needsChoice,
  nextRetry,
  nextToSend,
  outcome,
  waitingHands,
  waitingPoints,
} from "../../static/js/src/queue.js";

/** A storage like localStorage, in memory. */
const memory = () => {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
};

const hand = (number, fields = {}) => ({ number, body: [["number", String(number)]], brief: "Ann +" + number, ...fields });

describe("the waiting hands", () => {
  test("kept in order of hand number, whatever the order they were saved in", () => {
    const queue = waitingHands(memory(), "7");
    queue.add(hand(3));
    queue.add(hand(1));
    queue.add(hand(2));
    assert.deepEqual(queue.list().map((waiting) => waiting.number), [1, 2, 3]);
  });
  test("one per hand number: saving a hand again replaces it", () => {
    const queue = waitingHands(memory(), "7");
    queue.add(hand(1, { brief: "Ann +5" }));
    queue.add(hand(1, { brief: "Bob +9" }));
    assert.deepEqual(queue.list().map((waiting) => waiting.brief), ["Bob +9"]);
  });
  test("each game has its own; the storage key goes when the last hand does", () => {
    const storage = memory();
    waitingHands(storage, "7").add(hand(1));
    waitingHands(storage, "8").add(hand(4));
    assert.deepEqual(waitingHands(storage, "7").list().map((waiting) => waiting.number), [1]);
    waitingHands(storage, "7").drop(1);
    assert.deepEqual([...storage.items.keys()], ["uno:queue:8"]);
  });
  test("kept across pages: a new reader of the same storage sees them", () => {
    const storage = memory();
    waitingHands(storage, "7").add(hand(2));
    assert.equal(waitingHands(storage, "7").find(2).brief, "Ann +2");
  });
  test("a conflict or a problem is set on its hand alone", () => {
    const queue = waitingHands(memory(), "7");
    queue.add(hand(1));
    queue.add(hand(2));
    queue.mark(1, { problem: "No." });
    assert.deepEqual(queue.list().map((waiting) => waiting.problem), ["No.", undefined]);
  });
  test("a storage that refuses leaves the page working", () => {
    const refusing = { getItem: () => "not json", setItem: () => { throw new Error("full"); }, removeItem: () => {} };
    const queue = waitingHands(refusing, "7");
    assert.deepEqual(queue.list(), []);
    assert.doesNotThrow(() => queue.add(hand(1)));
  });
});

describe("sending in order", () => {
  test("the first hand goes first", () => {
    assert.equal(nextToSend([hand(1), hand(2)]).number, 1);
    assert.equal(nextToSend([]), null);
  });
  test("a hand waiting for the table's choice holds back the ones after it", () => {
    assert.equal(nextToSend([hand(1, { conflict: {} }), hand(2)]), null);
    assert.equal(nextToSend([hand(1, { problem: "No." }), hand(2)]), null);
    assert.equal(needsChoice([hand(1), hand(2, { problem: "No." })]), true);
    assert.equal(needsChoice([hand(1), hand(2)]), false);
  });
});

describe("back-off", () => {
  test("doubles from the first wait up to the last, then keeps it", () => {
    const waits = [];
    let wait = 0;
    for (let i = 0; i < 8; i++) waits.push((wait = nextRetry(wait)));
    assert.deepEqual(waits, [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    assert.equal(waits[0], FIRST_RETRY_MS);
    assert.equal(waits.at(-1), LAST_RETRY_MS);
  });
  test("starts again from the first after a success (a wait of 0)", () => {
    assert.equal(nextRetry(0), FIRST_RETRY_MS);
  });
});

describe("the server's answers", () => {
  test("recorded", () => {
    assert.deepEqual(outcome({ ok: true, code: 200, status: "recorded" }, "Refused."), {
      sent: true,
      fields: null,
      signIn: false,
      staleToken: false,
      hold: true,
    });
  });
  test("another phone recorded the hand: both versions kept for the table", () => {
    const theirs = { brief: "Bob +9", detail: "by another phone" };
    const ours = { brief: "Ann +5", detail: "this phone" };
    const result = outcome({ ok: false, code: 409, status: "conflict", theirs, ours }, "Refused.");
    assert.deepEqual(result.fields, { conflict: { theirs, ours } });
    assert.equal(result.hold, true);
  });
  test("a refusal keeps the server's message, else its errors, else the fallback words", () => {
    assert.deepEqual(outcome({ ok: false, code: 422, status: "invalid", message: "Over." }, "R").fields, { problem: "Over." });
    assert.deepEqual(outcome({ ok: false, code: 422, status: "invalid", errors: ["A.", "B."] }, "R").fields, {
      problem: "A. B.",
    });
    assert.deepEqual(outcome({ ok: false, code: 422, status: "refused" }, "Refused.").fields, { problem: "Refused." });
  });
  test("signed out: held for a sign-in", () => {
    for (const code of [401, 403]) {
      const result = outcome({ ok: false, code }, "R");
      assert.equal(result.signIn, true);
      assert.equal(result.hold, true);
      assert.equal(result.fields, null);
    }
  });
  test("a token no longer taken, or a server error: worth a retry", () => {
    assert.deepEqual(outcome({ ok: false, code: 400 }, "R"), {
      sent: false,
      fields: null,
      signIn: false,
      staleToken: true,
      hold: false,
    });
    assert.equal(outcome({ ok: false, code: 503 }, "R").hold, false);
  });
});

test("what the waiting hands add to each side", () => {
  assert.deepEqual(waitingPoints([hand(1, { effect: { 0: 25 } }), hand(2, { effect: { 1: 16, 0: 5 } }), hand(3)]), {
    0: 30,
    1: 16,
  });
});

describe("the dealer of the hand the pad counts", () => {
  // The server's dealers of hands 3, 4, 5 and 6.
  const dealers = [2, 3, 0, 1];

  test("is the server's for that hand, counted from the scoreboard's next hand", () => {
    assert.equal(dealerOf(dealers, 3, 3), 2);
    assert.equal(dealerOf(dealers, 3, 5), 0);
    assert.equal(dealerOf(dealers, 3, 6), 1);
  });

  test("is not known past the server's list, nor where the server says a hand may change it", () => {
    assert.equal(dealerOf(dealers, 3, 7), null);
    assert.equal(dealerOf(dealers, 3, 2), null);
    assert.equal(dealerOf([1, null, null], 1, 2), null);
    assert.equal(dealerOf(undefined, 1, 1), null);
  });
});
