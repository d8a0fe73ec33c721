// words.js: what only the Batch view writes in words (a dataset's format), and its stylesheet.
// Numbers are lib/format.js's, a row's state in words and as a badge verdict/statebadge.js's.

import { addStylesheet } from "../lib/dom.js";

/** ensureStylesheet adds batch.css to the page once. */
export function ensureStylesheet() {
  addStylesheet(new URL("./batch.css", import.meta.url).href, "batch-css");
}

/** FORMAT_WORDS: a dataset's format (rj.readDataset's `format`) in words. */
const FORMAT_WORDS = { jsonl: "JSON Lines", json: "JSON", csv: "CSV", tsv: "TSV" };

/**
 * formatWords says what a dataset was read as: "JSON Lines", "CSV with semicolons", and when its
 * file's name said another format (the content decides: `named`), "JSON Lines by its content,
 * though named .json".
 * @param {{format: string, named?: string, delimiter?: string}} table
 * @param {string} name the file's name
 */
export function formatWords(table, name) {
  let w = FORMAT_WORDS[/** @type {keyof typeof FORMAT_WORDS} */ (table.format)] || String(table.format || "").toUpperCase();
  if (table.format === "csv" && table.delimiter === ";") w += " with semicolons";
  if (!table.named) return w;
  const dot = name.lastIndexOf(".");
  return `${w} by its content, though named ${dot >= 0 ? name.slice(dot).toLowerCase() : "." + table.named}`;
}
