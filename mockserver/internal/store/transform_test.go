package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// appendTag is a Transform that adds one tag to a globalTags-like value.
func appendTag(tag string) func(json.RawMessage) (json.RawMessage, error) {
	return func(cur json.RawMessage) (json.RawMessage, error) {
		v := struct {
			Tags []string `json:"tags"`
		}{Tags: []string{}}
		if cur != nil {
			if err := json.Unmarshal(cur, &v); err != nil {
				return nil, err
			}
		}
		v.Tags = append(v.Tags, tag)
		return json.Marshal(v)
	}
}

// TestWriteTransform: Transform sees the latest value (nil when absent,
// earlier batch items included), its result is written as a new version,
// and its error fails the whole batch as a CheckError.
func TestWriteTransform(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		u := "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"
		tw := func(tag string) Write {
			return Write{URN: u, Aspect: "globalTags", Transform: appendTag(tag), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}
		}
		res := mustApply(t, s, tw("a"), tw("b"))
		if res[1].Version != "2" {
			t.Errorf("second transform's version = %q, want 2", res[1].Version)
		}
		got, err := s.Get(u, "globalTags", 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(`{"tags":["a","b"]}`, string(got.Value)); diff != "" {
			t.Errorf("value after two transforms (-want +got):\n%s", diff)
		}
		before := allRows(t, s)
		refuse := errors.New("refused")
		failing := tw("c")
		failing.Transform = func(json.RawMessage) (json.RawMessage, error) { return nil, refuse }
		_, err = s.Apply([]Write{tw("x"), failing})
		var ce *CheckError
		if !errors.As(err, &ce) || ce.Index != 1 || !errors.Is(err, refuse) {
			t.Fatalf("Apply = %v, want a CheckError of item 1 wrapping the transform's error", err)
		}
		if diff := cmp.Diff(before, allRows(t, s)); diff != "" {
			t.Errorf("a failed transform changed the store (-before +after):\n%s", diff)
		}
		notObject := tw("d")
		notObject.Transform = func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`[1]`), nil }
		if _, err := s.Apply([]Write{notObject}); !errors.Is(err, ErrInvalidWrite) {
			t.Errorf("transform returning an array: Apply = %v, want ErrInvalidWrite", err)
		}
	})
}

// TestWriteTransformConcurrent: 64 concurrent transforms of one aspect
// lose nothing, since each runs under the writer lock.
func TestWriteTransformConcurrent(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	u := "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := s.Apply([]Write{{URN: u, Aspect: "globalTags", Transform: appendTag(fmt.Sprint(i)), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Get(u, "globalTags", 0)
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Tags []string }
	if err := json.Unmarshal(got.Value, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Tags) != n || got.SystemMetadata == nil || !strings.Contains(string(got.SystemMetadata), fmt.Sprintf(`"version":"%d"`, n)) {
		t.Errorf("after %d concurrent transforms: %d tags, systemMetadata %s", n, len(v.Tags), got.SystemMetadata)
	}
}
