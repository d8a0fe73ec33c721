package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func noEnv(string) string { return "" }

func TestDefaultsBindLoopback(t *testing.T) {
	cfg, err := parseConfig([]string{"-web", t.TempDir()}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:8080", cfg.Addr)
	assert.True(t, isLoopback(cfg.Addr))
	assert.Equal(t, []upstreamSpec{{Name: "default", URL: "https://api.openai.com/v1"}}, cfg.Upstreams)
	assert.Equal(t, int64(8<<20), cfg.MaxBody)
	assert.Equal(t, 120*time.Second, cfg.Timeout)

}

func TestParseConfig(t *testing.T) {
	web := t.TempDir()
	cfg, err := parseConfig([]string{"-web", web, "-upstream", "http://127.0.0.1:11434/v1/", "-timeout", "2s", "-max-body", "1000"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []upstreamSpec{{Name: "default", URL: "http://127.0.0.1:11434/v1"}}, cfg.Upstreams, "trailing slash dropped for go-openai")
	assert.Equal(t, 2*time.Second, cfg.Timeout)
	assert.Equal(t, int64(1000), cfg.MaxBody)

	cfg, err = parseConfig([]string{"-web", web, "-azure", "-upstream", "https://my.openai.azure.com", "-azure-api-version", "2024-10-21", "-azure-deployments", "gpt-4o=prod-4o, gpt-4o-mini=mini"}, noEnv, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, &azureSettings{apiVersion: "2024-10-21", deployments: map[string]string{"gpt-4o": "prod-4o", "gpt-4o-mini": "mini"}}, cfg.Upstreams[0].Azure)

	bad := []struct {
		args []string
		want string
	}{
		{[]string{"-upstream", "api.openai.com/v1"}, "want an http or https URL"},
		{[]string{"-upstream", "ftp://example.com"}, "want an http or https URL"},
		{[]string{"-upstream", "https://user:pw@example.com/v1"}, "no credentials"},
		{[]string{"-max-body", "0"}, "-max-body must be positive"},
		{[]string{"-timeout", "-1s"}, "-timeout must be positive"},
		{[]string{"-azure-deployments", "gpt-4o"}, "not model=deployment"},
		{[]string{"-azure-deployments", "a=b"}, "need -azure"},
		{[]string{"-azure"}, "-azure needs -upstream"},
		{[]string{"-web", "/no/such/dir"}, "no such directory"},
		{[]string{"stray"}, "unexpected argument"},
	}
	for _, tc := range bad {
		args := append([]string{"-web", web}, tc.args...)
		_, err := parseConfig(args, noEnv, io.Discard)
		require.Error(t, err, tc.args)
		assert.Contains(t, err.Error(), tc.want, tc.args)
	}
}

func TestRunPrintsTheURLOnceListening(t *testing.T) {
	fake := newFakeUpstream(t, answerCompletion("yes"))
	web, _ := webFixture(t)
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-web", web, "-upstream", fake.URL + "/v1"}, noEnv, stdout, stderr)
	}()

	line := regexp.MustCompile(`^ragjudge: serving (http://127\.0\.0\.1:(\d+)) \(upstream (\S+)\)\n$`)
	require.Eventually(t, func() bool { return line.MatchString(stdout.String()) }, 5*time.Second, 10*time.Millisecond, stdout.String())
	m := line.FindStringSubmatch(stdout.String())
	assert.NotEqual(t, "0", m[2], "the real port, not 0")
	assert.Equal(t, fake.URL+"/v1", m[3])

	resp, err := http.Get(m[1] + "/ragjudge/config")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp = postChat(t, m[1], testKey, chatBody("judge-1", false))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp.Body.Close()

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop when its context ended")
	}
	assert.Contains(t, stderr.String(), "GET /ragjudge/config 200")
	assert.NotContains(t, stderr.String(), "warning", "loopback and a built page: nothing to warn about")
	assert.NotContains(t, stderr.String(), testKey)
}

func TestRunWarnsWhenReachableFromOtherMachines(t *testing.T) {
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "0.0.0.0:0", "-web", t.TempDir()}, noEnv, stdout, stderr)
	}()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "ragjudge: serving http://") }, 5*time.Second, 10*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, stderr.String(), "reachable from other machines")
	assert.Contains(t, stderr.String(), "run `make build`")
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "[::1]:80": true, "localhost:1": true, "app.localhost": true, "127.1.2.3": true,
		"0.0.0.0:8080": false, ":8080": false, "192.168.1.2:80": false, "evil.example": false, "localhost.evil.example": false,
	} {
		assert.Equal(t, want, isLoopback(addr), addr)
	}
}
