// format.test.mjs: web/lib/format.js's groupDigits writes counts as toLocaleString("en-US") does,
// without Intl (whose first use costs a cold page 12-38 ms).
import { test } from "node:test";
import assert from "node:assert/strict";
import { groupDigits } from "../../web/lib/format.js";

test("groupDigits groups thousands as English does", () => {
  const cases = [0, 7, 99, 999, 1000, 1001, 12345, 99999, 100000, 123456, 1234567, 10000000, 2 ** 31, Number.MAX_SAFE_INTEGER];
  for (let n = 0; n < 3000; n += 37) cases.push(n);
  for (const n of cases) assert.equal(groupDigits(n), n.toLocaleString("en-US"), String(n));
});
