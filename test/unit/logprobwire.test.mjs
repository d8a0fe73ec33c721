// logprobwire.test.mjs: parse's logprobs are made lighter to send (redundant bytes and keys the
// core does not read left out) without changing what the core makes of them.
import { test } from "node:test";
import assert from "node:assert/strict";

import { slimParseOptions } from "../../web/api/logprobwire.js";

const enc = (s) => [...new TextEncoder().encode(s)];

test("bytes equal to the text's UTF-8 and unread keys are left out; others kept", () => {
  const split = { token: "bytes:\\xe2\\x80", logprob: -0.2, bytes: [226, 128], id: 3, top_logprobs: [{ token: "\u201c", logprob: -0.2, bytes: enc("\u201c"), id: 4 }] };
  const opts = {
    logprobs: {
      content: [
        { token: " Yes", logprob: -0.1, bytes: enc(" Yes"), id: 9, top_logprobs: [{ token: " Yes", logprob: -0.1, bytes: enc(" Yes") }, { token: " No", logprob: -2, bytes: [32, 78, 300] }] },
        split,
        { token: "x", logprob: -1, bytes: null, top_logprobs: null },
      ],
      refusal: null,
    },
  };
  assert.deepEqual(slimParseOptions(opts), {
    logprobs: [
      { token: " Yes", logprob: -0.1, top_logprobs: [{ token: " Yes", logprob: -0.1 }, { token: " No", logprob: -2, bytes: [32, 78, 300] }] },
      { token: "bytes:\\xe2\\x80", logprob: -0.2, bytes: [226, 128], top_logprobs: [{ token: "\u201c", logprob: -0.2 }] },
      { token: "x", logprob: -1, top_logprobs: null },
    ],
  });
  assert.equal(opts.logprobs.content[0].id, 9, "the caller's logprobs are not changed");
});

test("what is not a list of plain tokens goes as it is", () => {
  for (const opts of [undefined, null, {}, { logprobs: null }, { logprobs: "Yes" }, { logprobs: { tokens: [] } }, []]) {
    assert.equal(slimParseOptions(opts), opts);
  }
  const odd = [1, null, { token: 7, logprob: -1, bytes: [55] }, new Map(), { toJSON: () => ({}) }];
  assert.deepEqual(slimParseOptions({ logprobs: odd }).logprobs, odd);
  const throwing = { get logprobs() { throw new Error("no"); } };
  assert.equal(slimParseOptions(throwing), throwing, "a getter that throws: left for the wire to report");
});
