// sharing.js: the Evaluate view's sharing, split out of view.js so that view keeps the
// form, the prompt, the verdict and the run. Under the verdict, "Copy link" puts the evaluation
// in a link (share/codec.js) and "Download report" saves it as one HTML file (report/); both load their
// code on the first click. A page opened on such a link (#rj1.…) shows the shared inputs, answer
// and verdict without calling anything. A link's custom evaluator that the user does not have (or
// has in another version) is shown as it came, marked "from link", and kept in memory only (its
// form too) until the user saves it.

import { h, replace, copyText } from "../lib/dom.js";
import { fromInputs, toInputs } from "../lib/form.js";
import { fmtInt } from "../lib/format.js";

/** SHARE_HASH tells a share link's fragment (share/codec.js isShareFragment, without loading it). */
const SHARE_HASH = /^#rj\d+\./;

/**
 * mountShare adds the share row under the verdict and the link note over the form, and opens the
 * share link the view is drawn with (link: the page's fragment when it was opened on one, or one
 * an earlier drawing of the view had not finished opening) or one pasted later (open, called by
 * app.js, which hears the fragment change: a listener here would be dropped by a redraw before it
 * ran). note is the page's word to the next Evaluate view drawn
 * (a link's evaluator was just saved). It reads the view's state (viewstate.js) and elements,
 * and acts through the view's own actions: select an evaluator, stop a call, clear or draw the
 * form, add an evaluator to the picker, bring the verdict into view (and again once its verdict is
 * drawn, when one is to come). drawLinkNote is for the view's drawForm; start is called once the
 * view's form is drawn; dispose returns the link still being opened, for the view drawn next.
 * @param {{view: import("./viewstate.js").ViewState, els: ReturnType<typeof import("./layout.js").drawSkeleton>,
 *   engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State,
 *   registry: import("../custom/registry.js").EvaluatorRegistry|null, byID: Map<string, any>, note: import("../lib/store.js").Signal<string>, currentRender: () => any,
 *   select: (id: string) => void, stop: () => void, clearForm: () => void, drawForm: () => void, addPick: (e: any) => void,
 *   revealVerdict: (verdictToCome: boolean) => void}} o
 * @param {string} [link]
 */
export function mountShare(o, link = "") {
  const { view, engine, state, registry, byID, note } = o;
  const { root, verdictEl, desc, runStatus, answerTA } = o.els;
  const { drafts } = view;
  /** inputs are the form's inputs, as the API takes them. */
  const inputs = () => toInputs(view.ev.peek(), drafts.form(view.ev.peek()));
  /** model is the model of the last call, or "". */
  const model = () => view.lastCall.peek()?.model || "";
  const sharedHash = SHARE_HASH.test(link) ? link : "";
  /** the link being opened, until its form is drawn; opens counts them, so the last one pasted wins */
  let opening = "";
  let opens = 0;
  let disposed = false;

  const shareStatus = h("div", { class: "share-status", dataset: { ref: "share-status" }, attrs: { role: "status", "aria-live": "polite" } });
  const copyLinkBtn = h("button", { type: "button", class: "btn btn-small", dataset: { ref: "copy-link" }, text: "Copy link", on: { click: () => copyLink() } });
  const reportBtn = h("button", { type: "button", class: "btn btn-small", dataset: { ref: "download-report" }, text: "⤓ Download report", on: { click: () => downloadReport() } });
  // Why the two are not offered yet, in a quiet line beside them (not the red of a failure).
  const shareHint = h("span", { class: "hint share-hint", dataset: { ref: "share-hint" }, attrs: { "aria-live": "polite" } });
  verdictEl.after(h("div", { class: "share-row" }, h("div", { class: "btn-row" }, copyLinkBtn, reportBtn, shareHint), shareStatus));

  // A link's evaluator: where it comes from, how it stands to the user's own, and Save.
  const linkNote = h("div", { class: "link-note", dataset: { ref: "link-note" }, hidden: true });
  desc.parentElement?.after(linkNote);
  /** @type {Map<string, string>} the link evaluators' standing to the user's own ("differs", "none") */
  const linkOwn = new Map();

  /** unshareable says why this evaluation cannot be shared yet, or "". */
  function unshareable() {
    if (!engine.rj) return "The judge engine is still loading.";
    if (view.running.peek()) return "Wait for the judge's answer first.";
    // Nothing to share is not a failure: the verdict panel above says what the last Run did.
    if (!answerTA.value.trim()) return "A link and a report come with a verdict.";
    return "";
  }

  /**
   * sync offers Copy link and Download report only when there is a verdict to share: after a failed
   * call, before any answer, or while the judge answers, they are disabled and the line beside them
   * says why (the view calls it whenever it draws the verdict panel).
   */
  function sync() {
    const why = unshareable();
    copyLinkBtn.disabled = reportBtn.disabled = !!why;
    shareHint.textContent = why;
  }

  async function copyLink() {
    const why = unshareable();
    if (why) return say(why, "error");
    const { makeLink } = await import("../share/links.js");
    const link = await makeLink({ ev: view.ev.peek(), inputs: inputs(), answer: answerTA.value, model: model() });
    if (link.tooLong) {
      replace(
        shareStatus,
        h("span", { class: "msg-warning", dataset: { ref: "share-too-long" } }, `This evaluation makes a link of ${Math.ceil(link.length / 1024)} KB, longer than browsers keep (64 KB). Send the report file instead: `),
        h("button", { type: "button", class: "btn btn-small", text: "⤓ Download report", on: { click: () => downloadReport() } }),
      );
      return;
    }
    const ok = await copyText(link.url);
    replace(
      shareStatus,
      h("span", { dataset: { ref: "share-copied" } }, ok ? `Link copied (${fmtInt(link.length)} characters). ` : "Copy this link: ", "It holds the inputs and the judge's answer, never your key."),
      h("input", { class: "input mono share-url", value: link.url, readOnly: true, dataset: { ref: "share-url" }, attrs: { "aria-label": "Share link" } }),
    );
  }

  async function downloadReport() {
    const why = unshareable();
    if (why) return say(why, "error");
    say("Making the report…");
    try {
      const { singleReport, save } = await import("../report/download.js");
      const rendered = o.currentRender();
      const report = save(await singleReport({ rj: engine.rj, ev: view.ev.peek(), inputs: inputs(), answer: answerTA.value, state, prompt: rendered ? rendered.prompt : null, messages: rendered ? rendered.messages : null, model: model() }));
      say(`Report saved as ${report.name} (${Math.ceil(report.bytes / 1024)} KB): it opens in any browser, offline, and holds no key.`);
    } catch (e) {
      say("✗ The report could not be made: " + (e instanceof Error ? e.message : String(e)), "error");
    }
  }

  /** say writes a line under the share buttons. */
  function say(text, kind = "") {
    replace(shareStatus, h("span", { class: kind === "error" ? "msg-error" : "", text }));
  }

  // openShared fills the form from a share link: the evaluator, its inputs and the judge's answer,
  // whose verdict then shows as it would have for whoever shared it; nothing is called. A link that
  // cannot be read leaves an empty form and says why, never a part of it.
  async function openShared(hash) {
    const mine = ++opens;
    opening = hash;
    history.replaceState(null, "", location.pathname + location.search + "#evaluate");
    const { openLink } = await import("../share/links.js");
    const res = await openLink(hash, { byID, engine, registry });
    // Drawn again meanwhile (dispose handed the link on), or another link pasted since.
    if (disposed || mine !== opens) return;
    opening = "";
    o.stop();
    if (!res.ok) {
      o.clearForm();
      // Said beside the verdict, where the link's verdict would have been.
      replace(
        shareStatus,
        h("div", { class: "msg-error", dataset: { ref: "share-error", code: res.code } }, h("strong", { text: "✗ This share link cannot be opened: " }), res.message, h("div", { class: "detail", text: "The form is empty. Ask for the link again, or for the report file." })),
      );
      o.revealVerdict(false);
      return;
    }
    const { shared, ev: found, own } = res.value;
    if (!byID.has(found.id)) {
      byID.set(found.id, found);
      o.addPick(found);
    }
    if (found.fromLink) linkOwn.set(found.id, own);
    if (found.id !== view.ev.peek().id) o.select(found.id);
    const ev = view.ev.peek();
    drafts.setForm(ev, fromInputs(ev, shared.inputs));
    drafts.setAnswer(ev, shared.answer);
    drafts.keep();
    o.drawForm();
    runStatus.textContent = "";
    replace(
      shareStatus,
      h("span", { class: "share-opened", dataset: { ref: "share-opened" } }, `Opened from a shared link: this is the judge's answer ${shared.model ? "from " + shared.model + " " : ""}as it was shared, and its verdict; nothing was called. `, "Press Run to ask your own model."),
    );
    // What the link was sent for is its verdict: on the first screen, a phone's too.
    o.revealVerdict(true);
  }

  // drawLinkNote says, over the form of a link's evaluator, that it came with a link and is not
  // saved (and, when the user has one of the same id, that theirs differs), with Save.
  function drawLinkNote() {
    const ev = view.ev.peek();
    linkNote.hidden = !ev.fromLink;
    if (!ev.fromLink) return replace(linkNote);
    const differs = linkOwn.get(ev.id) === "differs";
    replace(
      linkNote,
      h(
        "p",
        { dataset: { ref: "link-note-text" } },
        h("strong", { text: "From a shared link. " }),
        `"${ev.title}" (${ev.linkOf}) came with the link and judges as it did for the sender. It is not saved in this browser: save it to keep it and run it on datasets.`,
      ),
      differs ? h("p", { class: "msg-warning", dataset: { ref: "link-differs" }, text: `⚠ Your own evaluator "${ev.linkOf}" has a different definition: the verdict here is read with the link's.` }) : null,
      h("div", { class: "btn-row" }, h("button", { type: "button", class: "btn btn-small", dataset: { ref: "link-save" }, text: "Save to My evaluators", on: { click: () => saveLinkEvaluator() } })),
    );
  }

  async function saveLinkEvaluator() {
    const linked = view.ev.peek();
    if (!registry || !linked.fromLink) return;
    const sample = { inputs: inputs(), answer: answerTA.value };
    const raw = structuredClone(drafts.form(linked));
    const { saveLinked } = await import("../share/links.js");
    try {
      const id = await saveLinked(registry, linked, sample, (id) => {
        // Shown next with the link's evaluation: the page draws Evaluate again with the new evaluator.
        state.set({ forms: { ...state.get("forms"), [id]: raw }, answers: { ...state.get("answers"), [id]: sample.answer }, evaluator: id });
        note.value = id === linked.linkOf ? `Saved to My evaluators as "${id}".` : `Saved to My evaluators as "${id}" (you have an evaluator "${linked.linkOf}").`;
      });
      if (!note.peek()) return; // the view drawn again with it has said so
      note.value = "";
      say(`Saved to My evaluators as "${id}".`);
    } catch (e) {
      note.value = "";
      // The registry draws Evaluate again as it saves: said in the view shown now.
      const status = root.querySelector('[data-ref="share-status"]') || shareStatus;
      replace(status, h("span", { class: "msg-error", text: "✗ The evaluator could not be saved in this browser: " + (e instanceof Error ? e.message : String(e)) }));
    }
  }

  // start says what the view drawn before this one left to say, and opens the page's link.
  function start() {
    if (note.peek()) {
      replace(shareStatus, h("span", { dataset: { ref: "link-saved" }, text: note.peek() }));
      note.value = "";
    }
    if (sharedHash) openShared(sharedHash);
  }

  /** open opens a share link pasted into the tab (only its fragment changed). @param {string} hash */
  function open(hash) {
    if (SHARE_HASH.test(hash)) openShared(hash);
  }

  function dispose() {
    disposed = true;
    return opening;
  }

  return { drawLinkNote, start, open, dispose, sync };
}
