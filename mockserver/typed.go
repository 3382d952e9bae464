package mockserver

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/catalogkit/datahub-go/aspects"
)

// Get returns the latest version of aspect A of the entity u, decoded
// into A, a struct of package aspects or a pointer to one (or a struct of
// the caller's with an AspectName method); the aspect's name comes from A.
// The entity's URN u is a typed URN (any [fmt.Stringer], such as
// urn.Dataset) or a string:
//
//	props, err := mockserver.Get[aspects.DatasetProperties](s, ds)
//	props, err = mockserver.Get[aspects.DatasetProperties](s, "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
//
// It fails with an error matching datahub.ErrNotFound when there is none,
// and with an *aspects.DecodeError when the stored JSON does not fit a
// struct of package aspects (a member it lacks included); a u of any
// other type is an error too.
// Due async writes are applied first.
func Get[A aspects.Aspect](s *Server, u any) (A, error) {
	var zero A
	name, ptr, err := typedAspect[A]()
	if err != nil {
		return zero, err
	}
	urn, err := urnString(u)
	if err != nil {
		return zero, err
	}
	raw, err := s.GetAspectJSON(urn, name, 0)
	if err != nil {
		return zero, err
	}
	structType := reflect.TypeFor[A]()
	if ptr {
		structType = structType.Elem()
	}
	var v reflect.Value // a pointer to the decoded struct
	if reg, ok := aspects.New(name); ok && reflect.TypeOf(reg) == reflect.PointerTo(structType) {
		got, err := aspects.Decode(name, raw) // strict: a member the struct lacks is an error
		if err != nil {
			return zero, fmt.Errorf("mockserver: decode %s of %s: %w", name, urn, err)
		}
		v = reflect.ValueOf(got)
	} else { // a caller's own struct for the aspect
		v = reflect.New(structType)
		if err := json.Unmarshal(raw, v.Interface()); err != nil {
			return zero, fmt.Errorf("mockserver: decode %s of %s into %v: %w", name, urn, structType, err)
		}
	}
	if !ptr {
		v = v.Elem()
	}
	return v.Interface().(A), nil
}

// Check fails tb unless the latest version of aspect A of the entity u
// (a typed URN or a string, as for [Get]) equals want, reporting a cmp.Diff (-want +got). Nil and empty slices and
// maps are equal: a nil required array or map is written as its PDL
// default [] or {} and reads back empty. It is [Server.CheckAspect] with
// the aspect's type checked by the compiler:
//
//	mockserver.Check(t, s, ds, aspects.Status{Removed: true})
func Check[A aspects.Aspect](tb Tester, s *Server, u any, want A) {
	tb.Helper()
	got, err := Get[A](s, u)
	if err != nil {
		tb.Errorf("mockserver.Check: %v", err)
		return
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		name, _, _ := typedAspect[A]()
		urn, _ := urnString(u)
		tb.Errorf("mockserver: aspect %s of %s mismatch (-want +got):\n%s", name, urn, diff)
	}
}

// urnString returns the URN u as a string: u is a string (or of a string
// type) or a fmt.Stringer such as a typed URN.
func urnString(u any) (string, error) {
	switch v := u.(type) {
	case string:
		return v, nil
	case fmt.Stringer:
		return v.String(), nil
	}
	if rv := reflect.ValueOf(u); rv.IsValid() && rv.Kind() == reflect.String {
		return rv.String(), nil
	}
	return "", fmt.Errorf("mockserver: a URN is a string or a typed URN (a fmt.Stringer), not %T", u)
}

// typedAspect returns the aspect name of A and whether A is a pointer type.
// The name is asked of a non-nil value: a nil *T would panic in T's
// value-receiver AspectName.
func typedAspect[A aspects.Aspect]() (name string, ptr bool, err error) {
	t := reflect.TypeFor[A]()
	switch {
	case t.Kind() == reflect.Struct:
		var zero A
		return zero.AspectName(), false, nil
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		a, ok := reflect.New(t.Elem()).Interface().(aspects.Aspect)
		if ok {
			return a.AspectName(), true, nil
		}
	}
	return "", false, fmt.Errorf("mockserver: %v is not an aspect struct or a pointer to one", t)
}
