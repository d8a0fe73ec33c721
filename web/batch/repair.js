// repair.js: the one repair request a batch row gets when the judge's answer cannot be read: what
// it asks, and the check it leaves on the verdict read from the second answer.

import { RepairCode } from "./states.js";
import { needsRepair } from "../results/status.js";

/**
 * repairPrompt is the follow-up message that shows the judge why its answer could not be read.
 * The checks' messages are for the judge to read; nothing here decides from them.
 * @param {{checks?: {severity: string, message: string}[]}} verdict
 * @returns {string}
 */
export function repairPrompt(verdict) {
  const errors = (verdict.checks || []).filter((c) => c.severity === "error").map((c) => c.message);
  return (
    "Your answer above could not be read: " +
    errors.join("; ") +
    "\nReply again with the corrected answer only, in exactly the output format the instructions above ask for, " +
    "with nothing before or after it."
  );
}

/**
 * afterRepair is the verdict read from the judge's second answer, with a check (coded) saying it
 * came from the repair request, or that the second answer could not be read either.
 * @param {{checks?: object[], [k: string]: any}} v
 */
export function afterRepair(v) {
  const check = needsRepair(v)
    ? { severity: "warning", code: RepairCode.UNREADABLE, message: "Asked once to correct its format, the judge still answered unreadably." }
    : { severity: "warning", code: RepairCode.USED, message: "The first answer could not be read; this verdict is from the judge's corrected answer." };
  return { ...v, checks: [...(v.checks || []), check] };
}
