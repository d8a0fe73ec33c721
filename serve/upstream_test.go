package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServerKeyIsUsedWhenTheBrowserSendsNone(t *testing.T) {
	const serverKey = "sk-server-0123456789abcdef0123456789"
	fake := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, fake.URL+"/v1")
	cfg.Upstreams[0].ServerKey = serverKey
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
	host := strings.TrimPrefix(fake.URL, "http://")
	assert.JSONEq(t, fmt.Sprintf(`{"upstream":%q,"upstream_host":%q,"azure":false,"server_key":true,
		"upstreams":[{"name":"default","host":%q,"azure":false,"server_key":true}],"default_upstream":"default",
		"calls":"/ragjudge/calls","max_inflight":%d,"socket_calls":%d,"socket_limit":%d,"token":"none"}`,
		fake.URL+"/v1", host, host, defaultMaxInflight, maxCallsInFlight, maxCallLimit), cfgBody)
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
	assert.Equal(t, serverKey, parsed.Upstreams[0].ServerKey)
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
	cfg.Upstreams[0].Azure = &azureSettings{apiVersion: "2024-10-21", deployments: map[string]string{"gpt-4o": "prod-4o"}}
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

func TestCallsGoToTheUpstreamTheyName(t *testing.T) {
	cfg, local, hosted := twoUpstreams(t)
	proxy, _ := startProxy(t, cfg)

	for _, tc := range []struct{ header, want string }{
		{"", "local"}, // no name: the default, the first -upstream
		{"hosted", "hosted"},
		{"local", "local"},
		{" hosted ", "hosted"},
	} {
		resp, body := callUpstream(t, proxy.URL, tc.header, testKey, chatBody("judge-1", false))
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		assert.Equal(t, "from "+tc.want, contentOf(t, body), "named %q", tc.header)
		assert.Equal(t, tc.want, resp.Header.Get("Ragjudge-Upstream"), "the answer names the upstream it came from")
		assert.Equal(t, "page", resp.Header.Get("Ragjudge-Key"))
	}
	resp, body := callUpstream(t, proxy.URL, "hosted", testKey, chatBody("judge-1", true))
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, []string{chunkJSON("from "), chunkJSON("hosted"), "[DONE]"}, sseEvents(body), "a stream too")
	assert.Equal(t, "hosted", resp.Header.Get("Ragjudge-Upstream"))

	for _, tc := range []struct{ header, want string }{{"", "local"}, {"hosted", "hosted"}} {
		req, err := http.NewRequest(http.MethodGet, proxy.URL+"/v1/models", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+testKey)
		if tc.header != "" {
			req.Header.Set("Ragjudge-Upstream", tc.header)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body := readAll(t, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		assert.Contains(t, body, `"id":"`+tc.want+`-model"`, "the model list of %q", tc.header)
		assert.Equal(t, tc.want, resp.Header.Get("Ragjudge-Upstream"))
	}

	paths := func(f *fakeUpstream) (out []string) {
		for _, r := range f.requests() {
			out = append(out, r.Path)
			assert.Equal(t, "Bearer "+testKey, r.Authorization, "the page's key goes to the upstream it names")
			assert.Empty(t, r.Header.Get("Ragjudge-Upstream"), "the name stays in the dev server")
		}
		return out
	}
	assert.Equal(t, []string{"/v1/chat/completions", "/v1/chat/completions", "/v1/models"}, paths(local))
	assert.Equal(t, []string{"/hosted/v1/chat/completions", "/hosted/v1/chat/completions", "/hosted/v1/chat/completions", "/hosted/v1/models"}, paths(hosted),
		"each upstream's own base URL")
}

func TestAnUnknownUpstreamIsRefusedAndNothingIsSent(t *testing.T) {
	cfg, local, hosted := twoUpstreams(t)
	proxy, _ := startProxy(t, cfg)

	for _, names := range [][]string{{"nope"}, {"Hosted"}, {"default"}, {"local", "hosted"}, {"hosted\tx"}} {
		for _, path := range []string{"/v1/chat/completions", "/v1/models"} {
			method, body := http.MethodGet, io.Reader(nil)
			if path == "/v1/chat/completions" {
				method, body = http.MethodPost, strings.NewReader(chatBody("judge-1", false))
			}
			req, err := http.NewRequest(method, proxy.URL+path, body)
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+testKey)
			for _, n := range names {
				req.Header.Add("Ragjudge-Upstream", n)
			}
			resp, err := noGzipClient.Do(req)
			require.NoError(t, err)
			text := readAll(t, resp.Body)
			resp.Body.Close()
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%v %s: %s", names, path, text)
			e := decodeError(t, text)
			assert.Equal(t, "unknown_upstream", e.Code, "%v %s", names, path)
			if len(names) == 1 {
				assert.Contains(t, e.Message, fmt.Sprintf("no upstream named %q; it has local, hosted", names[0]))
			}
			assert.Empty(t, resp.Header.Get("Ragjudge-Upstream"), "no upstream answered")
			assert.NotContains(t, text, testKey)
		}
	}
	assert.Empty(t, local.requests(), "never the default instead")
	assert.Empty(t, hosted.requests())
}

func TestServerKeysAreEachUpstreamsOwn(t *testing.T) {
	const hostedKey = "sk-hosted-0123456789abcdef0123456789"
	local := newFakeUpstream(t, answerCompletion("yes"))
	// The hosted upstream quotes the key it was sent in its 401, as OpenAI does.
	hosted := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error","code":"invalid_api_key"}}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	})
	cfg := testConfig(t, "")
	cfg.Upstreams = []upstreamSpec{{Name: "local", URL: local.URL + "/v1"}, {Name: "hosted", URL: hosted.URL + "/v1", ServerKey: hostedKey}}
	proxy, logs := startProxy(t, cfg)

	resp, body := callUpstream(t, proxy.URL, "", "", chatBody("llama3:8b", false))
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "none", resp.Header.Get("Ragjudge-Key"), "the local default has no server key")
	resp, body = callUpstream(t, proxy.URL, "hosted", "", chatBody("gpt-4o", false))
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
	assert.Equal(t, "server", resp.Header.Get("Ragjudge-Key"), "the hosted one's key was refused: the page can say whose")
	assert.Contains(t, decodeError(t, body).Message, "Incorrect API key provided: [key redacted]")
	assert.NotContains(t, body, hostedKey[len(hostedKey)-12:], "the key is scrubbed from that upstream's answer")
	resp, body = callUpstream(t, proxy.URL, "hosted", testKey, chatBody("gpt-4o", false))
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
	assert.Equal(t, "page", resp.Header.Get("Ragjudge-Key"))
	assert.NotContains(t, body, testKey[len(testKey)-12:])

	require.Len(t, local.requests(), 1)
	assert.Empty(t, local.requests()[0].Authorization, "the hosted upstream's key never reaches the local one")
	require.Len(t, hosted.requests(), 2)
	assert.Equal(t, "Bearer "+hostedKey, hosted.requests()[0].Authorization)
	assert.Equal(t, "Bearer "+testKey, hosted.requests()[1].Authorization)
	assert.NotContains(t, logs.String(), hostedKey)
}

func TestTheInflightCapIsSharedByEveryUpstream(t *testing.T) {
	h := newHangOrAnswer()
	local := newFakeUpstream(t, h.serve)
	hosted := newFakeUpstream(t, answerCompletion("yes"))
	cfg := testConfig(t, "")
	cfg.Upstreams = []upstreamSpec{{Name: "local", URL: local.URL + "/v1"}, {Name: "hosted", URL: hosted.URL + "/v1"}}
	cfg.MaxInflight = 1
	proxy, _ := startProxy(t, cfg)

	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, proxy.URL+"/v1/chat/completions", strings.NewReader(chatBody("slow", false)))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	h.await(t, h.started, 1, "the slow call never reached the local upstream")
	resp, body := callUpstream(t, proxy.URL, "hosted", testKey, chatBody("judge-1", false))
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, body)
	assert.Equal(t, "too_many_calls_in_flight", decodeError(t, body).Code)
	assert.Equal(t, "hosted", resp.Header.Get("Ragjudge-Upstream"))
	assert.Empty(t, hosted.requests(), "-max-inflight counts every upstream's calls together")
	cancel()
	<-done
	h.await(t, h.ended, 1, "the slow call was not cancelled")
	require.Eventually(t, func() bool {
		resp, _ := callUpstream(t, proxy.URL, "hosted", testKey, chatBody("judge-1", false))
		return resp.StatusCode == http.StatusOK
	}, 5*time.Second, 10*time.Millisecond, "the slot comes back")
}
