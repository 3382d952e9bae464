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
	want := "Orders placed on the web shop, one row per order.\n" +
		"  order_id     NUMBER(38,0)   Order id\n" +
		"  customer_id  NUMBER(38,0)   Who ordered\n" +
		"  amount       NUMBER(10,2)   Total in EUR\n" +
		"  placed_at    TIMESTAMP_NTZ  When it was placed\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
