// Tests of what a run's setup says before anything is spent: the setup line (web/batch/setupline.js)
// with the request a run set up now would make (plannedRequest), and the model the
// settings fall back to when the endpoint does not list the default (web/shell/modelpick.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setupLine, plannedRequest } from "../../web/batch/setupline.js";
import { pickModel, modelChosen, modelsText, answersChat, askingModels, modelsSettled } from "../../web/shell/modelpick.js";

const settings = { model: "gpt-4o-mini", temperature: 0, maxTokens: 2048 };

test("the setup line says rows × repeats = calls, the model, the temperature and the token cap the run will send", () => {
  const plan = plannedRequest(settings, { repeats: 3, temperature: "0.7" });
  assert.deepEqual(plan, { model: "gpt-4o-mini", params: { temperature: 0.7, max_tokens: 2048 }, repeats: 3 });
  assert.equal(setupLine({ rows: 100, plan }), "100 rows × 3 repeats = 300 calls · gpt-4o-mini · temperature 0.7 · max tokens 2,048");
  // One call a row, the model settings' temperature, the cache bypassed: each said.
  const one = plannedRequest({ ...settings, temperature: 0.2 }, { repeats: 1, temperature: "" });
  assert.equal(setupLine({ rows: 1, plan: one, cache: false }), "1 call, one per row · gpt-4o-mini · temperature 0.2 · max tokens 2,048 · cache off");
  // A batch file counts requests; a reasoning model gets no temperature and its own token field.
  const o3 = plannedRequest({ model: "o3-mini", temperature: 0.5, maxTokens: 4000 }, { repeats: 2, temperature: "1" });
  assert.deepEqual(o3.params, { max_completion_tokens: 4000 });
  assert.equal(setupLine({ rows: 1500, plan: o3, unit: "request" }), "1,500 rows × 2 repeats = 3,000 requests · o3-mini · the model's own temperature · max tokens 4,000");
  assert.equal(setupLine({ rows: 2, plan: plannedRequest({ model: "m", maxTokens: "" }, {}) }), "2 calls, one per row · m · temperature 0 · no cap on answer tokens");
  assert.equal(plannedRequest({ model: "  " }, {}), null, "no model, no plan");
});

test("the default model is one the endpoint lists; a model the user typed is kept and flagged; 1 model reads as English", () => {
  assert.equal(modelsText(1), "1 model");
  assert.equal(modelsText(0), "0 models");
  assert.equal(modelsText(12), "12 models");
  // Ollama's list: the default is not there; the first model that answers chat takes its place.
  const ollama = pickModel({ listed: ["nomic-embed-text:latest", "qwen2.5:7b"], model: "gpt-4o-mini", chosen: false });
  assert.equal(ollama.model, "qwen2.5:7b");
  assert.equal(ollama.replaced, true);
  assert.match(ollama.note, /gpt-4o-mini is not offered here, so the model is qwen2.5:7b/);
  // vLLM serves one model.
  assert.equal(pickModel({ listed: ["Qwen/Qwen2.5-7B-Instruct"], model: "gpt-4o-mini", chosen: false }).model, "Qwen/Qwen2.5-7B-Instruct");
  // OpenAI lists the default: nothing changes, nothing is said.
  assert.deepEqual(pickModel({ listed: ["dall-e-3", "gpt-4o", "gpt-4o-mini"], model: "gpt-4o-mini", chosen: false }), { model: "gpt-4o-mini", note: "", replaced: false });
  // A typical Ollama (finding 4): its embedding models by their families, whatever the order; the
  // endpoint's own order, not the sorted one, decides among the chat models.
  assert.equal(pickModel({ listed: ["all-minilm:latest", "bge-m3:latest", "llama3.1:latest"], model: "gpt-4o-mini", chosen: false }).model, "llama3.1:latest");
  for (const name of ["mxbai-embed-large", "snowflake-arctic-embed:335m", "paraphrase-multilingual", "sentence-transformers/all-mpnet-base-v2", "BAAI/bge-large-en-v1.5", "intfloat/multilingual-e5-large", "thenlper/gte-base", "granite-embedding:30m", "colbert-ir/colbertv2.0", "openai/clip-vit-base-patch32", "text-embedding-3-small", "whisper-1"]) {
    assert.equal(answersChat(name), false, name);
  }
  for (const name of ["llama3.1:8b", "qwen2.5:7b", "Qwen/Qwen2.5-7B-Instruct", "gpt-4o-mini", "mistral-small-latest", "gemma2:2b", "phi3:mini", "deepseek-r1:7b", "judge-mini"]) {
    assert.equal(answersChat(name), true, name);
  }
  assert.equal(pickModel({ listed: ["judge-mini", "judge-401"], model: "gpt-4o-mini", chosen: false }).model, "judge-mini");
  // What the endpoint marks as answering no chat is skipped too; with no chat model listed, none is the default.
  assert.equal(pickModel({ listed: ["m2-bert-80M", "chatty"], model: "gpt-4o-mini", chosen: false, notChat: ["m2-bert-80M"] }).model, "chatty");
  const none = pickModel({ listed: ["nomic-embed-text", "all-minilm"], model: "gpt-4o-mini", chosen: false });
  assert.deepEqual([none.model, none.replaced], ["", true]);
  assert.match(none.note, /None of the 2 models the endpoint lists answers chat/);
  // A model the user typed stays, with a warning; a list that failed (empty) changes nothing.
  const typed = pickModel({ listed: ["qwen2.5:7b"], model: "my-deployment", chosen: true });
  assert.equal(typed.model, "my-deployment");
  assert.equal(typed.replaced, false);
  assert.match(typed.note, /does not list my-deployment \(it lists 1 model\)/);
  assert.deepEqual(pickModel({ listed: [], model: "gpt-4o-mini", chosen: false }), { model: "gpt-4o-mini", note: "", replaced: false });
  // Chosen: marked when typed; settings saved before the mark count as chosen unless they hold the default.
  assert.equal(modelChosen({ model: "gpt-4o-mini" }), false);
  assert.equal(modelChosen({ model: "judge-mini" }), true);
  assert.equal(modelChosen({ model: "qwen2.5:7b", modelChosen: false }), false);
  assert.equal(modelChosen({ model: "gpt-4o-mini", modelChosen: true }), true);
});

test("judge both orders: the setup line counts each row twice; a check-up counts its cases and those judged twice", async () => {
  const { ordersOf, runSettings } = await import("../../web/batch/repeatopts.js");
  const pairwise = { view: "pairwise" };
  assert.equal(ordersOf({ bothOrders: true }, pairwise), 2);
  assert.equal(ordersOf({ bothOrders: true }, { view: "yes-no" }), 1, "only an evaluator that compares two answers");
  assert.equal(ordersOf({ bothOrders: false }, pairwise), 1);
  const rs = { request: { endpoint: "/v1", model: "m", params: { temperature: 0 } }, where: "" };
  assert.equal(runSettings(rs, { bothOrders: true }, pairwise).orders, 2, "the run's record keeps it");
  assert.equal("orders" in runSettings(rs, { bothOrders: true }, { view: "claims" }), false);

  const plan = plannedRequest(settings, { repeats: 1, temperature: "" });
  assert.equal(setupLine({ rows: 20, plan: { ...plan, orders: 2 } }), "20 rows × 2 orders = 40 calls · gpt-4o-mini · temperature 0 · max tokens 2,048");
  const three = plannedRequest(settings, { repeats: 3, temperature: "" });
  assert.equal(setupLine({ rows: 20, plan: { ...three, orders: 2 } }), "20 rows × 3 repeats × 2 orders = 120 calls · gpt-4o-mini · temperature 0 · max tokens 2,048");
  assert.equal(setupLine({ rows: 60, plan, noun: "case", doubled: 6 }), "60 cases (6 in both orders) = 66 calls · gpt-4o-mini · temperature 0 · max tokens 2,048");
  assert.equal(setupLine({ rows: 60, plan: three, noun: "case", doubled: 6 }), "60 cases (6 in both orders) × 3 repeats = 198 calls · gpt-4o-mini · temperature 0 · max tokens 2,048");
  assert.equal(setupLine({ rows: 60, plan, noun: "case" }), "60 calls, one per case · gpt-4o-mini · temperature 0 · max tokens 2,048");
  assert.equal(setupLine({ rows: 1, plan: { ...plan, orders: 2 }, noun: "case", doubled: 1 }), "1 case × 2 orders = 2 calls · gpt-4o-mini · temperature 0 · max tokens 2,048");
});

test("a run waits for the model list being asked for (finding 4)", async () => {
  let release = () => {};
  const order = [];
  askingModels(new Promise((r) => (release = r)));
  const waited = modelsSettled().then(() => order.push("run"));
  await Promise.resolve();
  order.push("list");
  release();
  await waited;
  assert.deepEqual(order, ["list", "run"]);
  await modelsSettled(); // nothing asked: at once
});
