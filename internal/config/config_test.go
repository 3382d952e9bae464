package config

import (
	"context"
	"log/slog"
	"net/http"
	"reflect"
	"testing"
	"time"
)

// TestSharedKeepsEverySharedSetting fills every field of Settings and checks
// that Shared keeps each one but the package-specific ones, so that a
// setting added later reaches the emitter a client builds without anyone
// remembering to pass it.
func TestSharedKeepsEverySharedSetting(t *testing.T) {
	t.Parallel()
	s := Settings{
		Token:            "t",
		Headers:          map[string]string{"X-A": "1"},
		HTTPClient:       &http.Client{},
		Timeout:          time.Second,
		Retry:            Retry{Set: true, MaxAttempts: 2, CheckRetry: func(context.Context, *http.Response, error) (bool, error) { return false, nil }, Backoff: func(int, *http.Response) time.Duration { return 0 }},
		Logger:           slog.New(slog.DiscardHandler),
		MaxResponseBytes: 9,
		Endpoint:         2,
		EmitMode:         new(int),
		Emitter:          Emitter{ServerAsync: true, Mode: 1},
		Client:           Client{Actor: "urn:li:corpuser:x"},
	}
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.IsExported() && v.Field(i).IsZero() {
			t.Fatalf("the test leaves Settings.%s zero: fill it", f.Name)
		}
	}
	got := reflect.ValueOf(s.Shared())
	for i := range v.NumField() {
		f := v.Type().Field(i)
		switch {
		case !f.IsExported(), f.Name == "Emitter", f.Name == "Client":
			if !got.Field(i).IsZero() {
				t.Errorf("Shared kept the package-specific Settings.%s", f.Name)
			}
		case f.Type.Kind() == reflect.Func || f.Type.Kind() == reflect.Struct && f.Name == "Retry":
			// Functions compare by presence.
			if got.Field(i).IsZero() {
				t.Errorf("Shared dropped Settings.%s", f.Name)
			}
		default:
			if !reflect.DeepEqual(got.Field(i).Interface(), v.Field(i).Interface()) {
				t.Errorf("Shared changed Settings.%s: %v, want %v", f.Name, got.Field(i), v.Field(i))
			}
		}
	}
	if d := (func() Settings { d := Defaults(); s.Shared().Apply(&d); return d })(); !reflect.DeepEqual(d.Client, Client{}) {
		t.Errorf("settings handed to the emitter carry the client's options: %+v", d.Client)
	}
}
