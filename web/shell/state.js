// state.js: the page's one state object. It is an EventTarget: views change it with set() or update()
// listen for "change" events; everything a user types is saved to localStorage so it survives a
// reload. The API key is kept in memory and saved only when the user ticks "remember on this device".

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

/** State is the page's state; read fields with get(), change them with set(). */
export class State extends EventTarget {
  constructor() {
    super();
    this.data = structuredClone(DEFAULTS);
    this.key = ""; // the API key; never in this.data so it is never saved by accident
    this.config = null; // the dev server's /ragjudge/config, or null when there is no dev server
    const st = storage();
    if (st) {
      try {
        const saved = JSON.parse(st.getItem(STORE) || "null");
        if (saved && typeof saved === "object") {
          this.data = { ...this.data, ...saved, settings: { ...this.data.settings, ...(saved.settings || {}) } };
        }
      } catch {
        // a corrupt entry is dropped, not fatal
      }
      if (this.data.settings.remember) this.key = st.getItem(KEY_STORE) || "";
    }
  }

  get(name) {
    return this.data[name];
  }

  /** set merges patch into the state, saves it and dispatches "change" with detail.keys. */
  set(patch) {
    Object.assign(this.data, patch);
    this.save();
    this.dispatchEvent(new CustomEvent("change", { detail: { keys: Object.keys(patch) } }));
  }

  /**
   * update replaces the value of key with fn(current value), saves it and dispatches "change" with
   * detail.keys [key]; it returns the new value. fn gets the current value and must not change it
   * in place: it returns a new one (a view that kept the old value still sees the old value).
   * @template T
   * @param {string} key
   * @param {(current: T) => T} fn
   * @returns {T}
   */
  update(key, fn) {
    const next = fn(this.data[key]);
    this.set({ [key]: next });
    return next;
  }

  /** setSettings merges patch into settings. */
  setSettings(patch) {
    this.set({ settings: { ...this.data.settings, ...patch } });
  }

  /** setKey keeps the key in memory, and on this device only when remember is ticked. */
  setKey(key) {
    this.key = key;
    this.saveKey();
    this.dispatchEvent(new CustomEvent("change", { detail: { keys: ["key"] } }));
  }

  saveKey() {
    const st = storage();
    if (!st) return;
    if (this.data.settings.remember && this.key) st.setItem(KEY_STORE, this.key);
    else st.removeItem(KEY_STORE);
  }

  save() {
    const st = storage();
    if (!st) return;
    try {
      st.setItem(STORE, JSON.stringify(this.data));
    } catch {
      // quota exceeded: keep working in memory
    }
    this.saveKey();
  }

  /** endpoint returns where calls go: {mode, baseURL, direct, label}. */
  endpoint() {
    const s = this.data.settings;
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
