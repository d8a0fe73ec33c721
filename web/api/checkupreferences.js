// checkupreferences.js holds the published figures a check-up's numbers are read by (issue 21:
// "figures to read it by"), as data a page shows beside the user's own figure, each with its
// source. Every figure is as its paper's abstract states it. It is a module of its own, not part
// of ragjudge.js, so that only the view that shows it loads it.
// They measure other things on other data than a check-up does (agreement with human labels,
// accuracy on hard benchmark pairs), so `compare` says how far each may be set beside it.

/** @typedef {import("./trusttypes.js").CheckupReference} CheckupReference */

/** @type {readonly CheckupReference[]} */
export const checkupReferences = Object.freeze(
  [
    {
      id: "mt-bench",
      name: "MT-Bench",
      figure: "over 80%",
      short: "GPT-4's agreement with people's preferences between two chat answers, as high as people agree with each other",
      value: 0.8,
      measures:
        "how often a strong judge (GPT-4) agreed with human preferences between two chat answers, on MT-Bench's expert votes " +
        "and Chatbot Arena's crowd votes: over 80%, the same level at which humans agree with each other",
      compare:
        "agreement with people on open questions, not a catch rate: beside a check-up it says that even a good judge " +
        "disagrees with people about one time in five, while a check-up's cases are built to have one right verdict, " +
        "so a good judge should catch clearly more of them",
      source: {
        authors: "Lianmin Zheng, Wei-Lin Chiang, Ying Sheng, et al.",
        title: "Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena",
        venue: "NeurIPS 2023, Datasets and Benchmarks Track",
        year: 2023,
        url: "https://arxiv.org/abs/2306.05685",
      },
    },
    {
      id: "contextualjudgebench",
      name: "ContextualJudgeBench",
      figure: "about 55%",
      short: "the best judge's consistent accuracy on 2,000 deliberately hard pairs of RAG and summary answers",
      value: 0.55,
      measures:
        "the consistent accuracy of the best judge studied (OpenAI's o1) on ContextualJudgeBench's 2,000 response pairs " +
        "from contextual settings such as retrieval-augmented generation and summarisation",
      compare:
        "judging with a context is hard even for the strongest models: a benchmark of deliberately difficult pairs, so a " +
        "check-up on your own rows, whose failures are plainer, should score higher; a catch rate near this figure means " +
        "the judge is guessing on your material",
      source: {
        authors: "Austin Xu, Srijan Bansal, Yifei Ming, Semih Yavuz, Shafiq Joty",
        title: "Does Context Matter? ContextualJudgeBench for Evaluating LLM-based Judges in Contextual Settings",
        venue: "ACL 2025 (Proceedings of the 63rd Annual Meeting of the Association for Computational Linguistics, Volume 1: Long Papers)",
        year: 2025,
        url: "https://aclanthology.org/2025.acl-long.470/",
      },
    },
    {
      id: "grouse",
      name: "GroUSE",
      figure: "7 failure modes, 144 unit tests",
      short: "failure modes of grounded answers that automated RAG evaluation frameworks missed, even with GPT-4 as their judge",
      value: null,
      measures:
        "GroUSE's unit tests of judges of grounded answers, built on seven failure modes of the answers' generator: " +
        "existing automated RAG evaluation frameworks often overlooked important failure modes, even with GPT-4 as their " +
        "judge, and a judge's correlation with GPT-4 proved an incomplete proxy for catching them",
      compare:
        "the pairwise-faithfulness check-up makes GroUSE's failure modes from your own rows: a transformation missed there " +
        "is the kind of miss GroUSE found in judges that looked good by correlation",
      source: {
        authors: "Sacha Muller, Antonio Loison, Bilel Omrani, Gautier Viaud",
        title: "GroUSE: A Benchmark to Evaluate Evaluators in Grounded Question Answering",
        venue: "COLING 2025 (Proceedings of the 31st International Conference on Computational Linguistics), pages 4510–4534; arXiv:2409.06595 (2024)",
        year: 2025,
        url: "https://aclanthology.org/2025.coling-main.304/",
      },
    },
  ].map((r) => Object.freeze({ ...r, source: Object.freeze(r.source) })),
);
