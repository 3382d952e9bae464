package gms_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

func TestReadVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		h       map[string]string
		want    int64
		wantErr string
	}{
		{nil, 0, ""},
		{map[string]string{"If-Version-Match": " 3 "}, 3, ""},
		{map[string]string{"if-version-match": "2"}, 2, ""},
		{map[string]string{"if-version-match": "2", "If-VERSION-match": "5"}, 5, ""},
		{map[string]string{"If-Version-Match": "x"}, 0, `bad argument: For input string: "x"`},
	} {
		got, err := gms.ReadVersion(tc.h)
		if gotErr := ""; err != nil {
			gotErr = err.Error()
			if gotErr != tc.wantErr {
				t.Errorf("ReadVersion(%v) error = %s, want %q", tc.h, gotErr, tc.wantErr)
			}
			continue
		}
		if tc.wantErr != "" || got != tc.want {
			t.Errorf("ReadVersion(%v) = %d, want %d (error %q)", tc.h, got, tc.want, tc.wantErr)
		}
	}
}

func TestRemoved(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{`{"removed":true}`: true, `{"removed":false}`: false, ``: false, `{}`: false} {
		if got := gms.Removed(json.RawMessage(v)); got != want {
			t.Errorf("Removed(%s) = %v, want %v", v, got, want)
		}
	}
}

func TestTimeseriesLimit(t *testing.T) {
	t.Parallel()
	five := int64(5)
	for _, tc := range []struct {
		limit  *int64
		latest bool
		want   int64
	}{{nil, false, gms.DefaultTimeseriesLimit}, {&five, false, 5}, {&five, true, 1}, {nil, true, 1}} {
		if got := gms.TimeseriesLimit(tc.limit, tc.latest); got != tc.want {
			t.Errorf("TimeseriesLimit(%v, %v) = %d, want %d", tc.limit, tc.latest, got, tc.want)
		}
	}
}
