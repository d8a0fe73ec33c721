package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServerKeyIsUsedWhenTheBrowserSendsNone(t *testing.T) {
	const serverKey = "sk-server-0123456789abcdef0123456789"
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.ServerKey = serverKey
	proxy, logs := startProxy(t, cfg)

	resp := postChat(t, proxy.URL, "", chatBody("judge-1", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	assert.Equal(t, "server", resp.Header.Get("Ragjudge-Key"), "the page learns whose key went upstream")
	resp = postChat(t, proxy.URL, testKey, chatBody("judge-1", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	assert.Equal(t, "page", resp.Header.Get("Ragjudge-Key"))

	seen := fake.requests()
	require.Len(t, seen, 2)
	assert.Equal(t, "Bearer "+serverKey, seen[0].Authorization, "OPENAI_API_KEY when the browser sends no key")
	assert.Equal(t, "Bearer "+testKey, seen[1].Authorization, "the browser's key wins")

	cfgResp, err := http.Get(proxy.URL + "/ragjudge/config")
	require.NoError(t, err)
	defer cfgResp.Body.Close()
	cfgBody := readAll(t, cfgResp.Body)
	assert.JSONEq(t, fmt.Sprintf(`{"upstream":%q,"upstream_host":%q,"azure":false,"server_key":true,"calls":"/ragjudge/calls",
		"max_inflight":%d,"socket_calls":%d,"socket_limit":%d,"token":"none"}`,
		fake.URL+"/v1", strings.TrimPrefix(fake.URL, "http://"), defaultMaxInflight, maxCallsInFlight, maxCallLimit), cfgBody)
	assert.NotContains(t, cfgBody, serverKey)
	assert.NotContains(t, logs.String(), serverKey)

	// parseConfig is where OPENAI_API_KEY comes from.
	parsed, err := parseConfig([]string{"-web", t.TempDir()}, func(k string) string {
		if k == "OPENAI_API_KEY" {
			return serverKey
		}
		return ""
	}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, serverKey, parsed.ServerKey)
}

func TestNoKeyAtAllSendsNoAuthorization(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	resp := postChat(t, proxy.URL, "", chatBody("llama3:8b", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	assert.Empty(t, fake.requests()[0].Authorization, "Ollama and friends need no key")
}

func TestAzureDeploymentCannotLeaveTheUpstreamPath(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL)
	cfg.Azure = true
	cfg.AzureAPIVersion = "2024-10-21"
	cfg.AzureDeployments = map[string]string{"gpt-4o": "prod-4o"}
	proxy, _ := startProxy(t, cfg)

	for _, model := range []string{"gpt-4o", "gpt-35-turbo", "gpt-3.5-turbo", "llama3:8b"} {
		resp := postChat(t, proxy.URL, testKey, chatBody(model, false))
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp.Body))
	}
	seen := fake.requests()
	require.Len(t, seen, 4)
	assert.Equal(t, "/openai/deployments/prod-4o/chat/completions", seen[0].Path)
	assert.Equal(t, "api-version=2024-10-21", seen[0].RawQuery)
	assert.Equal(t, testKey, seen[0].APIKey, "Azure's api-key header")
	assert.Empty(t, seen[0].Authorization)
	assert.Equal(t, chatBody("gpt-4o", false), string(seen[0].Body), "the body is sent as it came, model included")
	assert.Equal(t, "/openai/deployments/gpt-35-turbo/chat/completions", seen[1].Path)
	assert.Equal(t, "/openai/deployments/gpt-35-turbo/chat/completions", seen[2].Path, "go-openai's default mapping")
	assert.Equal(t, "/openai/deployments/llama38b/chat/completions", seen[3].Path)

	// A deployment is checked after mapping: no model can name a path element of its own.
	for _, model := range []string{"a/b", "%2e%2e", "../../../evil?x=1#", "a\\b", "x#y", "d\u00e9ploiement", ".:", "..:"} {
		t.Run(model, func(t *testing.T) {
			resp := postChat(t, proxy.URL, testKey, chatBody(model, false))
			body := readAll(t, resp.Body)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
			e := decodeError(t, body)
			assert.Equal(t, "invalid_deployment", e.Code)
			assert.Contains(t, e.Message, "not a deployment name")
		})
	}
	// ".." and "." are not even model names.
	for _, model := range []string{"..", "."} {
		resp := postChat(t, proxy.URL, testKey, chatBody(model, false))
		body := readAll(t, resp.Body)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
		assert.Contains(t, decodeError(t, body).Message, "is not a model name")
	}
	assert.Len(t, fake.requests(), 4, "no bad deployment reached Azure")

	// The models the page offers are the configured ones, not Azure's base model list.
	resp, err := http.Get(proxy.URL + "/v1/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	var list struct{ Data []struct{ ID string } }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	require.Len(t, list.Data, 1)
	assert.Equal(t, "gpt-4o", list.Data[0].ID)
	assert.Len(t, fake.requests(), 4, "answered without calling Azure")
}

func TestAzureDeploymentsFlagTakesOnlyDeploymentNames(t *testing.T) {
	for _, d := range []string{"..", ".", "a/b", "%2e%2e", "a?b"} {
		_, err := parseConfig([]string{"-web", t.TempDir(), "-azure", "-upstream", "https://my.openai.azure.com", "-azure-deployments", "gpt-4o=" + d}, noEnv, io.Discard)
		require.Error(t, err, d)
		assert.Contains(t, err.Error(), "not a deployment name", d)
	}
	assert.True(t, validDeployment("gpt-4o.prod_2-x"))
}
