package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

func TestBulkWritesEveryDataset(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"restli", "openapi"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testBulk(t, name)
		})
	}
}

// testBulk runs the example with -endpoint name against the mock.
func testBulk(t *testing.T, name string) {
	s := mockserver.Start(t)
	var out bytes.Buffer
	const n = 500
	ep, err := datahub.ParseEndpoint(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(t.Context(), s.URL(), "", ep, n, &out); err != nil {
		t.Fatalf("run: %v", err)
	}
	v3, restli := s.RequestCount(mockserver.OpV3Write), s.RequestCount(mockserver.OpIngestProposalBatch)+s.RequestCount(mockserver.OpIngestProposal)
	if (ep == datahub.EndpointOpenAPI) != (v3 > 0 && restli == 0) || v3+restli == 0 {
		t.Errorf("-endpoint %s: %d OpenAPI and %d Rest.li writes", name, v3, restli)
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
