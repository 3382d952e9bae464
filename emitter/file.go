package emitter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// File writes proposals to a file in DataHub's file-sink format: a JSON
// array with one object per proposal, each aspect inline as
// "aspect": {"json": {...}}, indented by four spaces as DataHub's Python
// file sink writes it. The file is valid JSON once Close returns, also when
// an Emit failed half way: a record is either written whole or not at all.
// It is safe for concurrent use.
type File struct {
	mu     sync.Mutex
	f      fileLike
	path   string
	wrote  bool  // a record was written
	good   int64 // file offset after the last whole record
	err    error // sticky write error
	closed bool
	now    func() time.Time
}

// fileLike is what File needs of an *os.File (a seam for tests of write
// errors).
type fileLike interface {
	io.WriteSeeker
	Truncate(size int64) error
	Sync() error
	Close() error
}

// NewFile creates (or truncates) the file at path and starts its array.
func NewFile(path string) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("emitter: %w", err)
	}
	if _, err := f.WriteString("["); err != nil {
		f.Close()
		return nil, fmt.Errorf("emitter: %w", err)
	}
	return &File{f: f, path: path, good: 1, now: time.Now}, nil
}

// Emit appends proposals to the file, all or none: it encodes them first
// and returns an error wrapping datahub.ErrValidation, writing nothing, if
// one cannot be. ctx is only checked before writing. After a write error the
// file is cut back to its last whole record and every later Emit fails.
func (f *File) Emit(ctx context.Context, ps ...Proposal) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.closed:
		return ErrClosed
	case f.err != nil:
		return f.err
	}
	now := f.now().UnixMilli()
	var out bytes.Buffer
	var rec []byte
	for i := range ps {
		p := &ps[i]
		if err := p.check(); err != nil {
			return fileItemErr(len(ps), i, err)
		}
		var err error
		if rec, err = appendProposalAs(rec[:0], p, now, true); err != nil {
			return fileItemErr(len(ps), i, err)
		}
		if f.wrote || i > 0 {
			out.WriteString(",")
		}
		out.WriteString("\n")
		if err := json.Indent(&out, rec, "", "    "); err != nil {
			return fileItemErr(len(ps), i, err)
		}
	}
	if out.Len() == 0 {
		return nil
	}
	n, err := f.f.Write(out.Bytes())
	if err != nil {
		f.err = fmt.Errorf("emitter: write %s: %w", f.path, err)
		if n > 0 { // cut the partial record off so that Close leaves valid JSON
			if terr := f.f.Truncate(f.good); terr == nil {
				_, _ = f.f.Seek(f.good, io.SeekStart)
			}
		}
		return f.err
	}
	f.good += int64(n)
	f.wrote = true
	return nil
}

func fileItemErr(n, i int, err error) error {
	if n == 1 {
		return err
	}
	return fmt.Errorf("emitter: proposal %d: %w", i, err)
}

// Close ends the array, syncs and closes the file. It returns the first
// write error, if any. Close may be called more than once.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return f.err
	}
	f.closed = true
	end := "\n]\n"
	if !f.wrote {
		end = "]\n"
	}
	_, werr := io.WriteString(f.f, end)
	serr := f.f.Sync()
	cerr := f.f.Close()
	if f.err == nil {
		if err := errors.Join(werr, serr, cerr); err != nil {
			f.err = fmt.Errorf("emitter: close %s: %w", f.path, err)
		}
	}
	return f.err
}

// fileRecord is one proposal of a file-sink file as DataHub writes it.
type fileRecord struct {
	EntityType      string                  `json:"entityType"`
	EntityURN       string                  `json:"entityUrn"`
	EntityKeyAspect *fileAspect             `json:"entityKeyAspect"`
	ChangeType      string                  `json:"changeType"`
	AspectName      string                  `json:"aspectName"`
	Aspect          *fileAspect             `json:"aspect"`
	SystemMetadata  *aspects.SystemMetadata `json:"systemMetadata"`
	Headers         map[string]string       `json:"headers"`
	// ProposedSnapshot marks a legacy MetadataChangeEvent record.
	ProposedSnapshot json.RawMessage `json:"proposedSnapshot"`
}

// fileAspect is an aspect in a file: {"json": {...}} as the file sink
// writes it, or the wire form {"value": "...", "contentType": "..."}.
type fileAspect struct {
	JSON        json.RawMessage `json:"json"`
	Value       *string         `json:"value"`
	ContentType string          `json:"contentType"`
}

func (a *fileAspect) raw() (json.RawMessage, string, error) {
	switch {
	case len(a.JSON) > 0:
		return a.JSON, a.ContentType, nil
	case a.Value != nil:
		return json.RawMessage(*a.Value), a.ContentType, nil
	}
	return nil, "", errors.New("aspect has neither json nor value")
}

// ReadFile reads the proposals of a file in DataHub's file-sink format, as
// File writes it and DataHub's Python file sink does. Aspects this SDK
// types are decoded into their structs (a *T of package aspects); others,
// and typed ones holding fields the structs lack, are RawAspect values, so
// nothing is lost. Legacy MetadataChangeEvent records are refused.
func ReadFile(path string) ([]Proposal, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("emitter: %w", err)
	}
	var recs []fileRecord
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, fmt.Errorf("emitter: %s is not a JSON array of proposals: %w", path, err)
	}
	out := make([]Proposal, 0, len(recs))
	for i, rec := range recs {
		p, err := rec.proposal()
		if err != nil {
			return nil, fmt.Errorf("emitter: %s: record %d: %w", path, i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func (rec *fileRecord) proposal() (Proposal, error) {
	if len(rec.ProposedSnapshot) > 0 {
		return Proposal{}, errors.New("legacy MetadataChangeEvent records are not supported")
	}
	p := Proposal{
		EntityType:     rec.EntityType,
		ChangeType:     ChangeType(rec.ChangeType),
		AspectName:     rec.AspectName,
		SystemMetadata: rec.SystemMetadata,
		Headers:        rec.Headers,
	}
	if rec.EntityURN != "" {
		u, err := urn.Parse(rec.EntityURN)
		if err != nil {
			if u, err = urn.ParseGeneric(rec.EntityURN); err != nil {
				return Proposal{}, err
			}
		}
		p.URN = u
	}
	if rec.EntityKeyAspect != nil {
		data, _, err := rec.EntityKeyAspect.raw()
		if err != nil {
			return Proposal{}, fmt.Errorf("entityKeyAspect: %w", err)
		}
		name := ""
		if e, ok := pdl.Registered(rec.EntityType); ok {
			name = e.KeyAspect
		}
		p.KeyAspect = decodeAspect(name, data)
	}
	if rec.Aspect != nil {
		data, ct, err := rec.Aspect.raw()
		if err != nil {
			return Proposal{}, err
		}
		if p.ChangeType == Patch || ct == ContentTypeJSONPatch {
			p.Aspect = RawAspect{Name: rec.AspectName, JSON: data}
		} else {
			p.Aspect = decodeAspect(rec.AspectName, data)
		}
		if ct != "" && ct != p.contentType() {
			p.ContentType = ct
		}
	}
	return p, nil
}

// decodeAspect returns the typed aspect of data when this SDK has one that
// holds all of it, else a RawAspect.
func decodeAspect(name string, data json.RawMessage) aspects.Aspect {
	if a, err := aspects.Decode(name, data); err == nil {
		return a
	}
	return RawAspect{Name: name, JSON: append(json.RawMessage(nil), data...)}
}
