// registry.js: every evaluator the page offers, the built-ins and the user's own, in one list the
// views draw their pickers from. The user's are read from this browser's storage (evaluatorstore.js) as the
// page starts, while the page draws the built-ins (start: the first paint does not wait for
// IndexedDB), are added to what is drawn when they are in, before the engine is ready, and are
// defined in the engine (rj.define) the moment it is. The views are told through signals
// (lib/store.js): `listed` when the list they show changes (an evaluator added, removed, renamed,
// its inputs changed, or it became usable or not; an edit of a prompt alone changes no list, the
// engine renders the new one at the next call), `revised(id)` when evaluator id's description
// changed, and `asked` when a view asks the page to open one in Evaluate.
//
// A description object keeps its identity while its evaluator is edited (its fields are replaced
// in place), so a view holding it sees the new title, inputs and words without being redrawn.

import { openCustomStore, MemoryStore } from "./evaluatorstore.js";
import { describe, hasExampleIn } from "./specedit.js";
import { signal } from "../lib/store.js";
import { sameJudging } from "./specsame.js";

/** @typedef {import("./evaluatorstore.js").EvaluatorRecord & {ok?: boolean, error?: any, problems?: any[]}} Rec */

/**
 * errorCheck turns what rj.define threw into a check ({severity, code, message, path, line, col}).
 * @param {any} e @returns {any}
 */
export function errorCheck(e) {
  return {
    severity: "error",
    code: (e && e.code) || "evaluator.invalid",
    message: (e && (e.detail || e.message)) || String(e),
    path: (e && e.path) || "",
    line: (e && e.line) || 0,
    col: (e && e.col) || 0,
    len: (e && e.len) || 0,
  };
}

export class EvaluatorRegistry {
  /**
   * @param {any[]} builtins the built-ins' descriptions (evaluators.json or rj.evaluators())
   * @param {import("./evaluatorstore.js").CustomStore|MemoryStore|null} store null while start reads it
   * @param {Rec[]} records
   */
  constructor(builtins, store, records) {
    this.builtins = builtins;
    /** @type {import("./evaluatorstore.js").CustomStore|MemoryStore|null} null until start has opened it */
    this.store = store;
    /** @type {Promise<void>} resolves once the stored evaluators are in (see start) */
    this.loaded = Promise.resolve();
    /** @type {Map<string, Rec>} */
    this.records = new Map(records.map((r) => [r.id, r]));
    /** @type {Map<string, any>} id → description, identity kept across edits */
    this.descs = new Map();
    /** @type {any} the engine once ready */
    this.rj = null;
    /** @type {Map<string, any>} evaluators opened from share links (forLink), by their temporary id: in memory only */
    this.linked = new Map();
    for (const r of records) this.descs.set(r.id, describe(r.spec, { example: exampleOf(r) }));
    this.sig = this.signature();
    /** the signature (signature()) of the list the views were last told of: an effect that reads it draws its list again when it changes */
    this.listed = signal(this.sig);
    /** @type {Map<string, import("../lib/store.js").Signal<number>>} by id: bumped when the description changes in place (revised) */
    this.revisions = new Map();
    /** @type {import("../lib/store.js").Signal<{id: string} | null>} the evaluator a view last asked the page to open in Evaluate (use) */
    this.asked = signal(/** @type {{id: string} | null} */ (null));
  }

  /**
   * open reads the stored evaluators; a storage that cannot be read leaves the list to the
   * built-ins (and a memory store, which the My evaluators view says forgets).
   * @param {any[]} builtins @param {{idb?: IDBFactory}} [opts]
   */
  static async open(builtins, { idb } = {}) {
    const reg = EvaluatorRegistry.start(builtins, { idb });
    await reg.loaded;
    return reg;
  }

  /**
   * start is open without the wait: the registry at once, listing the built-ins only, and the
   * stored evaluators read meanwhile. `loaded` resolves once they are in (all() lists them then);
   * `listed` does not change for them, so that the page decides how to show them (app.js adds
   * them to the picker it has drawn rather than drawing it again). save and remove wait for it.
   * @param {any[]} builtins @param {{idb?: IDBFactory}} [opts]
   */
  static start(builtins, { idb } = {}) {
    const reg = new EvaluatorRegistry(builtins, null, []);
    reg.loaded = (async () => {
      let store;
      let records = [];
      try {
        store = await openCustomStore(idb);
        records = await store.list();
      } catch {
        store = new MemoryStore();
      }
      reg.adopt(store, records);
    })();
    return reg;
  }

  /**
   * adopt takes the stored evaluators read by start, quietly (see start).
   * @param {import("./evaluatorstore.js").CustomStore|MemoryStore} store @param {Rec[]} records
   */
  adopt(store, records) {
    this.store = store;
    for (const r of records) {
      if (this.records.has(r.id)) continue; // made or saved here meanwhile: the newer
      this.records.set(r.id, r);
      this.descs.set(r.id, describe(r.spec, { example: exampleOf(r) }));
      if (this.rj) this.define(r);
    }
    this.sig = this.signature();
  }

  /**
   * setBuiltins sets the built-ins' descriptions (the page reads them while the store is read).
   * @param {any[]} builtins
   */
  setBuiltins(builtins) {
    this.builtins = builtins;
    this.sig = this.signature();
  }

  /** builtinIds are the built-ins' ids, which a custom evaluator may not take. */
  builtinIds() {
    return new Set(this.builtins.map((b) => b.id));
  }

  /** takenIds are the ids a new evaluator may not take: the built-ins', the user's (usable or not), and the share links' temporary ones. */
  takenIds() {
    return new Set([...this.builtinIds(), ...this.records.keys(), ...this.linked.keys()]);
  }

  /** @returns {Rec[]} the user's evaluators, in the order they were made */
  customs() {
    return [...this.records.values()].sort((a, b) => (a.createdAt ?? a.updatedAt) - (b.createdAt ?? b.updatedAt) || a.id.localeCompare(b.id));
  }

  /**
   * usable says whether evaluator id can be offered in Evaluate and Batch: defined in the engine
   * once it is ready; before that, as it was when last saved.
   * @param {Rec} r
   */
  usable(r) {
    return r.ok !== false;
  }

  /** all lists the built-ins, then the user's usable evaluators (their descriptions). */
  all() {
    return [...this.builtins, ...this.customs().filter((r) => this.usable(r)).map((r) => this.descs.get(r.id))];
  }

  /** get is evaluator id's description, built-in or custom (usable or not). @param {string} id */
  get(id) {
    return this.builtins.find((b) => b.id === id) || this.descs.get(id);
  }

  /** signature is what the views' pickers and forms are drawn from: ids, titles, inputs. */
  signature() {
    return JSON.stringify(this.all().map((e) => [e.id, e.title, (e.inputs || []).map((/** @type {any} */ i) => [i.name, i.label, i.kind, !!i.required])]));
  }

  /** changed tells the views (listed) when what they list differs from what they drew. */
  changed() {
    const sig = this.signature();
    if (sig === this.sig) return;
    this.sig = sig;
    this.listed.value = sig;
  }

  /**
   * revised is the signal bumped when evaluator id's description changes in place (its example,
   * its words): a view that shows it reads it in an effect.
   * @param {string} id
   */
  revised(id) {
    let r = this.revisions.get(id);
    if (!r) this.revisions.set(id, (r = signal(0)));
    return r;
  }

  /**
   * attach defines every stored evaluator in rj (the engine, now ready), notes those that no
   * longer define (an engine of another version may refuse them) and tells the views.
   * @param {any} rj
   */
  attach(rj) {
    this.rj = rj;
    for (const r of this.records.values()) this.define(r);
    this.changed();
  }

  /**
   * define hands r's spec to the engine and refreshes its description from the engine's entry;
   * r.ok and r.error say how it went. Without the engine, nothing happens.
   * @param {Rec} r
   */
  define(r) {
    if (!this.rj) return;
    try {
      this.rj.define(r.spec);
      r.ok = true;
      r.error = null;
      r.problems = [];
    } catch (e) {
      r.ok = false;
      r.error = errorCheck(e);
      // Every problem the engine found (rj.define's RagJudgeError), for the list to count.
      r.problems = Array.isArray(/** @type {any} */ (e)?.problems) ? /** @type {any} */ (e).problems : [r.error];
      try {
        this.rj.undefine(r.spec.id);
      } catch {
        // never defined
      }
    }
    this.refresh(r);
  }

  /** refresh replaces r's description's fields, in place, from its spec and the engine's entry. @param {Rec} r */
  refresh(r) {
    const fresh = describe(r.spec, { example: exampleOf(r) });
    if (this.rj && r.ok) {
      const entry = safe(() => this.rj.evaluators().find((/** @type {any} */ e) => e.id === r.id));
      if (entry) Object.assign(fresh, entry, { custom: true, spec: r.spec, example: fresh.example || entry.example, order: entry.order ?? fresh.order });
    }
    const d = this.descs.get(r.id);
    if (d) {
      for (const k of Object.keys(d)) delete d[k];
      Object.assign(d, fresh);
    } else this.descs.set(r.id, fresh);
    // A description changed in place (its example, its words) is no change of the lists: the
    // views that show it draw it again.
    const revised = this.revised(r.id);
    revised.value = revised.peek() + 1;
  }

  /**
   * save stores rec (its spec as the user left it, errors and all), defines it in the engine when
   * its check passed (ok) or takes it out of the engine when not, and tells the views when their
   * lists change. With oldId, the evaluator was renamed: the old id goes.
   * @param {Rec} rec @param {{oldId?: string}} [opts]
   */
  async save(rec, { oldId } = {}) {
    if (!this.store) await this.loaded;
    const prev = this.records.get(oldId || rec.id);
    rec.createdAt = (prev && prev.createdAt) || rec.createdAt || Date.now();
    rec.updatedAt = Date.now();
    if (oldId && oldId !== rec.id) {
      this.records.delete(oldId);
      this.descs.delete(oldId);
      if (this.rj) safe(() => this.rj.undefine(oldId));
    }
    this.records.set(rec.id, rec);
    if (rec.ok === false) {
      if (this.rj) safe(() => this.rj.undefine(rec.id));
      this.refresh(rec);
    } else this.define(rec);
    this.changed();
    const stored = { id: rec.id, spec: rec.spec, sample: rec.sample, answer: rec.answer, ok: rec.ok, createdAt: rec.createdAt, updatedAt: rec.updatedAt };
    const store = /** @type {import("./evaluatorstore.js").CustomStore|MemoryStore} */ (this.store);
    if (oldId && oldId !== rec.id) await store.rename(oldId, stored);
    else await store.put(stored);
  }

  /** use asks the page to open evaluator id in Evaluate (app.js reads asked). @param {string} id */
  use(id) {
    this.asked.value = { id };
  }

  /** remove deletes evaluator id from this browser and from the engine. @param {string} id */
  async remove(id) {
    if (!this.store) await this.loaded;
    this.records.delete(id);
    this.descs.delete(id);
    if (this.rj) safe(() => this.rj.undefine(id));
    this.changed();
    await /** @type {import("./evaluatorstore.js").CustomStore|MemoryStore} */ (this.store).delete(id);
  }

  /**
   * forRun is the evaluator a stored batch run is shown and resumed with. A run of a custom
   * evaluator records its full definition (run.evaluatorSpec), and is judged with that one, even
   * when the evaluator is edited while the run goes or deleted since: the recorded definition is
   * defined in the engine under the run's own id (run ids are valid evaluator ids, and unique),
   * never listed as an evaluator. state says how the evaluator stands now: "current" (judging as
   * the run recorded it: its title or example may have changed), "edited" or "deleted". A run of
   * a built-in gets the built-in.
   * @param {{id: string, evaluator: string, evaluatorSpec?: any}} run
   * @returns {any|null} a description, or null when there is none
   */
  forRun(run) {
    const current = this.get(run.evaluator);
    const spec = run.evaluatorSpec;
    if (!spec) return current || null;
    const rec = this.records.get(run.evaluator);
    // Edited: what decides its prompts or verdicts changed (specsame.js), not its title or example.
    const state = !rec ? "deleted" : sameJudging(rec.spec, spec) ? "current" : "edited";
    const snapshot = { ...spec, id: run.id };
    const d = describe(snapshot);
    const title = state === "current" ? spec.title || spec.id : `${spec.title || spec.id} (as this run used it)`;
    Object.assign(d, { title, spec, runOf: spec.id, state });
    if (this.rj) {
      try {
        this.rj.define(snapshot);
        const entry = safe(() => this.rj.evaluators().find((/** @type {any} */ e) => e.id === run.id));
        if (entry) Object.assign(d, entry, { title, custom: true, spec, runOf: spec.id, state });
      } catch (e) {
        // An engine that no longer takes the definition: the run's stored verdicts still show.
        d.defineError = errorCheck(e);
        if (state === "current" && current) return current;
      }
    }
    return d;
  }

  /**
   * forLink is the evaluator a share link's custom evaluator definition is shown and run with, when
   * the user has none with its id and definition: the definition is defined in the engine under id,
   * a temporary id free of the user's (share links pick "link-" and a hash of the definition), and
   * kept here for the page's life only. It is never stored and never listed by all() (Batch and the
   * calculator do not offer it); the Evaluate view adds it to its picker. The description keeps the
   * link's definition as it came (spec, with its own id, linkOf), so that it is shared and saved as
   * it was sent, and a draft of its own ({forms, answers}, the state's shape) that Evaluate keeps its
   * form in instead of the stored state. Throws what rj.define throws.
   * @param {any} spec a definition rj.checkEvaluator has passed
   * @param {string} id
   * @returns {any} the description
   */
  forLink(spec, id) {
    if (!this.rj) throw new Error("the judge engine is not ready");
    if (this.takenIds().has(id) && !this.linked.has(id)) throw new Error(`the id "${id}" is taken`);
    const snapshot = { ...spec, id };
    this.rj.define(snapshot);
    const title = spec.title || spec.id;
    const d = describe(snapshot);
    const entry = safe(() => this.rj.evaluators().find((/** @type {any} */ e) => e.id === id));
    Object.assign(d, entry || {}, { title, custom: true, spec, linkOf: spec.id, fromLink: true, draft: { forms: {}, answers: {} } });
    this.linked.set(id, d);
    return d;
  }

  /**
   * dropLinked forgets the share link's evaluator of temporary id id, in the engine too.
   * @param {string} id
   */
  dropLinked(id) {
    if (this.linked.delete(id) && this.rj) safe(() => this.rj.undefine(id));
  }
}

/**
 * exampleOf is the example Evaluate offers for a record: its definition's own `example`, which
 * the user sets in the editor (Save as the example), a starter, a duplicated built-in or an
 * imported file brings, and an export carries. The editor's sample inputs and pasted answer are
 * its scratch pad, never the example by themselves: an evaluator without an example has none
 * (Load example is then off).
 * @param {Rec} r
 */
export function exampleOf(r) {
  return hasExampleIn(r.spec) ? r.spec.example : undefined;
}

/** @template T @param {() => T} fn @returns {T|undefined} */
function safe(fn) {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
