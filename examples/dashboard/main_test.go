package main

import (
	"bytes"
	"testing"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := "upstream of urn:li:dashboard:(looker,sales):\n" +
		"  1 hop(s): urn:li:chart:(looker,revenue_by_day)\n" +
		"  2 hop(s): urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.orders,PROD)\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
