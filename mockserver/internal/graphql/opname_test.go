package graphql

import "testing"

func TestOperationName(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body, want string }{
		{"operationName", `{"query":"query a { x } query b { y }","operationName":"b"}`, "b"},
		{"sole named query", `{"query":"# c\nquery getDataset($urn: String!) { dataset(urn: $urn) { urn } }"}`, "getDataset"},
		{"mutation", `{"query":"mutation updateDescription { updateDescription(input: {description: \"query x\"}) }"}`, "updateDescription"},
		{"anonymous", `{"query":"{ dataset(urn: \"x\") { urn } }"}`, ""},
		{"anonymous keyword", `{"query":"query { x }"}`, ""},
		{"two operations", `{"query":"query a { x } query b { y }"}`, ""},
		{"with fragment", `{"query":"query a { ...F } fragment F on Dataset { urn }"}`, "a"},
		{"not JSON", `{`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := OperationName([]byte(tt.body)); got != tt.want {
				t.Errorf("OperationName = %q, want %q", got, tt.want)
			}
		})
	}
}
