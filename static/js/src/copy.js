// The phone's copy of a page: the service worker answers a reopened page from its copy, marked
// (html[data-copy-of] with the time it was seen), and the page asks for the fresh one at once.
// Pure: the states and what the copy's mark says in each; offline.js draws it.
//
//   copy         shown from the copy, the fresh page not asked for yet
//   updating     the fresh page is on its way
//   offline      it could not be fetched, and the phone has no network
//   unreachable  it could not be fetched, though the phone has a network
//   fresh        the server's page is in place: nothing to mark, and it stays so

import { fill } from "./words.js";

/** The state a page starts in. */
export const startState = (isCopy) => (isCopy ? "copy" : "fresh");

/**
 * The state after an event: "ask" (the fresh page is asked for), "answered" (it came and
 * replaced the copy), "failed" (it did not come; `online` says whether the phone has a network).
 */
export const nextState = (state, event, online = true) => {
  if (state === "fresh") return state;
  if (event === "ask") return "updating";
  if (event === "answered") return "fresh";
  if (event === "failed") return online ? "unreachable" : "offline";
  return state;
};

/**
 * What the mark says in a state, or null where the page is no copy. `updating` is the mark's own
 * text as the worker served it (its time already filled in); `seen` is when the copy was seen.
 */
export const markText = (state, { words, updating, seen }) => {
  if (state === "offline") return fill(words.copyOffline, { seen });
  if (state === "unreachable") return fill(words.copyUnreachable, { seen });
  if (state === "fresh") return null;
  return updating;
};

/** The parts of a game a fresh page may change, by id, besides the pad (#play). */
export const GAME_PARTS = ["scoreboard", "history", "chart", "poll"];

/**
 * What the fresh page changes on a game page shown from the copy, so that only what changed is
 * laid out again and the pad being touched stays:
 * - parts: the ids of GAME_PARTS to replace: none while the game is at the copy's version.
 * - play: "keep" the pad as it is, "swap" it for the fresh one, or "note" (keep it, and say the
 *   game moved on under it: another phone saved or undid the hand being counted).
 * @param {{sameGame: boolean, touched: boolean, hand: number|null, freshHand: number|null}} page
 *   sameGame: the fresh game's version is the copy's; touched: a tally is being counted on the
 *   copy's pad, for hand `hand`; freshHand: the hand the fresh pad is for (null when none).
 */
export const freshPlan = ({ sameGame, touched, hand, freshHand }) => {
  if (sameGame) return { parts: [], play: "keep" };
  let play = "swap";
  if (touched) play = hand === freshHand ? "keep" : "note";
  return { parts: GAME_PARTS, play };
};
