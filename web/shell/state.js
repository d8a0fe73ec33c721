// state.js: the page's one state object. Each field is a signal (lib/store.js): a view reads it
// with get() and, in an effect, draws again when it changes. A field's value is never changed in
// place: set() and update() put new values, frozen so that a write in place fails at once rather
// than go unseen, and save them to localStorage so they survive a reload. The API key is kept in
// memory and saved only when the user ticks "remember on this device".

import { signal, batch } from "../lib/store.js";

const STORE = "ragjudge.page.v1";
const KEY_STORE = "ragjudge.page.key";

/** DEFAULTS is a fresh page's state. */
export const DEFAULTS = Object.freeze({
  view: "evaluate", // evaluate | batch | calculator
  evaluator: "claim-groundedness",
  forms: {}, // evaluator id -> raw form values (see evaluate/view.js)
  answers: {}, // evaluator id -> the judge's answer text last seen or pasted
  settings: {
    endpoint: "", // "proxy" | "direct" | "manual"; "" until the page knows whether a dev server is there
    baseURL: "https://api.openai.com/v1",
    model: "gpt-4o-mini",
    temperature: 0,
    maxTokens: 2048,
    stream: true,
    remember: false,
  },
  calc: null, // calculator/view.js owns its shape
});

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the page still works, it just forgets
  }
}

/** State is the page's state; read fields with get(), change them with set() or update(). */
export class State {
  constructor() {
    /** @type {Record<string, any>} */
    let data = structuredClone(DEFAULTS);
    let key = "";
    const st = storage();
    if (st) {
      try {
        const saved = JSON.parse(st.getItem(STORE) || "null");
        if (saved && typeof saved === "object") {
          data = { ...data, ...saved, settings: { ...data.settings, ...(saved.settings || {}) } };
        }
      } catch {
        // a corrupt entry is dropped, not fatal
      }
      if (data.settings.remember) key = st.getItem(KEY_STORE) || "";
    }
    /** @type {Map<string, import("../lib/store.js").Signal<any>>} a signal per field, made when first read or set */
    this.fields = new Map(Object.entries(data).map(([k, v]) => [k, signal(freeze(v))]));
    this.keyed = signal(key); // the API key; never a field so it is never saved by accident
    // A jury's judges on other endpoints than the page's: their keys by endpoint (batch/judges.js
    // keyId), in memory only, never saved: a reload asks for them again.
    this.judgeKeyed = signal(/** @type {Readonly<Record<string, string>>} */ (Object.freeze({})));
    // The dev server's /ragjudge/config, or null while there is none (or it does not answer): set
    // at start, and again when a dev server that was down answers (shell/settings.js watchServer).
    this.configured = signal(/** @type {any} */ (null));
  }

  /** config is the dev server's /ragjudge/config, or null (in an effect, the effect runs again when it changes). */
  get config() {
    return this.configured.value;
  }

  set config(v) {
    this.configured.value = v;
  }

  /** field is the signal of field name. @param {string} name */
  field(name) {
    let f = this.fields.get(name);
    if (!f) this.fields.set(name, (f = signal(undefined)));
    return f;
  }

  /** get reads field name (in an effect, the effect runs again when it changes). @param {string} name */
  get(name) {
    return this.field(name).value;
  }

  /** key is the API key (in an effect, the effect runs again when it changes). */
  get key() {
    return this.keyed.value;
  }

  /** set puts patch's fields in the state and saves it; the effects that read them run once, after. @param {Record<string, any>} patch */
  set(patch) {
    batch(() => {
      for (const [k, v] of Object.entries(patch)) this.field(k).value = freeze(v);
      this.save();
    });
  }

  /**
   * update replaces the value of key with fn(current value), saves it and returns the new value.
   * fn gets the current value, frozen: it returns a new one (a view that kept the old value still
   * sees the old value).
   * @template T
   * @param {string} key
   * @param {(current: T) => T} fn
   * @returns {T}
   */
  update(key, fn) {
    const next = fn(this.field(key).peek());
    this.set({ [key]: next });
    return next;
  }

  /** setSettings merges patch into settings. */
  setSettings(patch) {
    this.set({ settings: { ...this.field("settings").peek(), ...patch } });
  }

  /** setKey keeps the key in memory, and on this device only when remember is ticked. */
  setKey(key) {
    batch(() => {
      this.keyed.value = key;
      this.saveKey();
    });
  }

  /** judgeKey is the key given for a jury judge's endpoint id (batch/judges.js keyId), or "". @param {string} id */
  judgeKey(id) {
    return this.judgeKeyed.value[id] || "";
  }

  /** setJudgeKey keeps the key for a jury judge's endpoint id, in memory only. @param {string} id @param {string} key */
  setJudgeKey(id, key) {
    this.judgeKeyed.value = Object.freeze({ ...this.judgeKeyed.peek(), [id]: key });
  }

  saveKey() {
    const st = storage();
    if (!st) return;
    const key = this.keyed.peek();
    if (this.field("settings").peek().remember && key) st.setItem(KEY_STORE, key);
    else st.removeItem(KEY_STORE);
  }

  save() {
    const st = storage();
    if (!st) return;
    try {
      st.setItem(STORE, JSON.stringify(Object.fromEntries([...this.fields].map(([k, f]) => [k, f.peek()]))));
    } catch {
      // quota exceeded: keep working in memory
    }
    this.saveKey();
  }

  /** endpoint returns where calls go: {mode, baseURL, direct, label}. */
  endpoint() {
    const s = this.get("settings");
    const mode = s.endpoint || (this.config ? "proxy" : "manual");
    if (mode === "proxy") {
      const host = this.config ? this.config.upstream_host || hostOnly(this.config.upstream) : "";
      return {
        mode,
        baseURL: new URL("v1", location.href).href.replace(/\/$/, ""),
        direct: false,
        label: !this.config ? "via dev server (not reachable)" : this.config.token === "required" ? "via dev server (needs its access token)" : `via dev server → ${host || "upstream"}`,
      };
    }
    if (mode === "direct") return { mode, baseURL: s.baseURL, direct: true, label: `direct → ${hostOnly(s.baseURL) || "?"}` };
    return { mode: "manual", baseURL: "", direct: false, label: "manual, no calls" };
  }
}

function hostOnly(u) {
  try {
    return new URL(u).host;
  } catch {
    return "";
  }
}

/**
 * freeze freezes v and every object and array in it, and returns it.
 * @template T @param {T} v @returns {T}
 */
function freeze(v) {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) freeze(x);
  }
  return v;
}
