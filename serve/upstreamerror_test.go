package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUpstreamErrorsAreMappedToOpenAIShape(t *testing.T) {
	cases := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		wantType   string
		wantCode   any
		wantInText string
	}{
		{"bad key", 401, nil, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			"invalid_request_error", "invalid_api_key", "Incorrect API key"},
		{"unknown model", 404, nil, `{"error":{"message":"The model 'judge-9' does not exist","type":"invalid_request_error","param":"model","code":"model_not_found"}}`,
			"invalid_request_error", "model_not_found", "does not exist"},
		{"rate limited", 429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			"requests", "rate_limit_exceeded", "retry after 7s"},
		{"server error", 500, nil, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`,
			"server_error", nil, "server had an error"},
		{"overloaded, not JSON", 503, map[string]string{"Retry-After": "30"}, `<html>503 Service Unavailable</html>`,
			"upstream_error", nil, "503 Service Unavailable"},
	}
	for _, tc := range cases {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%t", tc.name, stream), func(t *testing.T) {
				fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
					for k, v := range tc.header {
						w.Header().Set(k, v)
					}
					w.WriteHeader(tc.status)
					io.WriteString(w, tc.body)
				})
				proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
				resp := postChat(t, proxy.URL, testKey, chatBody("judge-9", stream))
				body := readAll(t, resp.Body)
				assert.Equal(t, tc.status, resp.StatusCode, body)
				assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
				e := decodeError(t, body)
				assert.Equal(t, tc.wantType, e.Type)
				assert.Equal(t, tc.wantCode, e.Code)
				assert.Contains(t, e.Message, tc.wantInText)
				if ra, ok := tc.header["Retry-After"]; ok {
					assert.Equal(t, ra, resp.Header.Get("Retry-After"), "Retry-After passes through")
				}
			})
		}
	}
}

func TestUnreachableUpstreamIs502NamingTheHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	host := ln.Addr().String()
	ln.Close() // nothing listens there now

	proxy, _ := startProxy(t, testConfig(t, "http://"+host+"/v1"))
	for _, stream := range []bool{false, true} {
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", stream))
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusBadGateway, resp.StatusCode, body)
		e := decodeError(t, body)
		assert.Contains(t, e.Message, "could not reach the upstream "+host)
		assert.Equal(t, "upstream_unreachable", e.Code)
	}
	resp, err := http.Get(proxy.URL + "/v1/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
}

func TestRetryHintsPassThrough(t *testing.T) {
	fake := newFakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "2")
		w.Header().Set("Retry-After-Ms", "1500")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
	})
	proxy, _ := startProxy(t, testConfig(t, fake.URL+"/v1"))
	for _, stream := range []bool{false, true} {
		resp := postChat(t, proxy.URL, testKey, chatBody("judge-1", stream))
		body := readAll(t, resp.Body)
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, body)
		assert.Equal(t, "2", resp.Header.Get("Retry-After"))
		assert.Equal(t, "1500", resp.Header.Get("Retry-After-Ms"))
	}
	conn := dialCalls(t, proxy.URL)
	sendText(t, conn, callMessage(1, testKey, chatBody("judge-1", false)))
	res := readResult(t, conn)
	assert.Equal(t, "1500", res.Headers["retry-after-ms"])
}
