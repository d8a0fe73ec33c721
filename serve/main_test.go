package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"slices"
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

func TestParseConfigUpstreams(t *testing.T) {
	web := t.TempDir()
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	parse := func(getenv func(string) string, args ...string) ([]upstreamSpec, error) {
		cfg, err := parseConfig(append([]string{"-web", web}, args...), getenv, io.Discard)
		return cfg.Upstreams, err
	}

	got, err := parse(noEnv, "-upstream", "local=http://127.0.0.1:11434/v1/", "-upstream", " openai = https://api.openai.com/v1")
	require.NoError(t, err)
	assert.Equal(t, []upstreamSpec{{Name: "local", URL: "http://127.0.0.1:11434/v1"}, {Name: "openai", URL: "https://api.openai.com/v1"}}, got)
	got, err = parse(noEnv, "-upstream", "http://127.0.0.1:11434/v1", "-upstream", "hosted=https://api.example.com/v1")
	require.NoError(t, err)
	assert.Equal(t, []upstreamSpec{{Name: "default", URL: "http://127.0.0.1:11434/v1"}, {Name: "hosted", URL: "https://api.example.com/v1"}}, got,
		"today's bare -upstream is the default, named \"default\"")

	// Server keys go only where they are meant to.
	keys := env(map[string]string{"OPENAI_API_KEY": "sk-openai", "GROQ_KEY": "sk-groq"})
	two := []string{"-upstream", "a=http://127.0.0.1:11434/v1", "-upstream", "b=https://api.example.com/v1"}
	for _, tc := range []struct {
		name  string
		args  []string
		a, b  string // the server keys
		aEnv  string
		bEnv  string
		alone bool
	}{
		{name: "OPENAI_API_KEY goes to the default", a: "sk-openai", aEnv: "OPENAI_API_KEY"},
		{name: "given to another, the default has none", args: []string{"-upstream-key-env", "b=OPENAI_API_KEY"}, b: "sk-openai", bEnv: "OPENAI_API_KEY"},
		{name: "the default told to take none", args: []string{"-upstream-key-env", "a="}},
		{name: "each its own", args: []string{"-upstream-key-env", "a=GROQ_KEY", "-upstream-key-env", "b=OPENAI_API_KEY"},
			a: "sk-groq", aEnv: "GROQ_KEY", b: "sk-openai", bEnv: "OPENAI_API_KEY"},
		{name: "another variable for the second", args: []string{"-upstream-key-env", "b=GROQ_KEY"}, a: "sk-openai", aEnv: "OPENAI_API_KEY", b: "sk-groq", bEnv: "GROQ_KEY"},
	} {
		got, err := parse(keys, append(slices.Clone(two), tc.args...)...)
		require.NoError(t, err, tc.name)
		assert.Equal(t, []upstreamSpec{
			{Name: "a", URL: "http://127.0.0.1:11434/v1", ServerKey: tc.a, KeyEnv: tc.aEnv},
			{Name: "b", URL: "https://api.example.com/v1", ServerKey: tc.b, KeyEnv: tc.bEnv},
		}, got, tc.name)
	}

	// Azure's flags are the first upstream's.
	got, err = parse(noEnv, "-azure", "-upstream", "az=https://my.openai.azure.com", "-upstream", "local=http://127.0.0.1:11434/v1", "-azure-deployments", "gpt-4o=prod")
	require.NoError(t, err)
	assert.Equal(t, &azureSettings{deployments: map[string]string{"gpt-4o": "prod"}}, got[0].Azure)
	assert.Nil(t, got[1].Azure)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-upstream", "a=http://x/v1", "-upstream", "http://y/v1"}, "name it, as name=URL (only the first -upstream"},
		{[]string{"-upstream", "http://x/v1", "-upstream", "http://y/v1"}, "name it"},
		{[]string{"-upstream", "a b=http://x/v1"}, `the name "a b" is not an upstream name`},
		{[]string{"-upstream", "-a=http://x/v1"}, `the name "-a" is not an upstream name`},
		{[]string{"-upstream", "=http://x/v1"}, `the name "" is not an upstream name`},
		{[]string{"-upstream", strings.Repeat("n", 65) + "=http://x/v1"}, "is not an upstream name"},
		{[]string{"-upstream", "a=http://x/v1", "-upstream", "a=http://y/v1"}, `there is already an upstream named "a"`},
		{[]string{"-upstream", "http://x/v1", "-upstream", "default=http://y/v1"}, `there is already an upstream named "default"`},
		{[]string{"-upstream", "a="}, "want an http or https URL"},
		{[]string{"-upstream", "a=https://user:pw@x/v1"}, "no credentials"},
		{[]string{"-upstream-key-env", "nope=OPENAI_API_KEY"}, `there is no -upstream named "nope"`},
		{[]string{"-upstream-key-env", "OPENAI_API_KEY"}, "want name=VAR"},
		{[]string{"-upstream-key-env", "default=MISSING_KEY"}, "the environment variable MISSING_KEY is empty or not set"},
		{[]string{"-upstream-key-env", "default=NOT-A-VAR"}, `"NOT-A-VAR" is not an environment variable name`},
		{[]string{"-upstream-key-env", "default=", "-upstream-key-env", "default=GROQ_KEY"}, "given a key variable twice"},
		{[]string{"-azure", "-upstream", "local=http://127.0.0.1:11434/v1", "-upstream", "az=https://my.openai.azure.com"}, ""},
		{[]string{"-azure", "-upstream", "x=https://api.openai.com/v1", "-upstream", "az=https://my.openai.azure.com"}, "as the first -upstream"},
	} {
		_, err := parse(keys, tc.args...)
		if tc.want == "" {
			// Allowed: the first upstream is reached as Azure, and the start line says so.
			assert.NoError(t, err, tc.args)
			continue
		}
		require.Error(t, err, tc.args)
		assert.Contains(t, err.Error(), tc.want, tc.args)
	}
}

func TestStartLineNamesEachUpstream(t *testing.T) {
	assert.Equal(t, "upstream https://api.openai.com/v1", describeUpstreams([]upstreamSpec{{Name: "default", URL: "https://api.openai.com/v1", ServerKey: "sk-x", KeyEnv: "OPENAI_API_KEY"}}),
		"one bare -upstream: the line as it was")
	line := describeUpstreams([]upstreamSpec{
		{Name: "local", URL: "http://127.0.0.1:11434/v1"},
		{Name: "openai", URL: "https://api.openai.com/v1", ServerKey: "sk-secret", KeyEnv: "OPENAI_API_KEY"},
	})
	assert.Equal(t, "upstreams local=http://127.0.0.1:11434/v1 (default), openai=https://api.openai.com/v1 (key from OPENAI_API_KEY)", line)
	line = describeUpstreams([]upstreamSpec{
		{Name: "az", URL: "https://my.openai.azure.com", Azure: &azureSettings{}, ServerKey: "sk-secret", KeyEnv: "AZURE_KEY"},
		{Name: "local", URL: "http://127.0.0.1:11434/v1"},
	})
	assert.Equal(t, "upstreams az=https://my.openai.azure.com (default, Azure OpenAI, key from AZURE_KEY), local=http://127.0.0.1:11434/v1", line)
	assert.NotContains(t, line, "sk-secret")
}
