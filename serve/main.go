// Command serve is ragjudge's dev server: it serves the static page in web/ and forwards the
// page's chat completion calls to one configured OpenAI-compatible upstream, so that a browser
// can reach endpoints that refuse cross-origin calls without the key ever leaving the loopback
// path between the page, this process and that upstream.
//
//	go run ./serve [-addr 127.0.0.1:8080] [-upstream https://api.openai.com/v1] [-web web]
//
// The key is the one the page sends in Authorization, or OPENAI_API_KEY from this process's
// environment when the page sends none. It is never logged and never echoed back.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// config is everything newServer needs; parseConfig builds it from flags and the environment.
type config struct {
	// Addr is the listen address; loopback unless the user says otherwise.
	Addr string
	// Upstream is the OpenAI-compatible base URL, e.g. https://api.openai.com/v1, without a
	// trailing slash. It is the only host the proxy ever sends a request to.
	Upstream string
	// WebDir is the directory of static files served at /.
	WebDir string
	// Azure selects go-openai's Azure OpenAI settings (api-key header, deployments in the path).
	Azure bool
	// AzureAPIVersion overrides go-openai's default api-version when non-empty.
	AzureAPIVersion string
	// AzureDeployments maps model names to Azure deployment names; unmapped models use
	// go-openai's default mapping.
	AzureDeployments map[string]string
	// MaxBody caps a request body in bytes; larger bodies get 413.
	MaxBody int64
	// BodyTimeout bounds the time to receive a request's body; a slower one gets 408 and its
	// connection is closed, so that slow senders cannot hold connections open.
	BodyTimeout time.Duration
	// MaxInflight caps the upstream calls in flight at once, over HTTP and calls sockets
	// together; calls beyond it get 429 with Retry-After.
	MaxInflight int
	// MaxResponse caps an upstream answer in bytes; a larger one ends in a 502 (or, for a
	// stream under way, an error event).
	MaxResponse int64
	// Timeout bounds a plain upstream call in total, and a stream's time to its first event and
	// between events.
	Timeout time.Duration
	// ServerKey is OPENAI_API_KEY from the environment, used when the browser sends no key.
	ServerKey string
	// Token, when set, is needed by model calls and the calls socket (token.go): given with
	// -token or RAGJUDGE_TOKEN, or made at start for a server reachable beyond loopback.
	Token string
	// TokenMade says Token was made at start rather than given.
	TokenMade bool
	// Log receives the access log: method, path, status, duration, nothing else.
	Log io.Writer
}

const (
	defaultAddr     = "127.0.0.1:8080"
	defaultUpstream = "https://api.openai.com/v1"
	defaultMaxBody  = 8 << 20
	defaultTimeout  = 120 * time.Second
	// defaultBodyTimeout is ample for -max-body over a slow network, and short enough that
	// connections trickling bytes do not pile up.
	defaultBodyTimeout = 30 * time.Second
	defaultMaxInflight = 256
	defaultMaxResponse = 32 << 20
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "ragjudge:", err)
		}
		os.Exit(2)
	}
}

// run parses args, listens, prints the line the e2e tests wait for and serves until ctx ends.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	// The real address (port 0 picks one): the token's cookie is named after the port.
	cfg.Addr = ln.Addr().String()
	handler := newServer(cfg)
	if w, ok := handler.(interface{ warm() }); ok {
		go w.warm()
	}
	srv := &http.Server{
		Handler: handler,
		// No WriteTimeout: a judge's answer may stream for minutes; the upstream timeout and
		// the browser's own disconnect bound it instead.
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          log.New(stderr, "ragjudge: ", log.LstdFlags),
	}
	if c, ok := handler.(interface{ closeSockets() }); ok {
		// Shutdown does not know hijacked connections: tell each calls socket's page it is
		// going away (1001) rather than leave it to see the process die.
		srv.RegisterOnShutdown(c.closeSockets)
	}
	if !isLoopback(ln.Addr().String()) {
		fmt.Fprintf(stderr, "ragjudge: %s is reachable from other machines: model calls need the access token, in the address below\n", ln.Addr())
	}
	if _, err := os.Stat(filepath.Join(cfg.WebDir, "ragjudge.wasm")); err != nil {
		fmt.Fprintf(stderr, "ragjudge: warning: %s has no ragjudge.wasm yet; run `make build` (or `make run`)\n", cfg.WebDir)
	}
	// The one place the token is written: the address to open, as Jupyter prints it. The access
	// log never has it (it logs no query), nor does any error.
	fmt.Fprintf(stdout, "ragjudge: serving %s (upstream %s)\n", pageURL(ln.Addr(), "", cfg.Token), cfg.Upstream)
	if other := otherMachinesURL(ln.Addr(), cfg.Token); other != "" {
		fmt.Fprintf(stdout, "ragjudge: from other machines: %s\n", other)
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	// Let short calls finish; a judge still streaming after 5s is cut rather than waited for.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		return srv.Close()
	}
	return err
}

// parseConfig reads the flags and OPENAI_API_KEY; flag errors and bad values are returned, not
// printed and exited on, so that tests can see them.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config{Log: stderr}
	var deployments string
	fs.StringVar(&cfg.Addr, "addr", defaultAddr, "listen `address`; keep it on loopback unless you mean to share the proxy (port 0 picks a free port)")
	fs.StringVar(&cfg.Upstream, "upstream", defaultUpstream, "OpenAI-compatible base `URL`, the only host requests are forwarded to (e.g. http://127.0.0.1:11434/v1 for Ollama)")
	fs.StringVar(&cfg.WebDir, "web", "web", "`directory` of the static page (relative paths are tried from the working directory, then the module root)")
	fs.BoolVar(&cfg.Azure, "azure", false, "the upstream is Azure OpenAI (https://NAME.openai.azure.com): key in api-key, model names mapped to deployments")
	fs.StringVar(&cfg.AzureAPIVersion, "azure-api-version", "", "Azure OpenAI api-version (default: go-openai's)")
	fs.StringVar(&deployments, "azure-deployments", "", "Azure deployment names by model, `model=deployment,...` (default: the model name without dots and colons)")
	fs.Int64Var(&cfg.MaxBody, "max-body", defaultMaxBody, "largest request body in `bytes`; larger ones get 413")
	fs.DurationVar(&cfg.Timeout, "timeout", defaultTimeout, "upstream timeout: total for a plain call, time to first event and between events for a stream")
	fs.DurationVar(&cfg.BodyTimeout, "body-timeout", defaultBodyTimeout, "time to receive a request body; slower ones get 408 and their connection is closed")
	fs.IntVar(&cfg.MaxInflight, "max-inflight", defaultMaxInflight, "most upstream `calls` in flight at once (HTTP and calls sockets together); more get 429 with Retry-After")
	fs.Int64Var(&cfg.MaxResponse, "max-response", defaultMaxResponse, "largest upstream answer in `bytes`; larger ones end in a 502 (an error event for a stream)")
	fs.StringVar(&cfg.Token, "token", "", "access `token` model calls need (default: RAGJUDGE_TOKEN, else a random one when -addr is beyond loopback, else none); printed in the page's address")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	upstream, err := parseUpstream(cfg.Upstream)
	if err != nil {
		return cfg, err
	}
	cfg.Upstream = upstream
	if cfg.MaxBody <= 0 {
		return cfg, fmt.Errorf("-max-body must be positive, got %d", cfg.MaxBody)
	}
	if cfg.Timeout <= 0 {
		return cfg, fmt.Errorf("-timeout must be positive, got %s", cfg.Timeout)
	}
	if cfg.BodyTimeout <= 0 {
		return cfg, fmt.Errorf("-body-timeout must be positive, got %s", cfg.BodyTimeout)
	}
	if cfg.MaxInflight <= 0 {
		return cfg, fmt.Errorf("-max-inflight must be positive, got %d", cfg.MaxInflight)
	}
	if cfg.MaxResponse <= 0 {
		return cfg, fmt.Errorf("-max-response must be positive, got %d", cfg.MaxResponse)
	}
	if cfg.AzureDeployments, err = parseDeployments(deployments); err != nil {
		return cfg, err
	}
	if (cfg.AzureAPIVersion != "" || len(cfg.AzureDeployments) > 0) && !cfg.Azure {
		return cfg, errors.New("-azure-api-version and -azure-deployments need -azure")
	}
	if cfg.Azure && cfg.Upstream == defaultUpstream {
		return cfg, errors.New("-azure needs -upstream https://NAME.openai.azure.com (your Azure OpenAI resource)")
	}
	if cfg.WebDir, err = findWebDir(cfg.WebDir); err != nil {
		return cfg, err
	}
	cfg.ServerKey = strings.TrimSpace(getenv("OPENAI_API_KEY"))
	if cfg.Token == "" {
		cfg.Token = strings.TrimSpace(getenv("RAGJUDGE_TOKEN"))
	}
	switch {
	case cfg.Token != "":
		if err := checkToken(cfg.Token); err != nil {
			return cfg, err
		}
	case !isLoopback(cfg.Addr):
		// Reachable from other machines: never without a token.
		if cfg.Token, err = newToken(); err != nil {
			return cfg, err
		}
		cfg.TokenMade = true
	}
	return cfg, nil
}

// parseUpstream accepts an absolute http or https URL without query or credentials and returns
// it without a trailing slash, the form go-openai's BaseURL expects.
func parseUpstream(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("-upstream %q: %v", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("-upstream %q: want an http or https URL such as %s", raw, defaultUpstream)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("-upstream %q: no credentials, query or fragment, only scheme, host and path", raw)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// parseDeployments reads "model=deployment,model2=deployment2".
func parseDeployments(s string) (map[string]string, error) {
	m := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		model, deployment, ok := strings.Cut(pair, "=")
		model, deployment = strings.TrimSpace(model), strings.TrimSpace(deployment)
		if !ok || model == "" || deployment == "" {
			return nil, fmt.Errorf("-azure-deployments: %q is not model=deployment", pair)
		}
		if !validDeployment(deployment) {
			return nil, fmt.Errorf("-azure-deployments: %q is not a deployment name (letters, digits, '.', '_' and '-', not '.' or '..')", deployment)
		}
		m[model] = deployment
	}
	return m, nil
}

// findWebDir resolves a relative -web first from the working directory, then from the module
// root above it, so that `go run ./serve` works from anywhere inside the checkout.
func findWebDir(dir string) (string, error) {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return filepath.Abs(dir)
	}
	if !filepath.IsAbs(dir) {
		if wd, err := os.Getwd(); err == nil {
			for d := wd; ; d = filepath.Dir(d) {
				if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
					candidate := filepath.Join(d, dir)
					if st, err := os.Stat(candidate); err == nil && st.IsDir() {
						return candidate, nil
					}
					break
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	return "", fmt.Errorf("-web %q: no such directory (run from the module root or pass -web)", dir)
}

// isLoopback reports whether a host:port (or bare host) names only the loopback interface.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// pageURL is the page's address on addr (host, when not "", instead of addr's own), with the
// token when there is one. An unspecified address (0.0.0.0, [::]) is written as 127.0.0.1: the
// address works on this machine.
func pageURL(addr net.Addr, host, token string) string {
	h, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		h, port = addr.String(), ""
	}
	if host != "" {
		h = host
	} else if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
		h = "127.0.0.1" // Go listens on both IPv4 and IPv6 for 0.0.0.0 and [::] alike
	}
	u := url.URL{Scheme: "http", Host: h, Path: "/"}
	if port != "" {
		u.Host = net.JoinHostPort(h, port)
	}
	if token != "" {
		u.RawQuery = tokenParam + "=" + url.QueryEscape(token)
	}
	return strings.TrimSuffix(u.String(), "/")
}

// otherMachinesURL is the page's address for other machines when the server listens on every
// interface: this machine's name in place of 0.0.0.0; "" otherwise, or when the name is unknown.
func otherMachinesURL(addr net.Addr, token string) string {
	h, _, err := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(h); err != nil || ip == nil || !ip.IsUnspecified() {
		return ""
	}
	name, err := os.Hostname()
	if err != nil || name == "" {
		return ""
	}
	return pageURL(addr, name, token)
}
