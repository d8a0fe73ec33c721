package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// upstream is one OpenAI-compatible endpoint that model calls are forwarded to, as a value that
// each handler hands to what it calls: its name, where it is, whether it is reached as OpenAI or
// as Azure OpenAI, and the key it gets when the page sends none. The server holds one per
// -upstream; a call picks one by name (pick).
type upstream struct {
	// name is what the page calls it by (upstreamHeader, a calls socket call's "upstream").
	name string
	// baseURL is the base URL as given, e.g. https://api.openai.com/v1, which go-openai extends
	// with each endpoint's path.
	baseURL string
	// url is baseURL parsed: its scheme and host are the only ones the proxy sends this
	// upstream's calls to.
	url *url.URL
	// azure is Azure OpenAI's settings, nil for an upstream reached as OpenAI.
	azure *azureSettings
	// serverKey is sent when the page sends no key; "" sends none.
	serverKey string
}

// upstreamSpec is one -upstream as parseConfig reads it, with the server key it gets.
type upstreamSpec struct {
	// Name is the name given (name=URL), or defaultUpstreamName for a bare URL.
	Name string
	// URL is the OpenAI-compatible base URL, e.g. https://api.openai.com/v1, without a trailing
	// slash. Its scheme and host are the only ones this upstream's calls are sent to.
	URL string
	// ServerKey is sent when the page sends no key: OPENAI_API_KEY for the default upstream, or
	// the variable -upstream-key-env names; "" sends none.
	ServerKey string
	// KeyEnv names the environment variable ServerKey came from, for the start-up message.
	KeyEnv string
	// Azure is Azure OpenAI's settings (-azure and its flags, which describe the first
	// upstream), nil for an upstream reached as OpenAI.
	Azure *azureSettings
}

// azureSettings are what an Azure OpenAI upstream needs beyond its URL.
type azureSettings struct {
	// apiVersion overrides go-openai's default api-version when non-empty.
	apiVersion string
	// deployments maps model names to deployment names; unmapped models use go-openai's
	// default mapping.
	deployments map[string]string
}

// newUpstream is the upstream spec describes.
func newUpstream(spec upstreamSpec) upstream {
	u := upstream{name: spec.Name, baseURL: spec.URL, serverKey: spec.ServerKey, azure: spec.Azure}
	parsed, err := url.Parse(spec.URL)
	if err != nil || parsed.Host == "" {
		// parseConfig rejects such a URL; a hand-built config gets a proxy that refuses every
		// call rather than one that guesses where to send keys.
		parsed = &url.URL{Scheme: "invalid", Host: "invalid.invalid"}
	}
	u.url = parsed
	return u
}

// upstreamHeader names the upstream of a model call: the page sends it on POST
// /v1/chat/completions and GET /v1/models (absent or empty: the default, the first -upstream),
// and every answer to a call that reached an upstream's handling names the upstream it went to,
// so that a page can tell a server that picked from one that ignored the header (an older one).
const upstreamHeader = "Ragjudge-Upstream"

// pick is the upstream a model call names in upstreamHeader, or the default when it names none;
// a name the server does not know is answered 400 unknown_upstream (and ok is false), never sent
// to the default instead: a jury's judge must not silently become another.
func (p *proxy) pick(w http.ResponseWriter, r *http.Request) (u *upstream, ok bool) {
	names := r.Header.Values(upstreamHeader)
	name := ""
	for i, n := range names {
		n = strings.TrimSpace(n)
		if i > 0 && n != name {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "unknown_upstream",
				fmt.Sprintf("the request names more than one upstream in %s; name one", upstreamHeader))
			return nil, false
		}
		name = n
	}
	if name == "" {
		u = &p.upstreams[0]
	} else if i := slices.IndexFunc(p.upstreams, func(u upstream) bool { return u.name == name }); i >= 0 {
		u = &p.upstreams[i]
	} else {
		known := make([]string, len(p.upstreams))
		for i := range p.upstreams {
			known[i] = p.upstreams[i].name
		}
		writeError(w, http.StatusBadRequest, "invalid_request_error", "unknown_upstream",
			fmt.Sprintf("the dev server has no upstream named %q; it has %s (-upstream name=URL)", clip(name, 64), strings.Join(known, ", ")))
		return nil, false
	}
	w.Header().Set(upstreamHeader, u.name)
	return u, true
}

// defaultDeployment is go-openai's default model→deployment mapping, for models that
// -azure-deployments does not name.
var defaultDeployment = openai.DefaultAzureConfig("", "").AzureModelMapperFunc

// clientConfig is go-openai's configuration for one request's key: OpenAI's (Authorization:
// Bearer, the base URL as given) or Azure's (api-key header, /openai/deployments/NAME/…,
// api-version), which is the part of go-openai this proxy relies on most.
func (u *upstream) clientConfig(key string, mapper func(string) string) openai.ClientConfig {
	if u.azure != nil {
		cc := openai.DefaultAzureConfig(key, u.baseURL)
		if u.azure.apiVersion != "" {
			cc.APIVersion = u.azure.apiVersion
		}
		cc.AzureModelMapperFunc = mapper
		return cc
	}
	cc := openai.DefaultConfig(key)
	cc.BaseURL = u.baseURL
	return cc
}

// deploymentName is what an Azure deployment may be called. Checked after mapping, it keeps a
// model name from adding path elements, `.` and `..` included, or a query to the upstream URL.
var deploymentName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

func validDeployment(d string) bool {
	return deploymentName.MatchString(d) && d != "." && d != ".."
}

// deployment maps a model to its Azure deployment: -azure-deployments first, else go-openai's
// default mapping; the result must be a deployment name.
func (u *upstream) deployment(model string) (string, error) {
	d, ok := u.azure.deployments[model]
	if !ok {
		d = defaultDeployment(model)
	}
	if !validDeployment(d) {
		return "", fmt.Errorf("model %q maps to the Azure deployment %q, which is not a deployment name (letters, digits, '.', '_' and '-', not '.' or '..'); map it with -azure-deployments", model, d)
	}
	return d, nil
}

// keyHeader names, on every answer to a model call, the key the call was sent upstream with:
// keyFromPage, keyFromServer or keyNone. A 401 then tells "no key was sent" from "the key was
// refused", and whose key it was (the page decides from this, not from the upstream's words).
const keyHeader = "Ragjudge-Key"

const (
	keyFromPage   = "page"
	keyFromServer = "server"
	keyNone       = "none"
)

// requestKey is the browser's key (Authorization: Bearer, or Azure's api-key header), else the
// upstream's server key (OPENAI_API_KEY or -upstream-key-env), else "" (local servers such as
// Ollama need none); and
// which of the three it is (keyHeader's values).
func (u *upstream) requestKey(r *http.Request) (key, from string, err error) {
	if auth := strings.TrimSpace(r.Header.Get("Authorization")); auth != "" {
		scheme, key, _ := strings.Cut(auth, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "", "", errors.New("the Authorization header must be \"Bearer <key>\"")
		}
		if key = strings.TrimSpace(key); key != "" {
			return key, keyFromPage, nil
		}
	}
	if key := strings.TrimSpace(r.Header.Get("api-key")); key != "" {
		return key, keyFromPage, nil
	}
	if u.serverKey != "" {
		return u.serverKey, keyFromServer, nil
	}
	return "", keyNone, nil
}

// callKey is requestKey for a model call: a bad Authorization header is answered 401 (and ok is
// false); otherwise the answer names the key's source in keyHeader, whatever comes of the call.
func (u *upstream) callKey(w http.ResponseWriter, r *http.Request) (key string, ok bool) {
	key, from, err := u.requestKey(r)
	if err != nil {
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_authorization", err.Error())
		return "", false
	}
	w.Header().Set(keyHeader, from)
	return key, true
}
