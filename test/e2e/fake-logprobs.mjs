// fake-logprobs.mjs: the token log probabilities the fake upstream (fake-upstream.mjs) gives when
// a request asks for them (`logprobs: true`, `top_logprobs: N`), in OpenAI's shape: a list of
// {token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}, the chosen token first among
// its alternatives. The text is cut as GPT-2's pre-tokenizer cuts it (a word with the space before
// it, digits three at a time, a run of other characters, white space), so the tokens' texts
// joined are the answer, byte for byte.
//
// The numbers are made up but shaped as a judge's are: a verdict word or grade (yes, no, true,
// false, a digit, pass, fail...) is chosen at probability 0.85 with its opposite and its variants
// in case and spacing as the next alternatives; any other token at 0.97. The rest of the list is
// filler tokens of falling probability, the whole never adding up to more than 1.

const enc = new TextEncoder();

/** REASONING names OpenAI's reasoning models, which refuse logprobs: o1, o3, o4-mini, gpt-5... */
export const REASONING = /^(o\d+|gpt-5)([-.].*)?$/;

/** logprobsRefusal is OpenAI's 400 body for a request that asks a reasoning model for param. */
export const logprobsRefusal = (param) => ({
  error: {
    message: `Unsupported parameter: '${param}' is not supported with this model.`,
    type: "invalid_request_error",
    param,
    code: "unsupported_parameter",
  },
});

/** tokenize cuts text as GPT-2's pre-tokenizer does. */
export function tokenize(text) {
  return text.match(/ ?\p{L}+| ?\p{N}{1,3}| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu) ?? [];
}

// OPPOSITES are the words a judge could have written instead of the one it did.
const OPPOSITES = {
  yes: "no", no: "yes", true: "false", false: "true", pass: "fail", fail: "pass",
  grounded: "ungrounded", relevant: "irrelevant", faithful: "unfaithful", correct: "incorrect",
  1: "0", 0: "1", 2: "3", 3: "4", 4: "3", 5: "4",
};
const FILLERS = [" the", "\n", " a", ",", " I", " it", ".", " of", " is", " that", " and", " to", " in", " not", " this", " be", " as", " on", " with", " for"];

const entry = (token, p) => ({ token, logprob: Math.log(p), bytes: [...enc.encode(token)] });

/**
 * fakeLogprobs is choices[0].logprobs.content for text with `top` alternatives at each token
 * (0 to 20, as OpenAI takes).
 * @param {string} text @param {number} top
 */
export function fakeLogprobs(text, top) {
  return tokenize(text).map((token) => {
    const lead = token.match(/^\s*/)[0];
    const word = token.slice(lead.length);
    const other = OPPOSITES[word.toLowerCase()];
    const p = other ? 0.85 : 0.97;
    const alts = [[token, p]];
    if (other) {
      const cased = word[0] === word[0].toUpperCase() ? other[0].toUpperCase() + other.slice(1) : other;
      alts.push([lead + cased, 0.09]);
      const variant = word === word.toLowerCase() ? word.toUpperCase() : word.toLowerCase();
      if (variant !== word) alts.push([lead + variant, 0.02]);
    }
    let rest = 1 - alts.reduce((s, [, q]) => s + q, 0);
    for (const f of FILLERS) {
      if (alts.length >= top) break;
      if (alts.some(([t]) => t === f)) continue;
      rest /= 2;
      alts.push([f, rest]);
    }
    const e = entry(token, p);
    return { ...e, top_logprobs: alts.slice(0, top).map(([t, q]) => entry(t, q)) };
  });
}
