package webhookverify_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/webhookverify"
)

// docPath is the page whose snippets these tests run.
const docPath = "../docs/webhooks.md"

// exampleSecret signed the page's example delivery.
const exampleSecret = "5f0c8d3e7a9b21c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0"

// snippet is the fenced block between <!-- name:begin --> and
// <!-- name:end --> in docs/webhooks.md, without its fences.
func snippet(t *testing.T, name string) string {
	t.Helper()
	page, err := os.ReadFile(docPath)
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(page), "<!-- "+name+":begin -->")
	require.True(t, ok, "%s has no %s:begin marker", docPath, name)
	block, _, ok := strings.Cut(rest, "<!-- "+name+":end -->")
	require.True(t, ok, "%s has no %s:end marker", docPath, name)
	block = strings.TrimSpace(block)
	open, body, ok := strings.Cut(block, "\n")
	require.True(t, ok && strings.HasPrefix(open, "```"), "%s's block does not start with a fence", name)
	body, ok = strings.CutSuffix(body, "```")
	require.True(t, ok, "%s's block does not end with a fence", name)
	return body
}

// exampleDelivery is the page's example request: its headers and body.
func exampleDelivery(t *testing.T) (map[string]string, []byte) {
	t.Helper()
	head, body, ok := strings.Cut(snippet(t, "example-delivery"), "\n\n")
	require.True(t, ok)
	headers := map[string]string{}
	for _, line := range strings.Split(head, "\n")[1:] {
		k, v, ok := strings.Cut(line, ": ")
		require.True(t, ok, line)
		headers[k] = v
	}
	return headers, []byte(strings.TrimSuffix(body, "\n"))
}

// The page's example delivery verifies with the secret the page names,
// and carries the headers the page describes.
func TestDocExampleDeliveryVerifies(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(docPath)
	require.NoError(t, err)
	require.Contains(t, string(page), "`"+exampleSecret+"`")
	headers, body := exampleDelivery(t)
	require.Equal(t, "application/json", headers["Content-Type"])
	var event struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.Unmarshal(body, &event))
	require.Equal(t, event.ID, headers[webhookverify.HeaderEventID])
	sig := headers[webhookverify.HeaderSignature]
	ts := strings.TrimPrefix(strings.Split(sig, ",")[0], "t=")
	sec, err := strconv.ParseInt(ts, 10, 64)
	require.NoError(t, err)
	require.Equal(t, "t="+ts+",v1="+webhook.Sign(exampleSecret, ts, body), sig)
	require.NoError(t, webhookverify.Verify(exampleSecret, sig, body, time.Unix(sec, 0).Add(time.Minute)))
}

// verifyCase is one verification the page's snippets must decide as
// webhookverify does.
type verifyCase struct {
	Name   string `json:"name"`
	Secret string `json:"secret"`
	Header string `json:"header"`
	Body   string `json:"body"`
	Now    int64  `json:"now"`
}

// cases are good and bad deliveries: signed by core, then tampered with.
func cases(t *testing.T) []verifyCase {
	t.Helper()
	headers, example := exampleDelivery(t)
	now := time.Unix(1_767_225_600, 0)
	b := `{"id":"evt_1","type":"send.created","mode":"test","data":{"note":"caf\u00e9 ☕"}}`
	sign := func(secret string, at time.Time, body string) string {
		ts := strconv.FormatInt(at.Unix(), 10)
		return "t=" + ts + ",v1=" + webhook.Sign(secret, ts, []byte(body))
	}
	good := sign(secret, now, b)
	return []verifyCase{
		{"good", secret, good, b, now.Unix()},
		{"good, unicode secret", "sécret ☕", sign("sécret ☕", now, b), b, now.Unix()},
		{"good, several v1", secret, good + ",v1=00ff", b, now.Unix() + 299},
		{"the page's example", exampleSecret, headers[webhookverify.HeaderSignature], string(example), 1_767_225_600},
		{"tampered body", secret, good, strings.Replace(b, "test", "live", 1), now.Unix()},
		{"wrong secret", secret + "x", good, b, now.Unix()},
		{"old t", secret, good, b, now.Unix() + 301},
		{"future t", secret, good, b, now.Unix() - 301},
		{"malformed", secret, "v1=abc", b, now.Unix()},
		{"empty", secret, "", b, now.Unix()},
	}
}

// run feeds cases to a program reading them as JSON on its input and
// printing one line per case, "ok" or a refusal.
func run(t *testing.T, cmd *exec.Cmd, cs []verifyCase) []string {
	t.Helper()
	in, err := json.Marshal(cs)
	require.NoError(t, err)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, len(cs), string(out))
	return lines
}

// requireSameVerdicts checks a snippet's verdicts against webhookverify's.
func requireSameVerdicts(t *testing.T, cs []verifyCase, got []string) {
	t.Helper()
	for i, c := range cs {
		err := webhookverify.Verify(c.Secret, c.Header, []byte(c.Body), time.Unix(c.Now, 0))
		if err == nil {
			require.Equal(t, "ok", got[i], c.Name)
		} else {
			require.NotEqual(t, "ok", got[i], c.Name)
		}
		t.Logf("%-22s %s", c.Name, got[i])
	}
	require.Equal(t, "ok", got[0])
	require.NotEqual(t, "ok", got[4], "a tampered body must be refused")
}

// The page's Python verifier accepts what core signs and refuses what
// webhookverify refuses.
func TestDocPythonVerifier(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	harness := snippet(t, "verify-python") + `

import json
import sys

for c in json.load(sys.stdin):
    try:
        verify(c["secret"], c["header"], c["body"].encode("utf-8"), now=c["now"])
        print("ok")
    except SignatureError as e:
        print("refused: %s" % e)
`
	file := filepath.Join(t.TempDir(), "verify.py")
	require.NoError(t, os.WriteFile(file, []byte(harness), 0o600))
	cs := cases(t)
	requireSameVerdicts(t, cs, run(t, exec.Command(python, file), cs))
}

// The page's dependency-free Go verifier compiles and decides as
// webhookverify does.
func TestDocGoVerifier(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a program")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":           "module docverify\n\ngo 1.22\n",
		"verify/verify.go": snippet(t, "verify-go"),
		"main.go": `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"docverify/verify"
)

func main() {
	var cs []struct {
		Secret, Header, Body string
		Now                  int64
	}
	if err := json.NewDecoder(os.Stdin).Decode(&cs); err != nil {
		panic(err)
	}
	for _, c := range cs {
		if err := verify.Verify(c.Secret, c.Header, []byte(c.Body), time.Unix(c.Now, 0)); err != nil {
			fmt.Println("refused:", err)
		} else {
			fmt.Println("ok")
		}
	}
}
`,
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	}
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
	cs := cases(t)
	requireSameVerdicts(t, cs, run(t, cmd, cs))
}
