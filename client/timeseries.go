package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const pathTimeseries = "/aspects?action=getTimeseriesAspectValues"

// TimeseriesQuery selects values of a timeseries aspect. The zero value
// asks for every value the server returns by default (GMS: 10,000), newest
// first.
type TimeseriesQuery struct {
	// Start, when not zero, keeps values with timestampMillis ≥ Start.
	Start time.Time
	// End, when not zero, keeps values with timestampMillis ≤ End.
	End time.Time
	// Limit, when positive, is the most values returned.
	Limit int
}

// GetTimeseriesJSON reads values of the timeseries aspect aspectName of
// entity u, newest first, as DataHub's Python client's
// get_timeseries_values does: POST /aspects?action=getTimeseriesAspectValues
// with the URN, entity type, aspect name and the query's bounds. It fails,
// wrapping datahub.ErrValidation, for an aspect that is not a timeseries
// aspect of u's entity type.
func (c *Client) GetTimeseriesJSON(ctx context.Context, u urn.URN, aspectName string, q TimeseriesQuery) ([]json.RawMessage, error) {
	info, err := checkAspect(u, aspectName)
	if err != nil {
		return nil, err
	}
	if !info.Timeseries {
		return nil, fmt.Errorf("client: %s is not a timeseries aspect: read it with GetAspect: %w", aspectName, datahub.ErrValidation)
	}
	type params struct {
		URN             string `json:"urn"`
		Entity          string `json:"entity"`
		Aspect          string `json:"aspect"`
		StartTimeMillis *int64 `json:"startTimeMillis,omitempty"`
		EndTimeMillis   *int64 `json:"endTimeMillis,omitempty"`
		Limit           *int   `json:"limit,omitempty"`
	}
	p := params{URN: u.String(), Entity: u.EntityType(), Aspect: aspectName}
	if !q.Start.IsZero() {
		p.StartTimeMillis = aspects.Ptr(q.Start.UnixMilli())
	}
	if !q.End.IsZero() {
		p.EndTimeMillis = aspects.Ptr(q.End.UnixMilli())
	}
	if q.Limit > 0 {
		p.Limit = aspects.Ptr(q.Limit)
	}
	body, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	resp, err := c.tc.Do(ctx, http.MethodPost, pathTimeseries, body)
	if err != nil {
		return nil, err
	}
	var answer struct {
		Value struct {
			Values []struct {
				Aspect struct {
					Value       string `json:"value"`
					ContentType string `json:"contentType"`
				} `json:"aspect"`
			} `json:"values"`
		} `json:"value"`
	}
	if err := json.Unmarshal(resp.Body, &answer); err != nil {
		return nil, fmt.Errorf("client: read %s of %s: answer is not a GetTimeseriesAspectValuesResponse: %w", aspectName, u, err)
	}
	out := make([]json.RawMessage, 0, len(answer.Value.Values))
	for i, v := range answer.Value.Values {
		raw := pegasusBytes(v.Aspect.Value)
		if !json.Valid(raw) {
			return nil, fmt.Errorf("client: read %s of %s: value %d is not JSON", aspectName, u, i)
		}
		out = append(out, json.RawMessage(raw))
	}
	return out, nil
}

// pegasusBytes turns a GenericAspect value, Pegasus bytes (one character
// per byte), back into the bytes it carries. Text with characters above
// U+00FF is taken as the UTF-8 it already is.
func pegasusBytes(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return []byte(s)
		}
		b = append(b, byte(r))
	}
	return b
}

// GetTimeseries reads values of the timeseries aspect A (such as
// aspects.DatasetProfile) of entity u, newest first (see
// GetTimeseriesJSON).
func GetTimeseries[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN, q TimeseriesQuery) ([]A, error) {
	raws, err := c.GetTimeseriesJSON(ctx, u, aspectNameOf[A](), q)
	if err != nil {
		return nil, err
	}
	out := make([]A, 0, len(raws))
	for _, raw := range raws {
		a, err := decodeAspect[A](u, raw)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// LatestTimeseries reads the newest value of the timeseries aspect A of
// entity u (the query with Limit 1, as DataHub's Python client's
// get_latest_timeseries_value). It fails with an error matching
// datahub.ErrNotFound when there is none.
func LatestTimeseries[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN) (A, error) {
	var zero A
	vs, err := GetTimeseries[A](ctx, c, u, TimeseriesQuery{Limit: 1})
	if err != nil {
		return zero, err
	}
	if len(vs) == 0 {
		return zero, notFound(u, aspectNameOf[A]())
	}
	return vs[0], nil
}
