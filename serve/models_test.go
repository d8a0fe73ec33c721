package main

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModelsAreForwarded(t *testing.T) {
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Missing bearer authentication in header","type":"invalid_request_error","code":null}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"system"},{"id":"llama3:8b","object":"model","created":2,"owned_by":"library"}]}`)
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))

	get := func(key string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodGet, proxy.URL+"/v1/models", nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := noGzipClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		return resp, readAll(t, resp.Body)
	}
	resp, body := get(testKey)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var list struct {
		Object string
		Data   []struct{ ID, Object string }
	}
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	assert.Equal(t, "list", list.Object)
	require.Len(t, list.Data, 2)
	assert.Equal(t, "gpt-4o-mini", list.Data[0].ID)
	assert.Equal(t, "llama3:8b", list.Data[1].ID)
	assert.Equal(t, "/v1/models", fake.requests()[0].Path)

	resp, body = get("")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, decodeError(t, body).Message, "Missing bearer")
}
