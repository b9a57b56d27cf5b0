// Adding up a hand from the server's pad data (HandForm.pad_data): card values, each seat's side,
// who is counted for each choice of who went out, the deck's limits and the sentences to fill.
// Pure: the pad's DOM glue (pad.js) reads the rows and draws what this returns.

import { effectText, fill, plural } from "./words.js";

/**
 * @typedef {object} PadData
 * @property {string} mode "challenge" for the others' points going to each of them
 * @property {Record<string, number>} values points per card token
 * @property {string[]} names by seat
 * @property {number[]} sides each seat's side
 * @property {Record<string, number[]>} counted seats counted, by who went out; only seats in play
 * @property {Record<string, string>} words the sentences to fill
 * @property {Record<string, Record<string, string>>} plurals sentences about a number, by plural category
 * @property {string} lang the page's language, for its plural rules
 * @property {{pattern: string, max: number, words: Record<string, string>}} total what a typed total
 *   may be: its pattern, the most it may be, and what to say when it is not (digits, negative, max)
 * @property {[string, string[], number][]} limits what a kind is called, its tokens, how many the deck has
 */

/** A seat's state on the pad: eliminated, waiting (nobody chosen yet), out, partner or counted. */
export const seatState = (pad, seat, out) => {
  if (!(seat in pad.counted)) return "eliminated";
  if (out === null) return "waiting";
  if (seat === out) return "out";
  return pad.counted[out].includes(parseInt(seat, 10)) ? "counted" : "partner";
};

/**
 * What is wrong with a typed total, in the server's words, or "" when it is a total (or empty).
 * @param {PadData} pad
 * @param {string} typed
 */
export const typedProblem = (pad, typed) => {
  const { pattern, max, words } = pad.total;
  if (!typed) return "";
  if (/^-\d+$/.test(typed)) return words.negative;
  if (!new RegExp(pattern).test(typed)) return words.digits;
  return parseInt(typed, 10) > max ? fill(words.max, { max }) : "";
};

/** A typed total when it is one, else what the cards are worth. */
export const pointsOf = (pad, cards, typed) =>
  typed && !typedProblem(pad, typed)
    ? parseInt(typed, 10)
    : cards.reduce((sum, card) => sum + (pad.values[card] || 0), 0);

/**
 * Kinds of card counted across the hand beyond what the deck has: a message per seat holding one.
 * The last card played counts too when its token is in a limit; with no seat holding any of that
 * kind, the message goes to the seat that went out (who played it).
 * @param {PadData} pad
 * @param {Record<string, string[]>} cardsBySeat the cards of each counted seat without a typed total
 * @param {string | null} lastCard the last card played, "" or null when none was chosen
 * @param {string | null} out the seat that went out
 * @returns {Record<string, string[]>}
 */
export const deckProblems = (pad, cardsBySeat, lastCard = null, out = null) => {
  const problems = {};
  for (const [kind, tokens, limit] of pad.limits) {
    const holders = [];
    let counted = lastCard && tokens.includes(lastCard) ? 1 : 0;
    for (const [seat, cards] of Object.entries(cardsBySeat)) {
      const used = cards.filter((card) => tokens.includes(card)).length;
      if (used) {
        holders.push(seat);
        counted += used;
      }
    }
    if (counted <= limit) continue;
    if (!holders.length && out !== null) holders.push(out);
    const message = fill(limit === 0 ? pad.words.none : pad.words.over, { counted, kind, limit });
    for (const seat of holders) (problems[seat] ||= []).push(message);
  }
  return problems;
};

/**
 * The whole pad worked out: each row's state, points, tape and note, the summary, what each side
 * gains, the hand in a few words for the queue, and the deck problems.
 * @param {PadData} pad
 * @param {{seat: string, cards: string[], typed: string}[]} rows
 * @param {string | null} out the seat that went out, null before anyone is chosen
 * @param {string | null} lastCard
 */
export const tally = (pad, rows, out, lastCard = null) => {
  const { words } = pad;
  const challenge = pad.mode === "challenge";
  const effect = {};
  const brief = [];
  const cardsBySeat = {};
  let total = 0;
  const wrong = [];
  const drawn = rows.map(({ seat, cards, typed }) => {
    const state = seatState(pad, seat, out);
    const counting = state === "counted";
    const problem = counting ? typedProblem(pad, typed) : "";
    // Counted once a card is tapped or a total typed: until then the row says so, never a bare 0.
    const entered = counting && !problem && (cards.length > 0 || typed !== "");
    const points = pointsOf(pad, problem ? [] : cards, problem ? "" : typed);
    if (problem) wrong.push(pad.names[seat]);
    if (counting) {
      total += points;
      if (!typed) cardsBySeat[seat] = cards;
      if (challenge) {
        const side = pad.sides[seat];
        effect[side] = (effect[side] || 0) + points;
        brief.push(effectText(words, pad.names[seat], points));
      }
    }
    return {
      seat,
      state,
      counting,
      entered,
      problem,
      points: !counting ? "" : entered ? String(points) : words.blank,
      // Not yet counted: a dash, and the row's name says why (rowLabel), in one line as before.
      note: counting ? "" : words[state] || "",
      // A tally kept from before who went out changed is not drawn over "went out".
      tape: !entered ? "" : typed ? words.typed : cards.map((card) => pad.values[card]).join(words.tape),
    };
  });
  let summary = words.nobody;
  if (out !== null && challenge) summary = fill(plural(pad.plurals.challenge, total, pad.lang), { total });
  else if (out !== null) {
    const partners = pad.names.filter((_, seat) => pad.sides[seat] === pad.sides[out]);
    const names = partners.join(words.and);
    summary = fill(words[partners.length > 1 ? "many" : "one"], { names, total });
    effect[pad.sides[out]] = total;
    brief.push(effectText(words, names, total));
  }
  // A total that is not one gives no score: the summary says which to fix instead of claiming one.
  if (out !== null && wrong.length) summary = fill(words.fix, { names: wrong.join(", ") });
  return {
    rows: drawn,
    total,
    summary,
    effect,
    brief: brief.join(words.list),
    problems: deckProblems(pad, cardsBySeat, lastCard, out),
  };
};

/**
 * A row's button in the server's words, as a screen reader says it: name, points and what
 * choosing it does ("Bob, 23 points, being counted"), or why it is not counted ("Ann, went out").
 * @param {PadData} pad
 * @param {{seat: string, counting: boolean, entered: boolean, points: string, note: string}} row from tally()
 * @param {boolean} active whether it is the row being counted
 */
export const rowLabel = (pad, row, active) => {
  const { words } = pad;
  const name = pad.names[row.seat];
  if (!row.counting) return row.note ? fill(words.row_other, { name, note: row.note }) : name;
  const points = row.entered
    ? fill(plural(pad.plurals.points, Number(row.points), pad.lang), { points: row.points })
    : words.pending;
  return fill(words.row, { name, points, state: words[active ? "active" : "choose"] });
};

/** The seat being counted: the one chosen if it is counted, else the first counted, else none. */
export const activeSeat = (pad, out, chosen) => {
  const counted = out === null ? [] : pad.counted[out].map(String);
  return counted.includes(chosen) ? chosen : counted[0] || "";
};

/**
 * What the server would refuse at once, said before a hand waits on the phone: nobody went out,
 * a typed total that is not one, or counted players with neither cards nor a total. "" when the
 * hand can be sent.
 */
export const uncounted = (pad, rows, out) => {
  if (out === null) return pad.words.nobody;
  const counted = rows.filter(({ seat }) => seatState(pad, seat, out) === "counted");
  const names = (list) => list.map(({ seat }) => pad.names[seat]).join(", ");
  const wrong = counted.filter(({ typed }) => typedProblem(pad, typed));
  if (wrong.length) return fill(pad.words.fix, { names: names(wrong) });
  const missing = counted.filter(({ cards, typed }) => !cards.length && !typed);
  return missing.length ? fill(pad.words.uncounted, { names: names(missing) }) : "";
};
