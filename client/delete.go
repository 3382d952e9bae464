package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const pathDelete = "/entities?action=delete"

// Undelete clears the soft-delete mark of entity u (status.removed = false)
// that Entities().Delete(ctx, u, false) set.
func (c *Client) Undelete(ctx context.Context, u urn.URN) error {
	return c.setRemoved(ctx, u, false)
}

func (c *Client) setRemoved(ctx context.Context, u urn.URN, removed bool) error {
	return modify(ctx, c, u, true, func(s *aspects.Status) error {
		if s.Removed == removed {
			return ErrNoChange
		}
		s.Removed = removed
		return nil
	})
}

// DeleteResult is what a hard delete removed.
type DeleteResult struct {
	// Rows is the number of aspect rows (all versions) deleted.
	Rows int64 `json:"rows"`
	// TimeseriesRows is the number of timeseries documents deleted.
	TimeseriesRows int64 `json:"timeseriesRows"`
	// Replayed reports that the answer to an earlier attempt was lost (or
	// was a 500, 502 or 504) and the delete was sent again. The counts then
	// cover only the last attempt: rows an earlier attempt removed are not
	// in them, so a replayed delete of an entity the lost attempt removed
	// reports zero rows.
	Replayed bool `json:"-"`
}

// HardDelete is the raw delete action under Entities().Delete(ctx, u, true),
// which is the way to delete an entity: HardDelete answers the counts and
// does not check that u exists. It removes entity u and every version of
// every aspect of it, as
// DataHub's Python client's hard_delete_entity does: POST
// /entities?action=delete {"urn": ...}. References to u from other entities
// stay. Deleting an entity that does not exist removes nothing and is no
// error. A delete whose answer was lost is sent again (it is idempotent);
// the result then says Replayed and its counts cover the last attempt only.
func (c *Client) HardDelete(ctx context.Context, u urn.URN) (DeleteResult, error) {
	if err := checkURN(u); err != nil {
		return DeleteResult{}, err
	}
	body, err := json.Marshal(map[string]string{"urn": u.String()})
	if err != nil {
		return DeleteResult{}, err
	}
	resp, err := c.tc.Do(ctx, http.MethodPost, pathDelete, body)
	if err != nil {
		return DeleteResult{}, err
	}
	var answer struct {
		Value DeleteResult `json:"value"`
	}
	if err := json.Unmarshal(resp.Body, &answer); err != nil {
		return DeleteResult{}, fmt.Errorf("client: delete %s: answer is not a DeleteEntityResponse: %w", u, err)
	}
	answer.Value.Replayed = resp.Replayed
	return answer.Value, nil
}
