package serverconfig

import "testing"

func TestOpenAPIRule(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body string
		want bool
		str  string
	}{
		{`{"noCode":"true","versions":{"acryldata/datahub":{"version":"v1.0.1"}}}`, true, "1.0.1"},
		{`{"noCode":"true","versions":{"acryldata/datahub":{"version":"v1.0.0"}}}`, false, "1.0.0"},
		{`{"versions":{"acryldata/datahub":{"version":"1.2.0rc3"}}}`, true, "1.2.0rc3"},
		{`{"versions":{"acryldata/datahub":{"version":"v0.15.0.5-acryl"}}}`, false, "0.15"},
		{`{"versions":{"acryldata/datahub":{"version":"null"}}}`, false, "null"},
		{`{"versions":{"acryldata/datahub":{"version":"v0.3.11"}},"datahub":{"serverEnv":"cloud"}}`, true, "cloud 0.3.11"},
		{`{"versions":{"acryldata/datahub":{"version":"v0.3.10.9"}},"datahub":{"serverEnv":"cloud"}}`, false, "cloud 0.3.10.9"},
		{`{}`, false, "none"},
	} {
		in, err := Parse([]byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		if in.OpenAPI() != c.want {
			t.Errorf("%s: OpenAPI() = %v, want %v (%+v)", c.str, !c.want, c.want, in)
		}
	}
	if _, err := Parse([]byte(`[]`)); err == nil {
		t.Error("Parse of an array: no error")
	}
	in, _ := Parse([]byte(`{"noCode":"true","datahub":{"serverType":"prod","serverEnv":"core"},"patchCapable":true}`))
	if !in.NoCode || in.ServerType != "prod" || in.Cloud() || !in.PatchCapable {
		t.Errorf("Parse = %+v", in)
	}
}
