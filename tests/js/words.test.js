import assert from "node:assert/strict";
import { test } from "node:test";

import { effectText, fill, plural } from "../../static/js/src/words.js";

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

test("a number's sentence follows the page language's plural rules", () => {
  const points = { one: "{points} point", other: "{points} points" };
  assert.equal(plural(points, 1, "en"), "{points} point");
  assert.equal(plural(points, 0, "en"), "{points} points");
  // French says 0 and 1 in the singular.
  assert.equal(plural(points, 0, "fr"), "{points} point");
  assert.equal(plural(points, 2, "fr"), "{points} points");
});

test("a language with one form, or a category the server did not send, takes what there is", () => {
  assert.equal(plural({ other: "{points}점" }, 1, "ko"), "{points}점");
  assert.equal(plural({ one: "x", other: "y" }, 1000000, "fr"), "y");
});
