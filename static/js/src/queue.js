// The hands waiting on this phone for the server, per game: kept in order of hand number, one per
// number (saving a hand again replaces it, and the server takes a hand number once), sent first to
// last, and held for the table when the server answers with another phone's version (a conflict)
// or a refusal (a problem). Pure: the storage is passed in (localStorage in the page).

export const FIRST_RETRY_MS = 2000;
export const LAST_RETRY_MS = 60000;

/** The wait before the next try: doubling from the first to the last, which it then keeps. */
export const nextRetry = (previous) => Math.min(LAST_RETRY_MS, previous ? previous * 2 : FIRST_RETRY_MS);

const keyOf = (game) => "uno:queue:" + game;

/**
 * The waiting hands of one game in `storage` (anything with getItem, setItem and removeItem).
 * A storage that refuses (private mode, full) leaves the queue empty, and the page shows the hand
 * only while it is open.
 */
export const waitingHands = (storage, game) => {
  const load = () => {
    try {
      return JSON.parse(storage.getItem(keyOf(game)) || "[]");
    } catch {
      return [];
    }
  };
  const save = (hands) => {
    try {
      if (hands.length) storage.setItem(keyOf(game), JSON.stringify(hands));
      else storage.removeItem(keyOf(game));
    } catch {
      /* private mode or full: the hand stays on screen only */
    }
  };
  return {
    /** @returns {object[]} the waiting hands, lowest number first */
    list: load,
    /** Adds a hand, replacing one with the same number. */
    add(hand) {
      const hands = load().filter((waiting) => waiting.number !== hand.number);
      hands.push(hand);
      hands.sort((a, b) => a.number - b.number);
      save(hands);
    },
    drop(number) {
      save(load().filter((hand) => hand.number !== number));
    },
    /** Sets fields on the hand with this number (a conflict, a problem). */
    mark(number, fields) {
      save(load().map((hand) => (hand.number === number ? { ...hand, ...fields } : hand)));
    },
    find(number) {
      return load().find((hand) => hand.number === number);
    },
  };
};

/** The hand to send next: the first, unless it waits for the table's choice; else null. */
export const nextToSend = (hands) => {
  const first = hands[0];
  return first && !first.conflict && !first.problem ? first : null;
};

/** Whether any waiting hand needs the table's choice. */
export const needsChoice = (hands) => hands.some((hand) => hand.conflict || hand.problem);

/** What the waiting hands add to each side, by side. */
export const waitingPoints = (hands) => {
  const totals = {};
  for (const hand of hands) {
    for (const [side, points] of Object.entries(hand.effect || {})) totals[side] = (totals[side] || 0) + points;
  }
  return totals;
};

/**
 * What a server's answer to a hand means for it.
 * - sent: the hand is recorded; drop it.
 * - fields: set on the hand, which then waits for the table (another phone's version, a refusal).
 * - signIn: the phone must sign in before anything is sent.
 * - staleToken: the session's token is no longer taken; a fresh page brings a new one.
 * - hold: the answer is final for now (ask the server for the game as it is), not worth a retry.
 * @param {{ok: boolean, code: number, status?: string, theirs?: object, ours?: object,
 *   message?: string, errors?: string[]}} answer
 * @param {string} refused what to say when a refusal comes without a message
 */
export const outcome = (answer, refused) => {
  const signIn = answer.code === 401 || answer.code === 403;
  let fields = null;
  if (answer.status === "conflict") fields = { conflict: { theirs: answer.theirs, ours: answer.ours } };
  else if (answer.status === "invalid" || answer.status === "refused")
    fields = { problem: answer.message || (answer.errors || []).join(" ") || refused };
  return {
    sent: answer.ok,
    fields,
    signIn,
    staleToken: answer.code === 400,
    hold: signIn || !!answer.status,
  };
};

/**
 * The seat that deals hand `number`, from the server's dealers of the hands from `next` on (its
 * `null` where a waiting hand may still change who deals); null where the server's list says
 * nothing, so the page never names a dealer the server did not.
 * @param {Array<number|null>} dealers
 */
export const dealerOf = (dealers, next, number) => {
  const dealer = Array.isArray(dealers) ? dealers[number - next] : undefined;
  return Number.isInteger(dealer) ? dealer : null;
};
