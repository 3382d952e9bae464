package store

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// crashChildEnv makes the test binary act as the crash test's writer: it
// writes crashWrites aspects to the bbolt file named by the variable,
// printing "ack N" after each Apply returns, until it is killed.
const crashChildEnv = "DATAHUB_GO_STORE_CRASH_CHILD"

const crashWrites = 100000

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	os.Exit(m.Run())
}

func crashURN(i int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.crash%d,PROD)", i)
}

func crashChild(path string) int {
	s, err := OpenBolt(path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	out := bufio.NewWriter(os.Stdout)
	for i := range crashWrites {
		// Each batch writes a new entity and a second version of a shared aspect.
		_, err := s.Apply([]Write{
			{URN: crashURN(i), Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, i)),
				KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)},
			{URN: dsURN, Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, i))},
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Fprintf(out, "ack %d\n", i)
		_ = out.Flush()
	}
	return 0
}

// TestCrashKeepsAcknowledgedWrites runs a child process that writes to a bbolt
// store and reports each acknowledged Apply, kills it with SIGKILL mid-stream,
// and checks that reopening the file shows every acknowledged write.
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const killAfter = 40
	acked := -1
	sc := bufio.NewScanner(stdout)
	deadline := time.AfterFunc(2*time.Minute, func() { _ = cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		n, err := strconv.Atoi(sc.Text()[len("ack "):])
		if err != nil {
			t.Fatalf("child said %q", sc.Text())
		}
		acked = n
		if acked == killAfter {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	// Drain whatever the child printed before the signal landed.
	for sc.Scan() {
		if n, err := strconv.Atoi(sc.Text()[len("ack "):]); err == nil {
			acked = n
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed by SIGKILL: %v", err)
	}
	if acked < killAfter {
		t.Fatalf("child acknowledged only %d writes", acked+1)
	}

	s, err := OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i <= acked; i++ {
		a, err := s.Get(crashURN(i), props, 0)
		if err != nil {
			t.Fatalf("acknowledged write %d lost: %v", i, err)
		}
		if want := fmt.Sprintf(`{"description":"%d"}`, i); string(a.Value) != want {
			t.Errorf("write %d reads back %s", i, a.Value)
		}
		if !s.Exists(crashURN(i)) {
			t.Errorf("entity %d lost its key aspect", i)
		}
	}
	// The shared aspect has at least acked+1 versions, gap-free.
	latest := mustGet(t, s, dsURN, props, 0)
	n, _ := strconv.Atoi(sysMeta(t, latest.SystemMetadata)["version"].(string))
	if n < acked+1 {
		t.Errorf("shared aspect at version %d, want >= %d", n, acked+1)
	}
	for v := int64(1); v < int64(n); v++ {
		a := mustGet(t, s, dsURN, props, v)
		if want := fmt.Sprintf(`{"description":"%d"}`, v-1); string(a.Value) != want {
			t.Errorf("history row %d = %s, want %s", v, a.Value, want)
		}
	}
	// The store still takes writes.
	if res := mustApply(t, s, upsert(`{"description":"after"}`)); res[0].Version != strconv.Itoa(n+1) {
		t.Errorf("write after reopen got version %s, want %d", res[0].Version, n+1)
	}
}

// TestBoltReopen writes with bbolt, closes, reopens and reads everything back.
func TestBoltReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := OpenBolt(path, stepClock())
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, s, upsert(`{"description":"a"}`), tsWrite(10, `"rowCount":1`))
	mustApply(t, s, upsert(`{"description":"b"}`), Write{URN: dsURN, Aspect: "status", Value: json.RawMessage(`{"removed":false}`)})
	mustApply(t, s, tsWrite(20, `"rowCount":2`), upsert(`{"description":"c"}`))
	type snapshot struct {
		All     []Aspect
		History []Aspect
		Docs    []TimeseriesDoc
		Exists  bool
	}
	take := func(s *Store) snapshot {
		var snap snapshot
		snap.All = allRows(t, s)
		for v := int64(1); v <= 2; v++ {
			snap.History = append(snap.History, mustGet(t, s, dsURN, props, v))
		}
		snap.Docs, err = s.Timeseries(dsURN, profile, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		snap.Exists = s.Exists(dsURN)
		return snap
	}
	before := take(s)
	if len(before.All) != 3 || len(before.Docs) != 2 || !before.Exists {
		t.Fatalf("unexpected state before close: %d rows, %d docs, exists %v", len(before.All), len(before.Docs), before.Exists)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = OpenBolt(path, stepClock())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if diff := cmp.Diff(before, take(s)); diff != "" {
		t.Errorf("state after reopen (-before +after):\n%s", diff)
	}
	// Versioning continues where it stopped.
	if res := mustApply(t, s, upsert(`{"description":"d"}`)); res[0].Version != "4" {
		t.Errorf("next version after reopen = %s, want 4", res[0].Version)
	}
}

func TestOpenBoltErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := OpenBolt(filepath.Join(dir, "missing", "store.db"), nil); err == nil {
		t.Error("OpenBolt in a missing directory succeeded")
	}
	notDB := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(notDB, []byte("this is not a bbolt file, not at all, no"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenBolt(notDB, nil); err == nil {
		t.Error("OpenBolt of a junk file succeeded")
	}
}
