package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// buildBinary builds datahub-mock into a temporary directory of t.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "datahub-mock")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is a running datahub-mock.
type process struct {
	cmd    *exec.Cmd
	url    string
	stderr *lockedBuffer
	done   chan struct{} // closed when the process has exited
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startBinary runs bin with args and waits for the URL it prints.
func startBinary(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatalf("datahub-mock printed no URL; stderr:\n%s", p.stderr)
		}
		p.url = line
	case <-time.After(30 * time.Second):
		t.Fatalf("datahub-mock did not print its URL; stderr:\n%s", p.stderr)
	}
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(30 * time.Second):
		t.Fatal("datahub-mock did not exit")
		return -1
	}
}

func request(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func proposal(urn, aspect, value string) map[string]any {
	entityType := strings.SplitN(strings.TrimPrefix(urn, "urn:li:"), ":", 2)[0]
	return map[string]any{"entityType": entityType, "entityUrn": urn, "changeType": "UPSERT", "aspectName": aspect,
		"aspect": map[string]any{"value": value, "contentType": "application/json"}}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pathEscape is Python's urllib.parse.quote(s, safe="").
func pathEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.-~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(hex2(c)))
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

func TestBinaryPrintsURLAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	p := startBinary(t, bin, "-addr", "127.0.0.1:0", "-log-level", "debug")
	if !strings.HasPrefix(p.url, "http://127.0.0.1:") || strings.HasSuffix(p.url, ":0") {
		t.Fatalf("printed URL %q", p.url)
	}
	for _, path := range []string{"/config", "/api/gms/config"} {
		if status, body := request(t, http.MethodGet, p.url+path, ""); status != 200 || !strings.Contains(body, `"noCode":"true"`) {
			t.Errorf("GET %s = %d %s", path, status, body)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), "msg=request method=GET path=/api/gms/config op=config status=200") {
		t.Errorf("no debug line per request in stderr:\n%s", p.stderr)
	}
}

// TestBinaryDurability writes through the binary with -data, kills it with
// SIGKILL (no shutdown), restarts it on the same directory and reads every
// acknowledged write back.
func TestBinaryDurability(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	p := startBinary(t, bin, "-addr", "127.0.0.1:0", "-data", dir)
	type write struct{ urn, aspect, value string }
	var writes []write
	for i := range 10 {
		urn := "urn:li:dataset:(urn:li:dataPlatform:hive,t" + itoa(i%3) + ",PROD)"
		w := write{urn, "datasetProperties", `{"description":"v` + itoa(i) + `"}`}
		if status, body := request(t, http.MethodPost, p.url+"/aspects?action=ingestProposal",
			mustJSON(t, map[string]any{"proposal": proposal(w.urn, w.aspect, w.value), "async": "false"})); status != 200 {
			t.Fatalf("write %d = %d %s", i, status, body)
		}
		writes = append(writes, w)
	}
	var batch []map[string]any
	for i := range 5 {
		urn := "urn:li:mlFeature:(ns,f" + itoa(i) + ")"
		w := write{urn, "mlFeatureProperties", `{"description":"f` + itoa(i) + `"}`}
		batch = append(batch, proposal(w.urn, w.aspect, w.value))
		writes = append(writes, w)
	}
	if status, body := request(t, http.MethodPost, p.url+"/api/gms/aspects?action=ingestProposalBatch",
		mustJSON(t, map[string]any{"proposals": batch})); status != 200 {
		t.Fatalf("batch = %d %s", status, body)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t)

	p2 := startBinary(t, bin, "-addr", "127.0.0.1:0", "-data", dir)
	latest := map[string]string{}
	history := map[string][]string{}
	for _, w := range writes {
		latest[w.urn+" "+w.aspect] = w.value
		history[w.urn+" "+w.aspect] = append(history[w.urn+" "+w.aspect], w.value)
	}
	for key, vals := range history {
		urn, aspect, _ := strings.Cut(key, " ")
		for v := 0; v <= len(vals); v++ {
			status, body := request(t, http.MethodGet, p2.url+"/aspects/"+pathEscape(urn)+"?aspect="+aspect+"&version="+itoa(v), "")
			if v == len(vals) && len(vals) > 0 {
				if status != 404 {
					t.Errorf("%s version %d = %d, want 404", key, v, status)
				}
				continue
			}
			want := latest[key] // version 0
			if v > 0 {
				want = vals[v-1]
			}
			var va struct {
				Aspect map[string]json.RawMessage `json:"aspect"`
			}
			if status != 200 || json.Unmarshal([]byte(body), &va) != nil || len(va.Aspect) != 1 {
				t.Errorf("%s version %d = %d %s", key, v, status, body)
				continue
			}
			for _, got := range va.Aspect {
				if diff := cmp.Diff(want, string(got)); diff != "" {
					t.Errorf("%s version %d (-want +got):\n%s", key, v, diff)
				}
			}
		}
	}
}

func TestBinarySeedAndTokens(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	seed := filepath.Join("..", "..", "testdata", "file_sink.json")
	p := startBinary(t, bin, "-addr", "127.0.0.1:0", "-seed", seed, "-token", "t1", "-token", "t2")
	target := p.url + "/aspects/" + pathEscape("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)") + "?aspect=subTypes&version=0"
	if status, _ := request(t, http.MethodGet, target, ""); status != 401 {
		t.Errorf("without a token = %d, want 401", status)
	}
	want := `{"version":0,"aspect":{"com.linkedin.common.SubTypes":{"typeNames":["Table"]}}}`
	for _, tok := range []string{"t1", "t2"} {
		status, body := request(t, http.MethodGet, target, "", "Authorization", "Bearer "+tok)
		if diff := cmp.Diff(want, body); status != 200 || diff != "" {
			t.Errorf("token %s: %d (-want +got):\n%s", tok, status, diff)
		}
	}
	if status, _ := request(t, http.MethodGet, p.url+"/config", ""); status != 200 {
		t.Errorf("/config without a token = %d", status)
	}
	if strings.Contains(p.stderr.String(), "t1") && strings.Contains(p.stderr.String(), "Bearer") {
		t.Errorf("token logged:\n%s", p.stderr)
	}
}

func TestRunFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown flag", []string{"-bogus"}, 2, "flag provided but not defined"},
		{"bad log level", []string{"-log-level", "loud"}, 2, "-log-level"},
		{"extra argument", []string{"extra"}, 2, "unexpected arguments: extra"},
		{"empty token", []string{"-token", ""}, 2, "empty token"},
		{"missing seed", []string{"-addr", "127.0.0.1:0", "-seed", "/nonexistent/seed.json"}, 1, "seed"},
		{"bad address", []string{"-addr", "256.0.0.1:99999"}, 1, "listen"},
		{"url file in a missing directory", []string{"-addr", "127.0.0.1:0", "-url-file", "/nonexistent/dir/url"}, 1, "url file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), tt.args, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
				t.Errorf("run = %d, stderr %q; want %d and %q", code, stderr.String(), tt.code, tt.msg)
			}
		})
	}
}

// TestRunServesUntilCancelled runs the command in process (under the race
// detector) and stops it by cancelling its context, as a signal does.
func TestRunServesUntilCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	var stderr lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-addr", "127.0.0.1:0", "-async-lag", "1h", "-data", t.TempDir(), "-control", "-record", "-server-version", "v1.2.0"}, pw, &stderr)
		pw.Close()
	}()
	url, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url = strings.TrimSpace(url)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	status, body := request(t, http.MethodPost, url+"/aspects?action=ingestProposal",
		mustJSON(t, map[string]any{"proposal": proposal("urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", "status", `{"removed":true}`), "async": "true"}))
	if status != 200 {
		t.Fatalf("async write = %d %s", status, body)
	}
	if status, body := request(t, http.MethodGet, url+"/__datahub_mock/requests", ""); status != 200 || body != `{"value":{"ingestProposal":1}}` {
		t.Errorf("control API = %d %s", status, body)
	}
	if status, body := request(t, http.MethodGet, url+"/__datahub_mock/proposals", ""); status != 200 || !strings.Contains(body, `"async":true`) {
		t.Errorf("control API proposals = %d %s", status, body)
	}
	if status, body := request(t, http.MethodGet, url+"/config", ""); status != 200 || !strings.Contains(body, `"version":"v1.2.0"`) {
		t.Errorf("-server-version: /config = %d %s", status, body)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d; stderr:\n%s", c, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestBinaryDoesNotLinkTesting checks that the binary, and so any main
// that imports mockserver, does not pull in package testing (and its
// flags): mockserver defines its own Tester.
func TestBinaryDoesNotLinkTesting(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".", "github.com/catalogkit/datahub-go/mockserver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/catalogkit/datahub-go/mockserver") {
		t.Fatalf("go list -deps does not list mockserver:\n%s", out)
	}
	for _, d := range deps {
		if d == "testing" || strings.HasPrefix(d, "testing/") {
			t.Errorf("the binary depends on %s", d)
		}
	}
}

// readmeScript returns the shell block of mockserver/README.md that scripts
// the binary with -url-file.
func readmeScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(b), "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, "-url-file") {
			return block
		}
	}
	t.Fatal("README.md has no sh block with -url-file")
	return ""
}

// TestReadmeScript runs the README's scripting snippet with sh (defect 8:
// the documented url=$(datahub-mock | head -n 1) never returned). In place
// of "use $url" the script prints the URL and waits for a line on its
// standard input, while this test makes a request to that URL; then the
// snippet stops the server.
func TestReadmeScript(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh: %v", err)
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	urlFile := filepath.Join(dir, "datahub-mock.url")
	script := readmeScript(t)
	script = strings.ReplaceAll(script, "./datahub-mock ", bin+" ")
	script = strings.ReplaceAll(script, "/tmp/datahub-mock.url", urlFile)
	script = strings.Replace(script, "# ... use $url ...", `echo "url=$url"; read -r line`, 1)
	cmd := exec.Command(sh, "-e", "-c", script)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// The server's own stdout line comes first; the script's has "url=".
	br := bufio.NewReader(stdout)
	var url string
	for url == "" {
		line, err := br.ReadString('\n')
		if err != nil {
			_ = cmd.Process.Kill()
			t.Fatalf("no URL from the script: %v; stderr:\n%s\n--- script:\n%s", err, stderr.String(), script)
		}
		if u, ok := strings.CutPrefix(strings.TrimSpace(line), "url="); ok {
			url = u
		}
	}
	done := make(chan error, 1)
	go func() {
		_, _ = io.Copy(io.Discard, br)
		done <- cmd.Wait()
	}()
	if status, body := request(t, http.MethodGet, url+"/config", ""); status != 200 || !strings.Contains(body, `"noCode":"true"`) {
		t.Errorf("GET %s/config = %d %s", url, status, body)
	}
	if data, err := os.ReadFile(urlFile); err != nil || string(data) != url+"\n" {
		t.Errorf("url file = %q, %v; want %q", data, err, url+"\n")
	}
	if _, err := io.WriteString(stdin, "go on\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("script: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the script did not end; stderr:\n%s", stderr.String())
	}
	if _, err := os.Stat(urlFile); !os.IsNotExist(err) {
		t.Errorf("url file left after exit: %v", err)
	}
}

// TestReadmeScriptServerFails checks that the README's snippet ends, with
// an error, when the server cannot start, instead of waiting for a URL
// file that never comes.
func TestReadmeScriptServerFails(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh: %v", err)
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	script := readmeScript(t)
	script = strings.ReplaceAll(script, "./datahub-mock ", bin+" ")
	script = strings.ReplaceAll(script, "/tmp/datahub-mock.url", filepath.Join(dir, "datahub-mock.url"))
	script = strings.Replace(script, " -url-file ", " -addr 256.0.0.1:99999 -url-file ", 1) // the last -addr wins
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sh, "-e", "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the script did not end:\n%s", out)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !strings.Contains(string(out), "listen") {
		t.Errorf("script = %v, want a non-zero exit and the server's listen error; output:\n%s", err, out)
	}
}

// TestBinarySecondProcessOnSameData checks that a second process on a data
// directory in use fails at once with a message naming the lock and the
// file (it waited 5 s and said only "timeout").
func TestBinarySecondProcessOnSameData(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	startBinary(t, bin, "-addr", "127.0.0.1:0", "-data", dir)
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-data", dir)
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("second process: %v, want exit code 1; stderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"is locked by another process", filepath.Join(dir, "datahub-mock.db")} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not contain %q:\n%s", want, stderr.String())
		}
	}
}
