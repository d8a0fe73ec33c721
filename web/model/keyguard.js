// keyguard.js: whether a call would go out without the key its endpoint needs. A call without a
// key to a hosted provider is refused, and a run resumed after a reload (the key is kept in
// memory only, unless remembered) would send its whole look-ahead of calls that way: the run
// waits for the key instead (batch/scheduler.js keyMissing, batch/runcontroller.js). A key is needed unless the dev server
// has its own (OPENAI_API_KEY), or the endpoint is on this machine or the local network (Ollama,
// llama.cpp, LM Studio, vLLM are run without one). One that wants a key all the same answers the
// first call 401, which says no key was sent (callerror.js), and the run waits as for a refused key.

/**
 * localHost tells whether a host (with or without a port) is this machine or the local network:
 * loopback, private and link-local addresses, localhost and *.localhost, *.local (mDNS),
 * *.internal (host.docker.internal) and a name without a dot (a Docker Compose service, a LAN
 * machine).
 * @param {string} host
 * @returns {boolean}
 */
export function localHost(host) {
  let h = String(host || "")
    .trim()
    .toLowerCase();
  const bracket = /^\[([^\]]*)\](?::\d+)?$/.exec(h);
  if (bracket) h = bracket[1];
  else if (/^[^:]+:\d+$/.test(h)) h = h.replace(/:\d+$/, "");
  h = h.replace(/\.$/, "");
  if (!h) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (h.includes(":")) {
    // IPv6: loopback, unique local (fc00::/7), link-local (fe80::/10), IPv4-mapped private.
    if (h === "::1" || h === "::") return true;
    if (/^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    return !!mapped && localHost(mapped[1]);
  }
  if (h === "localhost" || /\.(localhost|local|internal)$/.test(h)) return true;
  return !h.includes(".");
}

/**
 * hostOfURL is the host of an absolute URL, or "".
 * @param {string} url
 */
export function hostOfURL(url) {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/**
 * keyNeeded tells whether the page's calls need a key of their own, from where they go
 * (state.endpoint()) and what the dev server says of itself (state.config): none for manual
 * mode, a dev server with OPENAI_API_KEY, or an upstream or direct endpoint on a local host; none
 * either for a shared dev server whose token this page lacks (its calls are refused before they
 * reach the upstream, with a message that says the token is what is missing).
 * @param {{endpoint(): {mode: string, baseURL?: string}, config: any}} state
 * @returns {boolean}
 */
export function keyNeeded(state) {
  const ep = state.endpoint();
  if (ep.mode === "manual") return false;
  if (ep.mode === "proxy") {
    const cfg = state.config;
    if (!cfg) return true;
    if (cfg.server_key || cfg.token === "required") return false;
    return !localHost(cfg.upstream_host || hostOfURL(cfg.upstream || ""));
  }
  return !localHost(hostOfURL(ep.baseURL || ""));
}

/**
 * keyMissing tells whether a call now would go without the key its endpoint needs.
 * @param {{endpoint(): {mode: string, baseURL?: string}, config: any, key: string}} state
 */
export function keyMissing(state) {
  return !state.key && keyNeeded(state);
}
