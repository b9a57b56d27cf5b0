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
