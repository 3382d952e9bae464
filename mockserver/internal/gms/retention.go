package gms

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// RetentionArgs are entities?action=applyRetention's parameters
// (BulkApplyRetentionArgs).
type RetentionArgs struct {
	Start, Count, AttemptWithVersion int
	// Aspect and URN restrict the aspects handled (nil: all).
	Aspect, URN *string
}

// RetentionResult is BulkApplyRetentionResult.
type RetentionResult struct {
	Args RetentionArgs
	// RowsHandled counts the history rows the policies removed.
	RowsHandled int
}

// String is the result as Java's Lombok toString writes it, the answer
// GMS sends (the mock's timings are 0).
func (r RetentionResult) String() string {
	str := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	return fmt.Sprintf("BulkApplyRetentionResult(argStart=%d, argCount=%d, argAttemptWithVersion=%d, argUrn=%s, argAspectName=%s, rowsHandled=%d, timeRetentionPolicyMapMs=0, timeRowMs=0, timeApplyRetentionMs=0)",
		r.Args.Start, r.Args.Count, r.Args.AttemptWithVersion, str(r.Args.URN), str(r.Args.Aspect), r.RowsHandled)
}

// retentionKey is com.linkedin.metadata.key.DataHubRetentionKey.
type retentionKey struct {
	EntityName string `json:"entityName"`
	AspectName string `json:"aspectName"`
}

// retentionConfig is com.linkedin.retention.DataHubRetentionConfig.
type retentionConfig struct {
	Retention struct {
		Version *struct {
			MaxVersions int `json:"maxVersions"`
		} `json:"version"`
	} `json:"retention"`
}

// ApplyRetention applies the version retention policies (the
// dataHubRetention entities' dataHubRetentionConfig, most specific first:
// entity and aspect, entity and "*", "*" and aspect, "*" and "*") to the
// aspects with more than AttemptWithVersion versions, from Start, at most
// Count of them, as GMS's entities?action=applyRetention
// (EbeanRetentionService.batchApplyRetentionEntities, which applies
// version retention only): the oldest versions beyond a policy's
// maxVersions are removed. Without a policy nothing is removed.
func (c *Core) ApplyRetention(ctx context.Context, a RetentionArgs) (RetentionResult, error) {
	c.barrier()
	out := RetentionResult{Args: a}
	// The policies are read by URN, as GMS's RetentionService builds the
	// URNs of the four keys an aspect may have a policy under: no scan.
	policies := map[retentionKey]*int{}
	policy := func(k retentionKey) (int, bool) {
		if p, ok := policies[k]; ok {
			return derefOr(p)
		}
		policies[k] = nil
		r, err := c.st.Get(retentionURN(k), "dataHubRetentionConfig", 0)
		var cfg retentionConfig
		if err != nil || json.Unmarshal(r.Value, &cfg) != nil || cfg.Retention.Version == nil {
			return 0, false
		}
		n := cfg.Retention.Version.MaxVersions
		policies[k] = &n
		return n, true
	}
	u, asp := "", ""
	if a.URN != nil {
		u = *a.URN
	}
	if a.Aspect != nil {
		asp = *a.Aspect
	}
	if asp != "" && !anyPolicy(policy, u, asp) {
		return out, nil // no policy applies: nothing to count
	}
	counts, err := c.st.VersionCounts(u, asp)
	if err != nil {
		return out, errorf(Internal, MsgStore, err)
	}
	var over []int
	for i, vc := range counts {
		if vc.Versions > a.AttemptWithVersion {
			over = append(over, i)
		}
	}
	for _, i := range page(over, a.Start, a.Count) {
		vc := counts[i]
		et := EntityTypeOf(vc.URN)
		maxV, ok := 0, false
		for _, k := range []retentionKey{{et, vc.Aspect}, {et, "*"}, {"*", vc.Aspect}, {"*", "*"}} {
			if maxV, ok = policy(k); ok {
				break
			}
		}
		if !ok {
			continue
		}
		n, err := c.st.TrimHistory(vc.URN, vc.Aspect, maxV)
		if err != nil {
			return out, errorf(Internal, MsgStore, err)
		}
		out.RowsHandled += n
	}
	return out, nil
}

// anyPolicy reports whether a policy applies to aspect of urn, or, when
// urn is "", of any entity type that has aspect: the policies are looked up
// by URN (a few reads), so that a call no policy applies to counts no
// versions.
func anyPolicy(policy func(retentionKey) (int, bool), urn, aspect string) bool {
	types := []string{"*"}
	if urn != "" {
		types = append(types, EntityTypeOf(urn))
	} else {
		for _, e := range pdl.Registry() {
			if e.Allows(aspect) {
				types = append(types, e.Name)
			}
		}
	}
	for _, et := range types {
		for _, k := range []retentionKey{{et, aspect}, {et, "*"}} {
			if _, ok := policy(k); ok {
				return true
			}
		}
	}
	return false
}

// retentionURN is the URN of the dataHubRetention entity of key k
// (urn:li:dataHubRetention:(dataset,datasetProperties)).
func retentionURN(k retentionKey) string {
	return "urn:li:dataHubRetention:(" + k.EntityName + "," + k.AspectName + ")"
}

func derefOr(p *int) (int, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}
