package gms_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestConditionalWrites checks CREATE, CREATE_ENTITY, If-None-Match and
// If-Version-Match in the core, alone and as item 1 of a batch whose other
// item must then not be written either.
func TestConditionalWrites(t *testing.T) {
	t.Parallel()
	const other = "urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)"
	p := func(aspect, change, ifVersion string, ifNone bool) gms.Proposal {
		pr := upsert(ds, aspect, `{"description":"x"}`)
		if aspect == "datasetKey" {
			pr.Aspect = json.RawMessage(`{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}`)
		}
		pr.ChangeType = change
		pr.Headers = map[string]string{}
		if ifVersion != "" {
			pr.Headers[gms.HeaderIfVersionMatch] = ifVersion
		}
		if ifNone {
			pr.Headers[gms.HeaderIfNoneMatch] = "*"
		}
		return pr
	}
	const props = "datasetProperties"
	tests := []struct {
		name       string
		prior      int // writes of datasetProperties before the conditional one
		p          gms.Proposal
		kind       gms.Kind // 0: accepted
		msg        string
		wantLatest string // datasetProperties' version afterwards ("" = absent)
	}{
		{"If-Version-Match -1 on a new aspect", 0, p(props, "UPSERT", "-1", false), 0, "", "1"},
		{"If-Version-Match -1 on an existing aspect", 1, p(props, "UPSERT", "-1", false), gms.PreconditionFailed, "Expected version -1, actual version 1", "1"},
		{"If-Version-Match current version", 2, p(props, "UPSERT", "2", false), 0, "", "3"},
		{"If-Version-Match stale version", 2, p(props, "UPSERT", "1", false), gms.PreconditionFailed, "Expected version 1, actual version 2", "2"},
		{"If-Version-Match on a missing aspect", 0, p(props, "UPSERT", "1", false), gms.PreconditionFailed, "Expected version 1, actual version -1", ""},
		{"If-Version-Match with If-None-Match still fails", 1, p(props, "UPSERT", "7", true), gms.PreconditionFailed, "Expected version 7, actual version 1", "1"},
		{"CREATE on a new aspect", 0, p(props, "CREATE", "", false), 0, "", "1"},
		{"CREATE on an existing aspect", 2, p(props, "CREATE", "", false), gms.Conflict, gms.MsgCreateExists, "2"},
		{"CREATE on an existing aspect with If-None-Match", 2, p(props, "CREATE", "", true), 0, "", "2"},
		{"CREATE compares If-Version-Match with -1", 0, p(props, "CREATE", "-1", false), 0, "", "1"},
		{"CREATE with another If-Version-Match", 0, p(props, "CREATE", "1", false), gms.PreconditionFailed, "Expected version 1, actual version -1", ""},
		{"CREATE_ENTITY on a new entity", 0, p(props, "CREATE_ENTITY", "", false), 0, "", "1"},
		{"CREATE_ENTITY on an existing entity", 1, p(props, "CREATE_ENTITY", "", false), gms.Conflict, gms.MsgCreateEntityExists, "1"},
		{"CREATE_ENTITY on an existing entity with If-None-Match", 1, p(props, "CREATE_ENTITY", "", true), 0, "", "1"},
		{"CREATE_ENTITY of the key aspect on an existing entity", 1, p("datasetKey", "CREATE_ENTITY", "", false), gms.Conflict, gms.MsgCreateEntityExists, "1"},
	}
	for _, tt := range tests {
		for _, batched := range []bool{false, true} {
			name := tt.name
			if batched {
				name += " (item 1 of a batch)"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				c := newCore(t, gms.Options{})
				ctx := t.Context()
				for i := range tt.prior {
					if err := c.Put(ctx, ds, props, json.RawMessage(`{"description":"v`+string(rune('1'+i))+`"}`)); err != nil {
						t.Fatal(err)
					}
				}
				ps := []gms.Proposal{tt.p}
				if batched {
					ps = []gms.Proposal{upsert(other, "status", `{"removed":false}`), tt.p}
				}
				err := c.Ingest(ctx, ps, gms.IngestOptions{Batch: batched})
				if kindOf(err) != tt.kind || (tt.kind != 0 && !strings.Contains(err.Error(), tt.msg)) {
					t.Errorf("Ingest = %v (kind %v), want kind %v and %q", err, kindOf(err), tt.kind, tt.msg)
				}
				if e, ok := err.(*gms.Error); ok && e.Index != len(ps)-1 {
					t.Errorf("error names item %d, want %d", e.Index, len(ps)-1)
				}
				if ok, _ := c.Exists(ctx, other); batched && ok == (tt.kind != 0) {
					t.Errorf("the batch's other item written = %t with error %v", ok, err)
				}
				latest := ""
				if a, err := c.GetAspect(ctx, ds, props, 0); err == nil {
					var sm struct{ Version string }
					_ = json.Unmarshal(a.SystemMetadata, &sm)
					latest = sm.Version
				}
				if latest != tt.wantLatest {
					t.Errorf("latest version = %q, want %q", latest, tt.wantLatest)
				}
			})
		}
	}
}
