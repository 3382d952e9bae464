package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// drain takes every pending event of sub without waiting.
func drain(sub *Subscription) []Event {
	var out []Event
	for {
		e, ok := sub.TryNext()
		if !ok {
			return out
		}
		out = append(out, e)
	}
}

// eventLine is an event as one comparable line: seq, kind, urn, aspect, the
// upserted version or the document's timestamp, and the clock time.
func eventLine(t testing.TB, e Event) string {
	detail := ""
	switch e.Kind {
	case EventUpsert:
		detail = fmt.Sprintf(" v%v %s", sysMeta(t, e.Row.SystemMetadata)["version"], e.Row.Value)
	case EventTimeseries:
		detail = fmt.Sprintf(" @%d %s", e.Doc.TimestampMillis, e.Doc.Value)
	case EventDeleteTimeseries:
		detail = fmt.Sprintf(" @%d", e.Doc.TimestampMillis)
	}
	return fmt.Sprintf("%d %s %s %s%s %s", e.Seq, e.Kind, e.URN, e.Aspect, detail, e.Time.Format(time.TimeOnly))
}

func TestEventsForEveryChange(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock()) // each operation below takes one tick: 12:00:00, 12:00:01, ...
		sub := s.Subscribe()
		defer sub.Close()
		ts := func(ms int) Write {
			return Write{URN: dsURN, Aspect: profile, Value: json.RawMessage(fmt.Sprintf(`{"timestampMillis":%d}`, ms)),
				Timeseries: true, KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
		}
		mustApply(t, s, upsert(`{"description":"a"}`), ts(5))
		mustApply(t, s, upsert(`{"description":"b"}`))
		mustApply(t, s, withSM(upsert(`{"description":"b"}`), `{"runId":"r2"}`)) // same value, new run
		if _, err := s.Apply([]Write{upsert(`{"description":"c"}`), {URN: dsURN, Aspect: props, Value: json.RawMessage(`{}`), Check: ifVersion("9")}}); err == nil {
			t.Fatal("failing batch succeeded")
		}
		if _, _, err := s.DeleteEntity(dsURN); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.DeleteEntity(dsURN); err != nil { // already gone: no events
			t.Fatal(err)
		}
		mustApply(t, s, upsert(`{"description":"d"}`))
		if err := s.Reset(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range drain(sub) {
			got = append(got, eventLine(t, e))
		}
		want := []string{
			"1 upsert " + dsURN + " datasetKey v1 " + dsKeyV + " 12:00:00",
			"2 upsert " + dsURN + ` datasetProperties v1 {"description":"a"} 12:00:00`,
			"3 timeseries " + dsURN + ` datasetProfile @5 {"timestampMillis":5} 12:00:00`,
			"4 upsert " + dsURN + ` datasetProperties v2 {"description":"b"} 12:00:01`,
			"5 upsert " + dsURN + ` datasetProperties v2 {"description":"b"} 12:00:02`,
			"6 deleteAspect " + dsURN + " datasetKey 12:00:04",
			"7 deleteAspect " + dsURN + " datasetProperties 12:00:04",
			"8 deleteTimeseries " + dsURN + " datasetProfile @5 12:00:04",
			"9 deleteEntity " + dsURN + "  12:00:04",
			"10 upsert " + dsURN + " datasetKey v1 " + dsKeyV + " 12:00:06",
			"11 upsert " + dsURN + ` datasetProperties v1 {"description":"d"} 12:00:06`,
			"12 reset   12:00:07",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if got := s.Seq(); got != 12 {
			t.Errorf("Seq = %d, want 12", got)
		}
	})
}

// TestEventsSlowConsumer checks that a consumer that reads nothing while
// writers run loses nothing, and that one that reads concurrently sees every
// event once, in commit order.
func TestEventsSlowConsumer(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		slow, live := s.Subscribe(), s.Subscribe()
		const writers, writes = 4, 50
		var (
			liveSeen []Event
			liveErr  error
			done     = make(chan struct{})
		)
		go func() { // the live consumer writes nothing; it reads until the store closes
			defer close(done)
			for {
				e, err := live.Next(context.Background())
				if err != nil {
					if !errors.Is(err, ErrClosed) {
						liveErr = err
					}
					return
				}
				liveSeen = append(liveSeen, e)
			}
		}()
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				for i := range writes {
					w := Write{URN: urnN(w), Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, i))}
					if _, err := s.Apply([]Write{w}); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if n := slow.Len(); n != writers*writes {
			t.Errorf("slow subscription holds %d events, want %d", n, writers*writes)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		<-done
		if liveErr != nil {
			t.Fatal(liveErr)
		}
		var slowSeen []Event
		for {
			e, err := slow.Next(context.Background())
			if errors.Is(err, ErrClosed) {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			slowSeen = append(slowSeen, e)
		}
		for name, seen := range map[string][]Event{"slow": slowSeen, "live": liveSeen} {
			if len(seen) != writers*writes {
				t.Fatalf("%s: %d events, want %d", name, len(seen), writers*writes)
			}
			next := map[string]int{} // per URN, the next description expected
			for i, e := range seen {
				if e.Seq != uint64(i+1) || e.Kind != EventUpsert {
					t.Fatalf("%s: event %d = %d %s, want seq %d upsert", name, i, e.Seq, e.Kind, i+1)
				}
				if want := fmt.Sprintf(`{"description":"%d"}`, next[e.URN]); string(e.Row.Value) != want {
					t.Fatalf("%s: event %d of %s = %s, want %s", name, i, e.URN, e.Row.Value, want)
				}
				next[e.URN]++
			}
		}
	})
}

func TestSubscriptionLifecycle(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	defer s.Close()
	a, b := s.Subscribe(), s.Subscribe()
	mustApply(t, s, upsert(`{"description":"a"}`))

	// Each subscription has its own copy of the rows.
	ea, _ := a.Peek()
	ea.Row.Value[2] = 'X'
	if eb, _ := b.TryNext(); string(eb.Row.Value) != dsKeyV {
		t.Errorf("b's first event value = %s, want %s", eb.Row.Value, dsKeyV)
	}
	if e, _ := a.TryNext(); e.Seq != 1 || a.Len() != 1 {
		t.Errorf("after Peek and TryNext: seq %d, %d pending; want 1 and 1", e.Seq, a.Len())
	}

	// Next waits until ctx is done.
	drain(b)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next on an empty subscription with a cancelled ctx = %v, want context.Canceled", err)
	}

	// A closed subscription drops what it held and receives nothing more;
	// the others go on. A consumer may write to the store between events.
	b.Close()
	e, err := a.Next(context.Background())
	if err != nil || e.Seq != 2 {
		t.Fatalf("a.Next = %d, %v; want seq 2", e.Seq, err)
	}
	mustApply(t, s, upsert(`{"description":"b"}`))
	if _, err := b.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close = %v, want ErrClosed", err)
	}
	if n := a.Len(); n != 1 {
		t.Errorf("a holds %d events, want 1", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	late := s.Subscribe()
	if _, err := late.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Next of a subscription to a closed store = %v, want ErrClosed", err)
	}
}

func TestRows(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
		s := open(stepClock())
		for i := range 3 {
			mustApply(t, s, Write{URN: urnN(i), Aspect: props, Value: json.RawMessage(`{"description":"a"}`)},
				Write{URN: urnN(i), Aspect: "status", Value: json.RawMessage(`{"removed":false}`)})
		}
		for _, v := range []string{"b", "c", "d"} { // history rows of both aspects of urnN(1)
			mustApply(t, s, Write{URN: urnN(1), Aspect: props, Value: json.RawMessage(`{"description":"` + v + `"}`)},
				Write{URN: urnN(1), Aspect: "status", Value: json.RawMessage(`{"removed":` + strconv.FormatBool(v != "d") + `}`)})
		}
		mustApply(t, s, Write{URN: "urn:li:corpuser:x", Aspect: "status", Value: json.RawMessage(`{"removed":false}`)})
		names := func(rows []Aspect) []string {
			var out []string
			for _, r := range rows {
				out = append(out, r.URN+" "+r.Name)
			}
			return out
		}
		tests := []struct {
			name string
			q    RowQuery
			want []string
		}{
			{"all", RowQuery{}, []string{"urn:li:corpuser:x status", urnN(0) + " status", urnN(0) + " " + props,
				urnN(1) + " status", urnN(1) + " " + props, urnN(2) + " status", urnN(2) + " " + props}},
			{"page", RowQuery{Offset: 2, Limit: 3}, []string{urnN(0) + " " + props, urnN(1) + " status", urnN(1) + " " + props}},
			{"past the end", RowQuery{Offset: 7}, nil},
			{"aspect", RowQuery{Aspect: "status", Offset: 1, Limit: 2}, []string{urnN(0) + " status", urnN(1) + " status"}},
			{"urn prefix", RowQuery{URNPrefix: "urn:li:dataset:", Limit: 2}, []string{urnN(0) + " status", urnN(0) + " " + props}},
			{"urn prefix and aspect", RowQuery{URNPrefix: "urn:li:corpuser:", Aspect: props}, nil},
		}
		for _, tc := range tests {
			got, err := s.Rows(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, names(got)); diff != "" {
				t.Errorf("%s: rows (-want +got):\n%s", tc.name, diff)
			}
		}
		if rows, _ := s.Rows(RowQuery{URNPrefix: urnN(1), Aspect: props}); len(rows) != 1 || string(rows[0].Value) != `{"description":"d"}` {
			t.Errorf("latest row of %s = %v, want the one value d", urnN(1), rows)
		}
		latest, err := s.Latest(urnN(1))
		if err != nil {
			t.Fatal(err)
		}
		var values []string
		for _, a := range latest {
			values = append(values, a.Name+" "+string(a.Value))
		}
		if diff := cmp.Diff([]string{props + ` {"description":"d"}`, `status {"removed":false}`}, values); diff != "" {
			t.Errorf("Latest(%s) (-want +got):\n%s", urnN(1), diff)
		}
	})
}

// urnN is the URN of dataset n.
func urnN(n int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", n)
}

// TestSubscriptionBacklog: a subscription counts its pending events and
// about the memory they hold, and a queue grown by a burst gives its room
// back once drained. It failed before: a drained queue kept room for the
// whole burst.
func TestSubscriptionBacklog(t *testing.T) {
	t.Parallel()
	s := OpenMemory(nil)
	defer s.Close()
	sub := s.Subscribe()
	defer sub.Close()
	ws := make([]Write, 5000)
	for i := range ws {
		ws[i] = Write{URN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,b%05d,PROD)", i), Aspect: "status",
			Value: json.RawMessage(`{"removed":false}`)}
	}
	if _, err := s.Apply(ws); err != nil {
		t.Fatal(err)
	}
	events, bytes := sub.Backlog()
	if events != 5000 || bytes < 5000*(288+len(ws[0].URN)+len(ws[0].Value)) {
		t.Fatalf("backlog of 5,000 writes: %d events, %d bytes", events, bytes)
	}
	for range 4999 {
		sub.TryNext()
	}
	if events, bytes := sub.Backlog(); events != 1 || bytes <= 0 || bytes > 1000 {
		t.Errorf("one pending: %d events, %d bytes", events, bytes)
	}
	sub.TryNext()
	if events, bytes := sub.Backlog(); events != 0 || bytes != 0 {
		t.Errorf("drained: %d events, %d bytes", events, bytes)
	}
	sub.mu.Lock()
	room := cap(sub.queue)
	sub.mu.Unlock()
	if room > maxKeptEvents {
		t.Errorf("the drained queue keeps room for %d events", room)
	}
}
