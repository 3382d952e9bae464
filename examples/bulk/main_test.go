package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

func TestBulkWritesEveryDataset(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	var out bytes.Buffer
	const n = 500
	if err := run(t.Context(), s.URL(), "", n, &out); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("wrote %d proposals for %d datasets", 2*n, n)) || !strings.Contains(out.String(), fmt.Sprintf(", %d acknowledged", 2*n)) {
		t.Errorf("output = %q", out.String())
	}
	for _, i := range []int{0, n / 2, n - 1} {
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.table_%05d,PROD)", i)
		s.CheckAspect(t, u, aspects.DatasetProperties{Description: aspects.Ptr(fmt.Sprintf("Table %d of the shop database.", i))})
		s.CheckAspect(t, u, aspects.Status{})
	}
	if got := len(s.Proposals()); got != 2*n {
		t.Errorf("mock received %d proposals, want %d", got, 2*n)
	}
}
