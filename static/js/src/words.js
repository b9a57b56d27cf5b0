// Filling in the server's sentences. The script holds none of its own: every word it shows comes
// from the page (the pad's data-pad, or the client words block that base.html renders).

/**
 * A template with its {name} slots filled from `values`; a slot without a value stays as it is.
 * @param {string} template
 * @param {Record<string, unknown>} values
 */
export const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (slot, key) => (key in values ? String(values[key]) : slot));

/** A side's points as the queue shows them ("Ann & Cat +29"), in the pad's words.effect. */
export const effectText = (words, names, points) => fill(words.effect, { names, points });

/**
 * The form of a sentence about `count` that the page's language uses: `forms` holds one per plural
 * category of the language (the server's catalogs, keyed as Intl.PluralRules names them).
 * @param {Record<string, string>} forms
 * @param {number} count
 * @param {string} lang the page's language, as its html lang says it
 */
export const plural = (forms, count, lang) =>
  forms[new Intl.PluralRules(lang).select(count)] ?? forms.other ?? Object.values(forms)[0];
