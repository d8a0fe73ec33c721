// format.test.mjs: web/lib/format.js's groupDigits writes counts as toLocaleString("en-US") does,
// without Intl (whose first use costs a cold page 12-38 ms); pct writes shares as the trust panels
// (one decimal) and the check-up (whole percentages) always wrote them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { groupDigits, pct } from "../../web/lib/format.js";

test("groupDigits groups thousands as English does", () => {
  const cases = [0, 7, 99, 999, 1000, 1001, 12345, 99999, 100000, 123456, 1234567, 10000000, 2 ** 31, Number.MAX_SAFE_INTEGER];
  for (let n = 0; n < 3000; n += 37) cases.push(n);
  for (const n of cases) assert.equal(groupDigits(n), n.toLocaleString("en-US"), String(n));
});

test("pct: one decimal by default, whole percentages with 0 digits, a dash for no share", () => {
  for (let i = 0; i <= 2000; i++) {
    const x = i / 2000;
    assert.equal(pct(x), Math.round(x * 1000) / 10 + "%", String(x));
    assert.equal(pct(x, 0), Math.round(x * 100) + "%", String(x));
  }
  assert.equal(pct(0.875), "87.5%");
  assert.equal(pct(0.856, 0), "86%");
  for (const none of [null, undefined, NaN, Infinity]) {
    assert.equal(pct(/** @type {any} */ (none)), "–");
    assert.equal(pct(/** @type {any} */ (none), 0), "–");
  }
});
