// specrules.js: the rules a custom evaluator's definition is held to that the page's editor needs
// too (speccheck.js checks a definition with them; custom/ offers what they accept): the kinds a
// built-in reader takes, when two verdict values are one, what a label may be, a json path's
// grammar.

/** isObject tells a JSON object from the other values (null and lists are not objects). */
export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** q quotes s as JSON does, for messages. */
export const q = (s) => JSON.stringify(String(s));

/**
 * builtinKinds are the kinds a built-in reader takes for its input `own`: the built-in's own
 * kind, and "list" (of texts) for its lists of claims or evidence, which its reader reads as
 * texts (claims numbered c1, c2, …; evidence without titles).
 * @param {{kind: string}} own @returns {string[]}
 */
export function builtinKinds(own) {
  return own.kind === "claims" || own.kind === "evidence" ? [own.kind, "list"] : [own.kind];
}

/**
 * sameValue says whether two pass or fail values are one verdict as the core's json reader
 * compares them (core/judge/customspec.go sameVerdict): texts in any case once trimmed, and
 * numbers, booleans (1 and 0) and texts spelling either by their number.
 * @param {unknown} a @param {unknown} b @returns {boolean}
 */
export function sameValue(a, b) {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  if (typeof a === "string" && typeof b === "string" && a.trim().toLowerCase() === b.trim().toLowerCase()) return true;
  const num = (/** @type {unknown} */ v) => {
    if (typeof v === "boolean") return v ? 1 : 0;
    if (typeof v === "number") return v;
    if (typeof v !== "string") return NaN;
    const t = v.trim().toLowerCase();
    return t === "true" ? 1 : t === "false" ? 0 : /^[+-]?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : NaN;
  };
  const x = num(a);
  return !Number.isNaN(x) && x === num(b);
}

/** normLabel is a label as the core's word rule matches it: lower case, single spaces. */
export function normLabel(s) {
  return s.trim().split(/\s+/).join(" ").toLowerCase();
}

/**
 * badLabel says what makes s unusable as a label or a score's label, or "": the yes/no rule splits
 * verdict lines at . ! ? ; , and reads a label after "Verdict:", so a label holds none of those
 * nor a line end, and starts and ends with a letter or a digit.
 */
export function badLabel(s) {
  if (/[.!?;,:\n\r]/.test(s)) return "holds one of . ! ? ; , : or a line end, which end a verdict";
  if (!/^[\p{L}\p{N}](.*[\p{L}\p{N}])?$/su.test(s)) return "must start and end with a letter or a digit";
  return "";
}

/**
 * pathProblem says what is wrong with a json reader's path, or null (the core's pickPath reads
 * the same grammar): "$" then steps, the first a key: ".key", "[n]", "[*]" (at most one).
 * @param {string} p
 * @returns {{off: number, msg: string}|null}
 */
export function pathProblem(p) {
  if (p[0] !== "$") return { off: 0, msg: 'a path starts with "$" then ".key" steps: "$.verdict"' };
  let i = 1, first = true, wild = false;
  while (i < p.length) {
    const m = /^\.([A-Za-z0-9_-]*)|^\[([^\]]*)(\]?)/.exec(p.slice(i));
    if (!m) return { off: i, msg: `unexpected ${q(p[i])}: steps are .key, [n] or [*]` };
    if (m[0][0] === ".") {
      if (!m[1]) return { off: i, msg: "a key after '.' is letters, digits, '_' or '-'" };
      first = false;
    } else {
      if (!m[3]) return { off: i, msg: "'[' is not closed by ']'" };
      if (first) return { off: i, msg: 'the first step is a key: "$.items[*]", not "$[*]"' };
      if (m[2] === "*" && wild) return { off: i, msg: "at most one [*] in a path" };
      if (m[2] !== "*" && !/^\d+$/.test(m[2])) return { off: i + 1, msg: "between [ and ] goes * or an index from 0" };
      wild ||= m[2] === "*";
    }
    i += m[0].length;
  }
  return first ? { off: p.length, msg: '"$" alone is the whole object: name a key, "$.verdict"' } : null;
}
