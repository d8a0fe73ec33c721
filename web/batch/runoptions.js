// runoptions.js: the "Run options" of the New batch run card (setup.js): concurrent calls (and
// what limits them in effect), timeout, attempts, repeats (which belong to the dataset they were
// chosen for), temperature, prices, "judge both orders" (ordersoption.js, for an evaluator that
// compares two answers), the answer cache, and the jury (juryoption.js: judges beside the model
// settings' one). Each is saved in the Batch view's
// preferences (prefs.js) as it changes.

import { h, uid, field } from "../lib/dom.js";
import { prefsOf, setPrefs } from "./prefs.js";
import { repeatsOf, temperatureOf } from "./repeatopts.js";
import { MAX_REPEATS } from "./scheduler.js";
import { ordersOption } from "./ordersoption.js";
import { juryOption } from "./juryoption.js";
import { fmtInt } from "../lib/format.js";

/**
 * mountRunOptions builds the run options; el is their part of the card. dataset() is the name of
 * the dataset loaded ("" before one is). hooks are setup.js's (onConcurrency, callsCapped,
 * browserLimit, maxConcurrency). orders.show(ev) shows "judge both orders" for evaluator ev when it
 * compares two answers.
 * @param {{state: import("../shell/state.js").State, store: any, hooks: any, dataset: () => string}} ctx
 */
export function mountRunOptions({ state, store, hooks, dataset }) {
  const prefs = () => prefsOf(state);
  /** num is a numeric option saved as prefs[key], clamped by clampFn. */
  const num = (ref, key, attrs, clampFn) => {
    const el = h("input", { type: "number", class: "input narrow", value: String(prefs()[key]), dataset: { ref }, attrs });
    el.addEventListener("change", () => {
      const v = clampFn ? clampFn(el.value) : el.value;
      el.value = String(v);
      setPrefs(state, { [key]: v });
    });
    return el;
  };
  const clampInt = (lo, hi, dflt) => (v) => Math.max(lo, Math.min(hi, Math.round(Number(v)) || dflt));
  // The most the control offers is what the dev server takes (runcontroller.js maxConcurrency), else 64.
  const maxCalls = () => (hooks.maxConcurrency ? hooks.maxConcurrency() : 64);
  const concurrencyIn = num("batch-concurrency", "concurrency", { min: 1, max: maxCalls(), step: 1 }, (v) => clampInt(1, maxCalls(), 8)(v));
  concurrencyIn.addEventListener("change", () => {
    hooks.onConcurrency(prefs().concurrency);
    drawConcurrencyHint();
  });
  // A browser keeps at most 6 HTTP/1.1 connections to one host, and the dev server speaks HTTP/1.1.
  const concurrencyHint = h("div", { class: "hint", dataset: { ref: "batch-concurrency-hint" } });
  const timeoutIn = num("batch-timeout", "timeoutS", { min: 1, max: 600, step: 1 }, (v) => Math.max(1, Math.min(600, Number(v) || 60)));
  const attemptsIn = num("batch-attempts", "attempts", { min: 1, max: 10, step: 1 }, clampInt(1, 10, 5));
  const repeatsIn = num("batch-repeats", "repeats", { min: 1, max: MAX_REPEATS, step: 1 }, clampInt(1, MAX_REPEATS, 1));
  // The repeats belong to the dataset they were chosen for (repeatsFor): see keepRepeats.
  repeatsIn.addEventListener("change", () => {
    setPrefs(state, { repeatsFor: dataset() });
    repeatsNote.textContent = "";
  });
  const repeatsNote = h("div", { class: "hint repeats-note", dataset: { ref: "batch-repeats-note" }, attrs: { role: "status" } });
  const temperatureIn = num("batch-temperature", "temperature", { min: 0, max: 2, step: "any", placeholder: "default" }, (v) => (v === "" || temperatureOf({ temperature: v }) === null ? "" : v));
  const orders = ordersOption(state);
  const jury = juryOption(state);
  const priceInIn = num("batch-price-in", "priceIn", { min: 0, step: "any", placeholder: "$ / 1M" });
  const priceOutIn = num("batch-price-out", "priceOut", { min: 0, step: "any", placeholder: "$ / 1M" });
  const cacheBox = h("input", {
    type: "checkbox",
    id: uid("bcache"),
    checked: prefs().useCache,
    dataset: { ref: "batch-use-cache" },
    on: { change: () => setPrefs(state, { useCache: cacheBox.checked }) },
  });
  const cacheInfo = h("span", { class: "hint", dataset: { ref: "batch-cache-count" } });
  const clearCacheBtn = h("button", {
    type: "button",
    class: "btn btn-small btn-ghost",
    text: "Clear cache",
    dataset: { ref: "batch-clear-cache" },
    on: {
      click: async () => {
        await store.cacheClear();
        drawCacheInfo();
      },
    },
  });
  const options = h(
    "details",
    { class: "batch-options", open: true },
    h("summary", { text: "Run options" }),
    h(
      "div",
      { class: "batch-grid" },
      h("div", { class: "field" }, h("label", { htmlFor: (concurrencyIn.id = uid("bf")), text: "Concurrent calls" }), concurrencyIn, concurrencyHint),
      field("Timeout per call (s)", timeoutIn),
      field("Attempts per call", attemptsIn, "retries on 429, 5xx, network errors and timeouts, with backoff"),
      h("div", { class: "field" }, h("label", { htmlFor: (repeatsIn.id = uid("bf")), text: "Judge each row N times" }), repeatsIn, h("div", { class: "hint", text: "more than once shows which rows the judge is unsure of; the verdict is the majority" }), repeatsNote),
      field("Temperature", temperatureIn, "for this run's calls; empty uses the model settings' (repeats at 0 mostly agree)"),
      field("Price per 1M input tokens", priceInIn),
      field("Price per 1M output tokens", priceOutIn),
    ),
    orders.field,
    h("div", { class: "check" }, cacheBox, h("label", { htmlFor: cacheBox.id, text: "Answer identical requests from the local cache (untick to bypass it)" }), " ", cacheInfo, clearCacheBtn),
  );
  const el = h("div", { class: "run-options" }, options, jury.el);

  function drawConcurrencyHint() {
    concurrencyIn.max = String(maxCalls());
    const n = prefs().concurrency;
    const direct = hooks.browserLimit ? hooks.browserLimit() : null;
    // The control shows the limit in effect: what the browser allows the endpoint, when that is less.
    const effective = direct && direct.limit < n ? direct.limit : n;
    concurrencyIn.dataset.effective = String(effective);
    concurrencyHint.dataset.protocolSeen = direct ? direct.seen : "";
    if (direct && direct.limit < n) {
      concurrencyHint.textContent = `${effective} at once in effect: calls to ${direct.origin} are limited to ${direct.limit} at a time by the browser (HTTP/1.1); the dev server (make run) has no such limit.`;
      return;
    }
    if (n > maxCalls()) {
      concurrencyIn.dataset.effective = String(maxCalls());
      concurrencyHint.textContent = `${maxCalls()} at once in effect: the most this dev server takes (-max-inflight).`;
      return;
    }
    concurrencyHint.textContent = hooks.callsCapped() && n > 6 ? "Through this dev server at most 6 calls are in flight (a browser's HTTP/1.1 limit per host; a newer dev server lifts it)." : "";
  }

  /**
   * keepRepeats applies the rule for a dataset loaded as name: the number of repeats (each one a
   * call of its own) belongs to the dataset it was chosen for. Another dataset starts at 1 again,
   * and says so; the same dataset (by its file name) keeps it; a number chosen before any dataset
   * was loaded is the next dataset's.
   * @param {string} name
   */
  function keepRepeats(name) {
    const p = prefs();
    const n = repeatsOf(p);
    repeatsNote.textContent = "";
    if (n > 1 && p.repeatsFor !== "" && p.repeatsFor !== name) {
      repeatsNote.textContent = `Back to 1 for ${name}: ${n} was chosen ${p.repeatsFor ? "for " + p.repeatsFor : "in an earlier session"}.`;
      setPrefs(state, { repeats: 1, repeatsFor: name });
      repeatsIn.value = "1";
    } else if (p.repeatsFor !== name) setPrefs(state, { repeatsFor: name });
  }

  async function drawCacheInfo() {
    try {
      const n = await store.cacheCount();
      cacheInfo.textContent = `${fmtInt(n)} answer${n === 1 ? "" : "s"} cached.`;
    } catch {
      cacheInfo.textContent = "";
    }
  }

  return { el, orders, drawConcurrencyHint, drawCacheInfo, keepRepeats };
}
