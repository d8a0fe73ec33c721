package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpstreamRequestIsBuiltWithoutBeingSent pins what go-openai builds for each kind of
// upstream, so that an upgrade that changes a URL or a header shows here first.
func TestUpstreamRequestIsBuiltWithoutBeingSent(t *testing.T) {
	openAI := newUpstream(config{Upstream: "https://api.example.com/v1/"})
	azure := newUpstream(config{Upstream: "https://my.openai.azure.com", Azure: true})
	azurePinned := newUpstream(config{Upstream: "https://my.openai.azure.com", Azure: true, AzureAPIVersion: "2024-10-21"})
	plain := http.Header{"Accept": {"application/json"}, "Content-Type": {"application/json"}}
	stream := http.Header{"Accept": {"text/event-stream"}, "Content-Type": {"application/json"},
		"Cache-Control": {"no-cache"}, "Connection": {"keep-alive"}}
	with := func(h http.Header, name, value string) http.Header {
		h = h.Clone()
		h.Set(name, value)
		return h
	}
	cases := []struct {
		name       string
		u          upstream
		key        string
		stream     bool
		wantURL    string
		wantHeader http.Header
	}{
		{"openai", openAI, "sk-1", false, "https://api.example.com/v1/chat/completions", with(plain, "Authorization", "Bearer sk-1")},
		{"openai stream", openAI, "sk-1", true, "https://api.example.com/v1/chat/completions", with(stream, "Authorization", "Bearer sk-1")},
		{"openai without a key", openAI, "", false, "https://api.example.com/v1/chat/completions", plain},
		{"azure", azure, "k1", false, "https://my.openai.azure.com/openai/deployments/prod-4o/chat/completions?api-version=2023-05-15", with(plain, "api-key", "k1")},
		{"azure stream", azurePinned, "k1", true, "https://my.openai.azure.com/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21", with(stream, "api-key", "k1")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := tc.u.buildRequest(context.Background(), tc.key, "prod-4o", tc.stream)
			require.NoError(t, err)
			assert.Equal(t, http.MethodPost, req.Method)
			assert.Equal(t, tc.wantURL, req.URL.String())
			assert.Equal(t, tc.wantHeader, req.Header)
		})
	}
}
