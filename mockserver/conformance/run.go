package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// DefaultWait is how long a "wait" step pauses when [Target.Wait] is nil:
// long enough for a GMS's asynchronous writes to reach its search index
// after Elasticsearch's default one-second refresh.
const DefaultWait = 3 * time.Second

// maxBody bounds how much of an answer is read.
const maxBody = 64 << 20

// Target is the server fixtures run against: a DataHub GMS or the mock.
type Target struct {
	// URL is the server's base URL, such as "http://localhost:8080".
	URL string
	// Token, when set, is sent as "Authorization: Bearer Token".
	Token string
	// Client sends the requests; nil uses http.DefaultClient.
	Client *http.Client
	// Wait runs for a fixture's "wait" step, which DataHub's runner uses to
	// let asynchronous writes reach the search index. nil sleeps
	// DefaultWait.
	Wait func(ctx context.Context) error
}

// Result is the outcome of one step.
type Result struct {
	Fixture     string // the fixture's name
	Step        int    // the step's index in the fixture, from 0
	Description string
	Method      string // upper case
	URL         string // the URL sent, with its query
	// Skipped is the fixture's own skip reason; the step was not sent.
	Skipped string
	// Waited is true for a "wait" step.
	Waited bool
	Status int
	Body   []byte
	// Failure says why the step does not conform; "" when it does (or was
	// skipped or waited).
	Failure     string
	Differences []Difference // where the body differs from the expected JSON
}

// ID names the step as "fixture[index]", such as "v3/aspects.json[5]".
func (r Result) ID() string { return StepID(r.Fixture, r.Step) }

// StepID names step i of the fixture called name, as [Result.ID] does.
func StepID(name string, i int) string { return fmt.Sprintf("%s[%d]", name, i) }

// Passed reports whether the step was sent and its answer conforms.
func (r Result) Passed() bool { return r.Failure == "" && r.Skipped == "" && !r.Waited }

// String renders r in one or more lines for a log.
func (r Result) String() string {
	head := fmt.Sprintf("%s %s %s", r.ID(), r.Method, r.URL)
	if r.Description != "" {
		head += " (" + r.Description + ")"
	}
	switch {
	case r.Skipped != "":
		return head + ": skipped by the fixture: " + r.Skipped
	case r.Waited:
		return r.ID() + ": wait"
	case r.Failure == "":
		return fmt.Sprintf("%s: %d ok", head, r.Status)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", head, r.Failure)
	for _, d := range r.Differences {
		b.WriteString("\n\t")
		b.WriteString(d.String())
	}
	if len(r.Differences) > 0 || r.Status >= 300 {
		body := r.Body
		if len(body) > 2000 {
			body = append(body[:2000:2000], "…"...)
		}
		fmt.Fprintf(&b, "\n\tanswer: %s", body)
	}
	return b.String()
}

// Run runs the fixture's steps in order against t and returns one Result
// per step. A step that fails does not stop the ones after it (DataHub's
// runner stops at the first). The error is non-nil only when ctx ends.
func Run(ctx context.Context, t Target, f Fixture) ([]Result, error) {
	out := make([]Result, 0, len(f.Steps))
	for i, s := range f.Steps {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r := Result{Fixture: f.Name, Step: i, Description: s.Request.Description,
			Method: strings.ToUpper(s.Request.Method)}
		switch {
		case s.Request.Skip != "":
			r.Skipped = s.Request.Skip
		case s.Request.Wait:
			r.Waited = true
			if err := t.wait(ctx); err != nil {
				return out, err
			}
		default:
			if err := t.step(ctx, s, &r); err != nil && ctx.Err() != nil {
				return out, ctx.Err()
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func (t Target) wait(ctx context.Context) error {
	if t.Wait != nil {
		return t.Wait(ctx)
	}
	tm := time.NewTimer(DefaultWait)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// request builds the HTTP request of s as Python's requests library does.
func (t Target) request(ctx context.Context, s Step) (*http.Request, error) {
	u := strings.TrimRight(t.URL, "/") + s.Request.URL
	if len(s.Request.Params) > 0 {
		var q strings.Builder
		for i, p := range s.Request.Params {
			if i > 0 {
				q.WriteByte('&')
			}
			q.WriteString(url.QueryEscape(p.Name))
			q.WriteByte('=')
			q.WriteString(url.QueryEscape(p.Value))
		}
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		u += sep + q.String()
	}
	var body io.Reader
	ctype := ""
	switch {
	case s.Request.Data != nil:
		var str string
		var form map[string]any
		if json.Unmarshal(s.Request.Data, &str) == nil {
			body = strings.NewReader(str)
		} else if json.Unmarshal(s.Request.Data, &form) == nil {
			v := url.Values{}
			for k, e := range form {
				if s, ok, _ := pythonStr(e); ok {
					v.Add(k, s)
				}
			}
			body, ctype = strings.NewReader(v.Encode()), "application/x-www-form-urlencoded"
		} else {
			return nil, fmt.Errorf("request.data is neither a string nor an object")
		}
	case s.Request.JSON != nil:
		body, ctype = bytes.NewReader(s.Request.JSON), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, strings.ToUpper(s.Request.Method), u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "*/*")
	req.Header.Set("User-Agent", "datahub-go-conformance")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if t.Token != "" {
		req.Header.Set("Authorization", "Bearer "+t.Token)
	}
	for k, v := range s.Request.Headers {
		req.Header.Set(k, v)
	}
	return req, nil
}

func (t Target) step(ctx context.Context, s Step, r *Result) error {
	req, err := t.request(ctx, s)
	if err != nil {
		r.URL = s.Request.URL
		r.Failure = "cannot build the request: " + err.Error()
		return err
	}
	r.URL = req.URL.String()
	c := t.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		r.Failure = "request failed: " + err.Error()
		return err
	}
	defer resp.Body.Close()
	r.Status = resp.StatusCode
	r.Body, err = io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		r.Failure = "reading the answer: " + err.Error()
		return err
	}
	want := s.Response.StatusCodes
	if want == nil {
		want = DefaultStatusCodes
	}
	if !slices.Contains(want, r.Status) {
		r.Failure = fmt.Sprintf("status %d, want one of %v", r.Status, want)
		return nil
	}
	if s.Response.JSON == nil {
		return nil
	}
	diffs, err := Compare(r.Body, s.Response.JSON, s.Response.ExcludePaths)
	if err != nil {
		r.Failure = "cannot compare: " + err.Error()
		return nil
	}
	if len(diffs) > 0 {
		r.Differences = diffs
		r.Failure = fmt.Sprintf("%d differences from the expected JSON", len(diffs))
	}
	return nil
}

// Contrast lists, one line per step, where two runs of the same fixtures
// differ: a step that passes on one side and fails on the other, answers
// with different statuses, or (for a step that expects JSON) answers JSON
// that differs outside the step's excluded paths. a and b are usually a
// real GMS's results and the mock's, in the same order.
func Contrast(aName string, a []Result, bName string, b []Result, fixtures []Fixture) []string {
	steps := map[string]Step{}
	for _, f := range fixtures {
		for i, s := range f.Steps {
			steps[StepID(f.Name, i)] = s
		}
	}
	bs := map[string]Result{}
	for _, r := range b {
		bs[r.ID()] = r
	}
	verdict := func(r Result) string {
		switch {
		case r.Skipped != "" || r.Waited:
			return "-"
		case r.Passed():
			return "passes"
		}
		return "fails (" + r.Failure + ")"
	}
	var out []string
	for _, ra := range a {
		rb, ok := bs[ra.ID()]
		if !ok || ra.Skipped != "" || ra.Waited {
			continue
		}
		var why []string
		if ra.Passed() != rb.Passed() {
			why = append(why, fmt.Sprintf("%s %s, %s %s", aName, verdict(ra), bName, verdict(rb)))
		}
		if ra.Status != rb.Status {
			why = append(why, fmt.Sprintf("status %s %d, %s %d", aName, ra.Status, bName, rb.Status))
		} else if s := steps[ra.ID()]; s.Response.JSON != nil {
			ds, err := Compare(rb.Body, ra.Body, s.Response.ExcludePaths)
			if err != nil {
				why = append(why, "bodies not comparable: "+err.Error())
			}
			for _, d := range ds {
				why = append(why, fmt.Sprintf("%s (answer: %s, expected: %s)", d, bName, aName))
			}
		}
		if len(why) > 0 {
			out = append(out, fmt.Sprintf("%s %s %s (%s):\n\t%s", ra.ID(), ra.Method, s2path(ra.URL),
				ra.Description, strings.Join(why, "\n\t")))
		}
	}
	return out
}

// s2path drops the scheme and host from a URL so that two servers' URLs read the same.
func s2path(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Scheme, p.Host = "", ""
	return p.String()
}
