// evaluatorlist.js: the list card of the My evaluators view (view.js): the user's evaluators, and
// new ones from scratch, from a starter or a built-in duplicated, imported from and exported to
// .json files.

import { h, replace, uid, download } from "../lib/dom.js";
import { blankSpec, copyOf, freeId, exportFile, readImport, importProblem, sampleOf, labelOf, ID_RE } from "./specedit.js";

/**
 * evaluatorList makes the list card (listCard, to be placed by the view) and its functions,
 * working on the view's shared context.
 * @param {import("./view.js").Ctx} ctx
 */
export function evaluatorList(ctx) {
  const { engine, registry } = ctx;
  const listEl = h("div", { class: "custom-list", dataset: { ref: "custom-list" } });
  const msg = h("div", { class: "custom-msg", dataset: { ref: "custom-msg" }, attrs: { role: "status", "aria-live": "polite" } });
  const newBtn = h("button", { type: "button", class: "btn btn-primary", text: "+ New evaluator", dataset: { ref: "custom-new" }, on: { click: () => ctx.create(blankSpec(takenIds())) } });
  const fromSel = h("select", { class: "input", id: uid("from"), dataset: { ref: "custom-new-from" }, on: { change: () => newFrom(fromSel.value) } });
  const fileInput = h("input", { type: "file", id: uid("imp"), class: "offscreen", tabIndex: -1, accept: ".json,application/json", dataset: { ref: "custom-import-file" }, attrs: { "aria-label": "Import evaluators from a .json file" }, on: { change: () => fileInput.files && fileInput.files[0] && importFile(fileInput.files[0]) } });
  const importBtn = h("button", { type: "button", class: "btn", text: "⇪ Import .json", dataset: { ref: "custom-import" }, on: { click: () => fileInput.click() } });
  const exportAllBtn = h("button", { type: "button", class: "btn btn-ghost", text: "⤓ Export all", dataset: { ref: "custom-export-all" }, on: { click: () => exportSpecs(registry.customs().map((r) => r.spec), "my-evaluators.json") } });
  const durableNote = registry.store?.durable ? null : h("p", { class: "msg-error", text: "This browser refuses local storage (IndexedDB): your evaluators will not survive a reload. Export them to keep them." });
  const listCard = h(
    "section",
    { class: "card custom-card" },
    h("h2", { class: "card-title", text: "My evaluators" }),
    h("p", { class: "desc", text: "Your own judge prompts, with the reader that turns the judge's answer into a verdict. They are kept in this browser and offered in Evaluate and Batch beside the built-ins." }),
    durableNote,
    h("div", { class: "btn-row custom-actions" }, newBtn, h("label", { htmlFor: fromSel.id, class: "sr-only", text: "New from a starter or a built-in" }), fromSel, importBtn, fileInput, exportAllBtn),
    msg,
    listEl,
  );

  /** @type {{file: string, title: string, description?: string, spec?: any}[]} */
  let starters = [];
  loadStarters().then((s) => {
    starters = s;
    drawFrom();
  });

  function takenIds() {
    return [...registry.builtinIds(), ...registry.customs().map((r) => r.id)];
  }

  function drawFrom() {
    const rj = /** @type {any} */ (engine.rj);
    replace(
      fromSel,
      h("option", { value: "", text: "New from…" }),
      starters.length ? h("optgroup", { attrs: { label: "Starters" } }, starters.map((s, i) => h("option", { value: "starter:" + i, text: s.title }))) : null,
      h(
        "optgroup",
        { attrs: { label: rj ? "Duplicate a built-in" : "Duplicate a built-in (when the engine has loaded)" } },
        registry.builtins.map((b) => h("option", { value: "builtin:" + b.id, text: b.title || b.id, disabled: !rj || typeof rj.spec !== "function" })),
      ),
    );
    fromSel.value = "";
  }

  async function newFrom(v) {
    fromSel.value = "";
    if (!v) return;
    try {
      if (v.startsWith("starter:")) {
        const s = starters[Number(v.slice(8))];
        const spec = s.spec || (await fetchJSON(new URL("../starters/" + s.file, import.meta.url)));
        await ctx.create(copyOf(spec, takenIds(), { suffix: "", title: spec.title }));
      } else if (v.startsWith("builtin:")) {
        const rj = /** @type {any} */ (engine.rj);
        if (!rj) return;
        // The engine names the copy already: "<id>-copy", "<title> (copy)".
        const spec = rj.spec(v.slice(8));
        await ctx.create(copyOf(spec, takenIds(), { suffix: "", title: spec.title || `${v.slice(8)} (copy)` }));
      }
    } catch (e) {
      say("✗ Could not start from it: " + ctx.errText(e), true);
    }
  }

  /** say shows text under the list's buttons: a note, or (error true, or "warning") a problem. @param {string} text @param {boolean|"warning"} [error] */
  function say(text, error = false) {
    msg.className = "custom-msg" + (text ? (error === "warning" ? " msg-warning" : error ? " msg-error" : " msg-note") : "");
    msg.textContent = text;
  }

  // The list's items, by evaluator id, kept from one drawing to the next: the list is drawn again
  // whenever an edit is saved (a moment after the typing stops), and an item made anew under a
  // press of the mouse loses that click (the press and the release land on different elements),
  // so an evaluator clicked just after an edit would not open.
  /** @type {Map<string, {li: HTMLElement, open: HTMLElement, title: HTMLElement, idEl: HTMLElement, state: HTMLElement}>} */
  const items = new Map();
  const itemsEl = h("ul", { class: "custom-items" });

  /** itemFor is evaluator id's list item, made the first time it is drawn. @param {string} id */
  function itemFor(id) {
    let it = items.get(id);
    if (!it) {
      const title = h("span", { class: "custom-title" });
      const idEl = h("span", { class: "custom-id mono", text: id });
      const open = h("button", { type: "button", class: "custom-open", dataset: { ref: "custom-open" }, on: { click: () => ctx.openEditor(id) } }, title, idEl);
      const state = h("span", { dataset: { ref: "custom-state" } });
      it = { li: h("li", { class: "custom-item", dataset: { id } }, open, state), open, title, idEl, state };
      items.set(id, it);
    }
    return it;
  }

  function drawList() {
    const recs = registry.customs();
    exportAllBtn.disabled = !recs.length;
    if (!recs.length) {
      items.clear();
      replace(listEl, h("p", { class: "hint", dataset: { ref: "custom-empty" }, text: "No evaluators of yours yet. Start one from scratch, from a starter, or by duplicating a built-in." }));
      return;
    }
    const open = ctx.cur && ctx.cur.key;
    const ids = new Set(recs.map((r) => r.id));
    for (const id of items.keys()) if (!ids.has(id)) items.delete(id);
    const lis = recs.map((r) => {
      const ok = r.ok !== false;
      const it = itemFor(r.id);
      it.li.className = "custom-item" + (r.id === open ? " is-open" : "");
      if (r.id === open) it.open.setAttribute("aria-current", "true");
      else it.open.removeAttribute("aria-current");
      it.title.textContent = r.spec.title || r.id;
      it.state.className = "custom-state " + (ok ? "is-ok" : "is-bad");
      // The engine's count of problems (rj.define's), when it refused a stored definition.
      const n = !ok && r.problems ? r.problems.length : 0;
      it.state.textContent = ok ? "✓ ready" : n ? `✗ has errors (${n})` : "✗ has errors";
      return it.li;
    });
    if (itemsEl.parentNode !== listEl) replace(listEl, itemsEl);
    // Items are put in order by moving only those out of place: the others stay where they are.
    lis.forEach((li, i) => {
      if (itemsEl.children[i] !== li) itemsEl.insertBefore(li, itemsEl.children[i] || null);
    });
    while (itemsEl.children.length > lis.length) itemsEl.lastElementChild?.remove();
  }

  // ---- import, export -------------------------------------------------------------------------
  /** @param {any[]} specs @param {string} name */
  function exportSpecs(specs, name) {
    if (!specs.length) return;
    download(name, exportFile(specs), "application/json");
  }

  /**
   * importFile reads a .json file of one or more evaluators and keeps every one of them, with its
   * example: those whose check passes are ready; one with errors is kept as one being edited is,
   * errors and all, and the first of them is opened so that it can be fixed. Only what is no
   * evaluator at all (not a JSON object, a file that is not JSON) is left out. An id that is taken
   * (a built-in's, one of yours) or not valid is replaced by a free one, which the message says.
   * @param {File} file
   */
  async function importFile(file) {
    fileInput.value = "";
    say(`Reading ${file.name}…`);
    const { specs, names, errors } = readImport(await file.text());
    if (specs.length && !(await engine.whenReady())) {
      say("✗ The judge engine did not load, so the evaluators cannot be checked: nothing was imported.", true);
      return;
    }
    const rj = /** @type {any} */ (engine.rj);
    const added = [];
    /** @type {{id: string, name: string, errors: any[]}[]} */
    const toFix = [];
    for (const [k, spec] of specs.entries()) {
      const given = typeof spec.id === "string" ? spec.id : "";
      let id = given;
      let why = "";
      if (registry.builtinIds().has(given)) (id = freeId(given + "-imported", takenIds())), (why = "a built-in's id");
      else if (!ID_RE.test(given)) (id = freeId(given || "imported-evaluator", takenIds())), (why = given ? "not a valid id" : "no id");
      else if (registry.records.has(given)) (id = freeId(given + "-imported", takenIds())), (why = "you have one by that id");
      const s = { ...spec, id };
      const res = rj.checkEvaluator(s);
      const { sample, answer } = sampleOf(s);
      await registry.save({ id, spec: s, sample, answer, ok: !!res.ok, problems: res.errors, updatedAt: Date.now() });
      const named = why ? `${given ? given + " as " : ""}${id} (${why})` : id;
      if (res.ok) added.push(named);
      else toFix.push({ id, name: `${names[k]}${why ? ` as ${id}` : ""}`, errors: res.errors });
    }
    drawList();
    if (toFix.length) ctx.openEditor(toFix[0].id);
    else if (added.length) ctx.openEditor(added[0].split(" ")[0]);
    const parts = [];
    if (added.length) parts.push(`✓ Imported ${added.join(", ")}.`);
    // The one opened lists its problems in the editor; the others' are said here.
    const count = (/** @type {any[]} */ e) => `${e.length} error${e.length === 1 ? "" : "s"}`;
    if (toFix.length) parts.push(`✗ Imported with errors, to fix: ${toFix.map((x, k) => (k ? importProblem(x.name, x.errors) : `${x.name}: ${count(x.errors)}, open below.`)).join(" ")}`);
    if (!added.length && !toFix.length) parts.push("✗ Nothing was imported.");
    if (errors.length) parts.push("Not imported: " + errors.join(" "));
    say(parts.join(" "), !added.length && !toFix.length ? true : toFix.length || errors.length ? "warning" : false);
  }

  return { listCard, drawFrom, drawList, say, takenIds, exportSpecs };
}

/**
 * loadStarters reads custom/starters.json: the starter evaluators (web/starters/) the "New from…"
 * menu offers, in its order, with the titles it shows them by.
 * @returns {Promise<{file: string, title: string, description?: string, spec?: any}[]>}
 */
async function loadStarters() {
  try {
    const list = await fetchJSON(new URL("./starters.json", import.meta.url));
    if (!Array.isArray(list)) return [];
    return list
      .map((e) => (typeof e === "string" ? { file: e, title: labelOf(e.replace(/\.json$/, "")) } : e && typeof e.file === "string" ? { file: e.file, title: e.title || labelOf(e.file.replace(/\.json$/, "")), description: e.description } : null))
      .filter((e) => e !== null);
  } catch {
    return [];
  }
}

/** @param {URL} url */
async function fetchJSON(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: ${res.status} ${res.statusText}`);
  return res.json();
}
