import assert from "node:assert/strict";
import { test } from "node:test";

import { effectText, fill } from "../../static/js/src/words.js";

test("slots are filled from the values, every time they appear", () => {
  assert.equal(fill("Hand {number} · {brief} · {number}", { number: 3, brief: "Ann +9" }), "Hand 3 · Ann +9 · 3");
});

test("a slot without a value stays, rather than reading undefined", () => {
  assert.equal(fill("{names} scores {total}", { names: "Ann" }), "Ann scores {total}");
});

test("zero is a value", () => {
  assert.equal(fill("+{points} waiting", { points: 0 }), "+0 waiting");
});

test("a value is put in as it is, not read as a template", () => {
  assert.equal(fill("{names}", { names: "{total} $& $1" }), "{total} $& $1");
});

test("a side's effect, in the server's words", () => {
  assert.equal(effectText({ effect: "{names} +{points}" }, "Ann & Cat", 29), "Ann & Cat +29");
  assert.equal(effectText({ effect: "{names}: {points}" }, "Ann", 5), "Ann: 5");
});
