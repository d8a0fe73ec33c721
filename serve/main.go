// Command serve is ragjudge's dev server: it serves the static page in web/ and forwards the
// page's chat completion calls to the configured OpenAI-compatible upstreams, each call to the
// one it names, so that a browser can reach endpoints that refuse cross-origin calls without the
// key ever leaving the loopback path between the page, this process and that upstream.
//
//	go run ./serve [-addr 127.0.0.1:8080] [-upstream [name=]URL]... [-upstream-key-env name=VAR]... [-web web]
//
// The key is the one the page sends in Authorization, or the upstream's server key when the page
// sends none: OPENAI_API_KEY for the default (first) upstream, or the environment variable
// -upstream-key-env names. It is never logged and never echoed back.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// config is everything newServer needs; parseConfig builds it from flags and the environment.
type config struct {
	// Addr is the listen address; loopback unless the user says otherwise.
	Addr string
	// Upstreams are the OpenAI-compatible endpoints calls go to, by name, the default first;
	// their hosts are the only ones the proxy ever sends a request to.
	Upstreams []upstreamSpec
	// WebDir is the directory of static files served at /.
	WebDir string
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
	// defaultUpstreamName is the name of an -upstream given as a bare URL, as today's single
	// -upstream URL is.
	defaultUpstreamName = "default"
	// defaultKeyEnv is the server key's variable for the default upstream.
	defaultKeyEnv  = "OPENAI_API_KEY"
	defaultMaxBody = 8 << 20
	defaultTimeout = 120 * time.Second
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
	fmt.Fprintf(stdout, "ragjudge: serving %s (%s)\n", pageURL(ln.Addr(), "", cfg.Token), describeUpstreams(cfg.Upstreams))
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

// parseConfig reads the flags and the server keys' environment variables; flag errors and bad
// values are returned, not printed and exited on, so that tests can see them.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config{Log: stderr}
	var deployments, azureAPIVersion string
	var azure bool
	var upstreams, keyEnvs repeated
	fs.StringVar(&cfg.Addr, "addr", defaultAddr, "listen `address`; keep it on loopback unless you mean to share the proxy (port 0 picks a free port)")
	fs.Var(&upstreams, "upstream", "OpenAI-compatible base URL as `[name=]URL`, repeatable: the hosts requests are forwarded to, the first the default, the page picks by name; a bare URL is named \"default\" (default "+defaultUpstream+"; e.g. local=http://127.0.0.1:11434/v1 for Ollama)")
	fs.Var(&keyEnvs, "upstream-key-env", "`name=VAR`, repeatable: the upstream name gets the key in environment variable VAR when the page sends none (name= for none); default: OPENAI_API_KEY for the first upstream, unless given to another")
	fs.StringVar(&cfg.WebDir, "web", "web", "`directory` of the static page (relative paths are tried from the working directory, then the module root)")
	fs.BoolVar(&azure, "azure", false, "the first upstream is Azure OpenAI (https://NAME.openai.azure.com): key in api-key, model names mapped to deployments")
	fs.StringVar(&azureAPIVersion, "azure-api-version", "", "Azure OpenAI api-version (default: go-openai's)")
	fs.StringVar(&deployments, "azure-deployments", "", "Azure deployment names by model, `model=deployment,...` (default: the model name without dots and colons)")
	fs.Int64Var(&cfg.MaxBody, "max-body", defaultMaxBody, "largest request body in `bytes`; larger ones get 413")
	fs.DurationVar(&cfg.Timeout, "timeout", defaultTimeout, "upstream timeout: total for a plain call, time to first event and between events for a stream")
	fs.DurationVar(&cfg.BodyTimeout, "body-timeout", defaultBodyTimeout, "time to receive a request body; slower ones get 408 and their connection is closed")
	fs.IntVar(&cfg.MaxInflight, "max-inflight", defaultMaxInflight, "most upstream `calls` in flight at once (HTTP and calls sockets together, all upstreams together); more get 429 with Retry-After")
	fs.Int64Var(&cfg.MaxResponse, "max-response", defaultMaxResponse, "largest upstream answer in `bytes`; larger ones end in a 502 (an error event for a stream)")
	fs.StringVar(&cfg.Token, "token", "", "access `token` model calls need (default: RAGJUDGE_TOKEN, else a random one when -addr is beyond loopback, else none); printed in the page's address")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	var err error
	if cfg.Upstreams, err = parseUpstreams(upstreams); err != nil {
		return cfg, err
	}
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
	azureDeployments, err := parseDeployments(deployments)
	if err != nil {
		return cfg, err
	}
	if (azureAPIVersion != "" || len(azureDeployments) > 0) && !azure {
		return cfg, errors.New("-azure-api-version and -azure-deployments need -azure")
	}
	if azure {
		// Azure's settings are the first upstream's: one set of flags, one Azure resource.
		if cfg.Upstreams[0].URL == defaultUpstream {
			return cfg, errors.New("-azure needs -upstream https://NAME.openai.azure.com (your Azure OpenAI resource) as the first -upstream")
		}
		cfg.Upstreams[0].Azure = &azureSettings{apiVersion: azureAPIVersion, deployments: azureDeployments}
	}
	if err := assignServerKeys(cfg.Upstreams, keyEnvs, getenv); err != nil {
		return cfg, err
	}
	if cfg.WebDir, err = findWebDir(cfg.WebDir); err != nil {
		return cfg, err
	}
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

// repeated is a flag that may be given more than once, each value kept in order.
type repeated []string

func (r *repeated) String() string { return strings.Join(*r, " ") }

func (r *repeated) Set(v string) error {
	*r = append(*r, v)
	return nil
}

// upstreamName is what an upstream may be called: short, and fit for a header value and a
// JSON string as it is.
var upstreamName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// parseUpstreams reads each -upstream, "name=URL" or a bare URL (named defaultUpstreamName,
// and then only the first, since it is the default's), the default OpenAI endpoint when there is
// none. Names are unique.
func parseUpstreams(values []string) ([]upstreamSpec, error) {
	if len(values) == 0 {
		return []upstreamSpec{{Name: defaultUpstreamName, URL: defaultUpstream}}, nil
	}
	specs := make([]upstreamSpec, 0, len(values))
	for i, v := range values {
		name, raw, named := strings.Cut(strings.TrimSpace(v), "=")
		// A URL's scheme has a colon before any "=", a name never has one.
		if !named || strings.ContainsAny(name, ":/") {
			name, raw = defaultUpstreamName, strings.TrimSpace(v)
			if i > 0 {
				return nil, fmt.Errorf("-upstream %q: name it, as name=URL (only the first -upstream, the default, may be a bare URL)", v)
			}
		} else if name = strings.TrimSpace(name); !upstreamName.MatchString(name) {
			return nil, fmt.Errorf("-upstream %q: the name %q is not an upstream name (1 to 64 letters, digits, '.', '_' and '-', starting with a letter or digit)", v, name)
		}
		u, err := parseUpstream(strings.TrimSpace(raw))
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(specs, func(s upstreamSpec) bool { return s.Name == name }) {
			return nil, fmt.Errorf("-upstream %q: there is already an upstream named %q", v, name)
		}
		specs = append(specs, upstreamSpec{Name: name, URL: u})
	}
	return specs, nil
}

// envName is what -upstream-key-env takes as a variable name.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// assignServerKeys gives each upstream the key it is sent with when the page sends none. A key
// goes only where it is meant to: -upstream-key-env name=VAR gives upstream name the key in VAR
// (name= gives it none); OPENAI_API_KEY goes to the default (first) upstream, as it did when
// there was one, unless -upstream-key-env names the default or gives OPENAI_API_KEY to another
// upstream (then the user has said where it goes: a local default must not receive the hosted
// provider's key). A variable named but empty is an error, not a silent keyless upstream.
func assignServerKeys(specs []upstreamSpec, keyEnvs []string, getenv func(string) string) error {
	given := map[string]string{}
	for _, v := range keyEnvs {
		name, env, ok := strings.Cut(v, "=")
		name, env = strings.TrimSpace(name), strings.TrimSpace(env)
		if !ok || name == "" {
			return fmt.Errorf("-upstream-key-env %q: want name=VAR, such as openai=OPENAI_API_KEY", v)
		}
		if !slices.ContainsFunc(specs, func(s upstreamSpec) bool { return s.Name == name }) {
			return fmt.Errorf("-upstream-key-env %q: there is no -upstream named %q", v, name)
		}
		if _, dup := given[name]; dup {
			return fmt.Errorf("-upstream-key-env %q: upstream %q is given a key variable twice", v, name)
		}
		if env != "" && !envName.MatchString(env) {
			return fmt.Errorf("-upstream-key-env %q: %q is not an environment variable name", v, env)
		}
		if env != "" && strings.TrimSpace(getenv(env)) == "" {
			return fmt.Errorf("-upstream-key-env %q: the environment variable %s is empty or not set", v, env)
		}
		given[name] = env
	}
	if _, named := given[specs[0].Name]; !named && !slices.Contains(slices.Collect(maps.Values(given)), defaultKeyEnv) {
		given[specs[0].Name] = defaultKeyEnv
	}
	for i := range specs {
		if env := given[specs[i].Name]; env != "" {
			if key := strings.TrimSpace(getenv(env)); key != "" {
				specs[i].ServerKey, specs[i].KeyEnv = key, env
			}
		}
	}
	return nil
}

// describeUpstreams is the start-up line's account of where calls go: today's "upstream URL" for
// a lone bare -upstream; otherwise each by name, the default first, saying which is reached as
// Azure (-azure is the first's, which this makes plain) and the variable of each server key
// (never the key).
func describeUpstreams(specs []upstreamSpec) string {
	if len(specs) == 1 && specs[0].Name == defaultUpstreamName {
		return "upstream " + specs[0].URL
	}
	parts := make([]string, len(specs))
	for i, s := range specs {
		var notes []string
		if i == 0 {
			notes = append(notes, "default")
		}
		if s.Azure != nil {
			notes = append(notes, "Azure OpenAI")
		}
		if s.KeyEnv != "" {
			notes = append(notes, "key from "+s.KeyEnv)
		}
		parts[i] = s.Name + "=" + s.URL
		if len(notes) > 0 {
			parts[i] += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	return "upstreams " + strings.Join(parts, ", ")
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
