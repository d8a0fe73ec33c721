import { chromium } from "playwright-core";
const [src, out, y, h, w] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] });
const p = await b.newPage({ viewport: { width: Number(w || 420), height: Number(h) } });
await p.setContent(`<body style="margin:0"><div style="position:relative;top:-${y}px"><img src="data:image/png;base64,${(await import("node:fs")).readFileSync(src).toString("base64")}"></div></body>`);
await p.screenshot({ path: out });
await b.close();
