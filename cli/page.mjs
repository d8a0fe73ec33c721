// page.mjs: everything the command line takes from the page, in one place. The CLI judges with the
// page's own modules (the JS API, the batch engine, the request builder and answer reader, the
// dataset reading and mapping, the JSONL export, the batch-file import, the HTML report, the
// check-up's cases, grading and words), never a second implementation of them; when the page's
// files move, this is the one file to edit.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
export { load } from "../web/ragjudge.js";
export { Runner, MAX_REPEATS } from "../web/batch/scheduler.js";
export { RunState, redoOnResume } from "../web/batch/states.js";
export { judgeOf, runnerFor } from "../web/batch/buildrunner.js";
export { LiveRows } from "../web/batch/live.js";
export { judgeOnce } from "../web/batch/judging.js";
export { judgeOrders } from "../web/batch/orders.js";
export { renderRow, newRowResult } from "../web/batch/rowresult.js";
export { detectMatches, matchLabel, prepareItems } from "../web/batch/mapping.js";
export { checkRows } from "../web/batch/preview.js";
export { todoIndices, newRunId, newRun } from "../web/batch/runrecords.js";
export { MemoryStore } from "../web/batch/memorystore.js";
export { canonicalJSON } from "../web/batch/cache.js";
export { exportRecord, ownName, toJSONL, mergeExtra } from "../web/batch/export.js";
export { sourceColumns, idColumn } from "../web/results/columns.js";
export { repeatCount } from "../web/stats/repeatexport.js";
export { runCounts } from "../web/results/counts.js";
export { statusOf, causeOf } from "../web/results/status.js";
export { progressLine, rate, summaryCards } from "../web/results/summarywords.js";
export { fmtInt, fmtNum, plural, pct } from "../web/lib/format.js";
export { formatWords } from "../web/batch/words.js";
export { repeatsOf, ordersOf } from "../web/batch/repeatopts.js";
export { setupLine } from "../web/batch/setupline.js";
export { DEFAULT_POLICY } from "../web/model/llm.js";
export { CallKind, ServerCode, KeySource, httpErrorMessage, failure } from "../web/model/callerror.js";
export { modelParams } from "../web/model/modelparams.js";
export { readLabels, suggestLabelColumn, runLabel, labelSummary, yesNote, labelExportFields } from "../web/stats/labels.js";
export { agreementData, rowAgreement, kappaSentence } from "../web/stats/agreement.js";
export { buildReport } from "../web/report/build.js";
export { runReportData } from "../web/batch/runreport.js";
export { readImport, importProblem } from "../web/custom/specedit.js";
export { exportBatch, importBatch } from "../web/batch/batchfileio.js";
export { planCheckup, checkupSource, checkupRun, noCasesWhy, casesLine, seedOf, DEFAULT_ROWS, MAX_ROWS } from "../web/checkup/cases.js";
export { gradeCheckup } from "../web/checkup/grade.js";
export { legend } from "../web/checkup/chart.js";
export { checkupView, checkupExportFields, saidWords } from "../web/checkup/data.js";
export { meaning, modeRate, standing, intervalText, expectedWords } from "../web/checkup/words.js";
export { positionData, ordersExportFields, slotWords } from "../web/checkup/position.js";
export { checkupReferences } from "../web/api/checkupreferences.js";
export { JURY_RULES } from "../web/batch/juryrow.js";
export { judgeLabel } from "../web/results/jury.js";
export { juryExportFields } from "../web/stats/jury.js";

/** STYLESHEETS are the page's stylesheets a report carries (build.js pageCSS reads the same from the page's CSSOM). */
export const STYLESHEETS = [new URL("../web/style.css", import.meta.url), new URL("../web/batch/batch.css", import.meta.url), new URL("../web/checkup/checkup.css", import.meta.url)];
