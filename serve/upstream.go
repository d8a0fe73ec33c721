package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// upstream is one OpenAI-compatible endpoint that model calls are forwarded to, as a value that
// each handler hands to what it calls: where it is, whether it is reached as OpenAI or as Azure
// OpenAI, and the key it gets when the page sends none. The server has one today (-upstream).
type upstream struct {
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

// azureSettings are what an Azure OpenAI upstream needs beyond its URL.
type azureSettings struct {
	// apiVersion overrides go-openai's default api-version when non-empty.
	apiVersion string
	// deployments maps model names to deployment names; unmapped models use go-openai's
	// default mapping.
	deployments map[string]string
}

// newUpstream is the upstream cfg describes: -upstream, -azure and its settings, and
// OPENAI_API_KEY.
func newUpstream(cfg config) upstream {
	u := upstream{baseURL: cfg.Upstream, serverKey: cfg.ServerKey}
	parsed, err := url.Parse(cfg.Upstream)
	if err != nil || parsed.Host == "" {
		// parseConfig rejects such a URL; a hand-built config gets a proxy that refuses every
		// call rather than one that guesses where to send keys.
		parsed = &url.URL{Scheme: "invalid", Host: "invalid.invalid"}
	}
	u.url = parsed
	if cfg.Azure {
		u.azure = &azureSettings{apiVersion: cfg.AzureAPIVersion, deployments: cfg.AzureDeployments}
	}
	return u
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
// upstream's server key (OPENAI_API_KEY), else "" (local servers such as Ollama need none); and
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
