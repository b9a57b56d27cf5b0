// Pad data as the server sends it (HandForm.pad_data) for the tests: four players, Ann & Cat
// against Bob & Dan in partners, or each on their own.

export const WORDS = {
  nobody: "Tap who went out.",
  uncounted: "Count every hand before saving: {names}.",
  one: "{names} scores {total}",
  many: "{names} score {total}",
  and: " & ",
  effect: "{names} +{points}",
  list: " · ",
  typed: "typed",
  tape: " · ",
  out: "went out",
  partner: "partner, not counted",
  eliminated: "out of the game",
  pending: "not counted yet",
  blank: "—",
  fix: "Fix the total for {names}.",
  row: "{name}, {points}, {state}",
  row_other: "{name}, {note}",
  active: "being counted",
  choose: "choose to count",
  over: "{counted} {kind} counted, but the deck has only {limit}.",
  none: "This game's deck has no {kind}.",
};

export const padData = (overrides = {}) => ({
  mode: "standard",
  values: { 0: 0, 3: 3, 8: 8, 9: 9, 20: 20, 50: 50, blank: 50, wild4: 50 },
  names: ["Ann", "Bob", "Cat", "Dan"],
  sides: [0, 1, 2, 3],
  counted: { 0: [1, 2, 3], 1: [0, 2, 3], 2: [0, 1, 3], 3: [0, 1, 2] },
  words: WORDS,
  // Sentences about a number, by plural category, as English has them.
  plurals: {
    points: { one: "{points} point", other: "{points} points" },
    challenge: { one: "The others take {total} point between them.", other: "The others take {total} points between them." },
  },
  lang: "en",
  total: {
    pattern: "^[0-9]+$",
    max: 99999,
    words: { digits: "Type a whole number of points, like 37.", negative: "A total cannot be negative.", max: "A total is at most {max}." },
  },
  limits: [
    ["0s", ["0"], 4],
    ["Wild Draw Fours", ["wild4"], 4],
    ["blank cards", ["blank"], 0],
  ],
  ...overrides,
});

export const partners = () =>
  padData({
    mode: "partners",
    sides: [0, 1, 0, 1],
    counted: { 0: [1, 3], 1: [0, 2], 2: [1, 3], 3: [0, 2] },
  });

/** Rows as the pad reads them: cards by seat, typed totals by seat. */
export const rows = (cards = {}, typed = {}) =>
  ["0", "1", "2", "3"].map((seat) => ({ seat, cards: cards[seat] || [], typed: typed[seat] || "" }));
