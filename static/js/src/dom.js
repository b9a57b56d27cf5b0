// Small helpers the DOM glue shares.

/** Every element under `root` that matches, as an array. */
export const all = (root, selector) => Array.from(root.querySelectorAll(selector));

/** A new element with an optional class and text. */
export const element = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
};

/**
 * The hand number a pad is recording: of the pad itself, or of the pad under `root`; null when
 * there is none. The one place that reads it.
 */
export const handNumber = (root) => {
  if (!root || !root.querySelector) return null;
  // A selector's ancestors may include `root` itself: this finds the number of a pad passed in too.
  const input = root.querySelector("form.pad input[name=number]");
  return input ? parseInt(input.value, 10) : null;
};

/** Local storage, or null where the browser refuses it (private mode, storage turned off). */
export const localStore = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/**
 * Whether the parser has passed the end of `node`: an element after it exists. A script that runs
 * while the page is still parsed (app.js is async) may use a part once it is whole.
 */
export const parsedPast = (node) => {
  if (document.readyState !== "loading") return true;
  for (let at = node; at && at !== document.body; at = at.parentElement) {
    if (at.nextElementSibling) return true;
  }
  return false;
};

/**
 * Calls `then` once every element `selector` matches is whole, as the parser goes: at once when
 * they are, else as soon as the parser has passed them, at the latest at DOMContentLoaded. A page
 * without such an element waits for DOMContentLoaded.
 */
export const whenParsed = (selector, then) => {
  const ready = () => {
    const nodes = all(document, selector);
    return document.readyState !== "loading" || (nodes.length > 0 && nodes.every(parsedPast));
  };
  if (ready()) {
    then();
    return;
  }
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    watch.disconnect();
    then();
  };
  const watch = new MutationObserver(() => {
    if (ready()) run();
  });
  watch.observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", run);
};

/** Calls `then` once the page is parsed: at once when it is, else at DOMContentLoaded. */
export const afterParse = (then) => {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", then);
  else then();
};
