package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// unversioned is the If-Version-Match value of an aspect that was never
// written (DataHub's UNVERSIONED_ASPECT_VERSION).
const unversioned = "-1"

// GetAspectJSON returns the latest value of aspect aspectName of entity u as
// the server stores it, read as DataHub's Python client reads it: GET
// /aspects/{urn}?aspect=NAME&version=0. It fails with an error matching
// datahub.ErrNotFound when the aspect has no value, and wrapping
// datahub.ErrValidation for a timeseries aspect (read those with
// GetTimeseries) or an aspect the entity type does not have.
//
// The "version" this read answers is 0, meaning "the latest": it is not
// the version a conditional write (If-Version-Match) needs. That one is
// systemMetadata.version, which GetVersioned and GetEntity return.
func (c *Client) GetAspectJSON(ctx context.Context, u urn.URN, aspectName string) (json.RawMessage, error) {
	info, err := checkAspect(u, aspectName)
	if err != nil {
		return nil, err
	}
	if info.Timeseries {
		return nil, fmt.Errorf("client: %s is a timeseries aspect, which GMS does not serve by version: read it with GetTimeseries: %w", aspectName, datahub.ErrValidation)
	}
	return c.getAspectVersion(ctx, u.String(), info, 0)
}

// getAspectVersion reads version v (0 latest, n ≥ 1 a history row) of an
// aspect through GET /aspects.
func (c *Client) getAspectVersion(ctx context.Context, u string, info aspects.Info, v int64) (json.RawMessage, error) {
	if c.openAPI(ctx) {
		return c.getAspectV3(ctx, u, info, v)
	}
	path := "/aspects/" + urn.PathEscape(u) + "?aspect=" + url.QueryEscape(info.Name) + "&version=" + strconv.FormatInt(v, 10)
	resp, err := c.tc.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var va struct {
		Aspect map[string]json.RawMessage `json:"aspect"`
	}
	if err := json.Unmarshal(resp.Body, &va); err != nil {
		return nil, fmt.Errorf("client: read %s of %s: answer is not a VersionedAspect: %w", info.Name, u, err)
	}
	value, ok := va.Aspect[info.RecordName]
	if !ok {
		return nil, fmt.Errorf("client: read %s of %s: answer has no %s member", info.Name, u, info.RecordName)
	}
	return value, nil
}

// GetAspect reads the latest value of the aspect A (a struct of package
// aspects, such as aspects.MLFeatureTableProperties) of entity u, as
// GetAspectJSON does, and decodes it. Members the struct does not know (a
// newer server's fields) are ignored; use Modify to change an aspect
// without losing them. It fails with an error matching datahub.ErrNotFound
// when the aspect has no value.
func GetAspect[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN) (A, error) {
	var a A
	raw, err := c.GetAspectJSON(ctx, u, aspectNameOf[A]())
	if err != nil {
		return a, err
	}
	return decodeAspect[A](u, raw)
}

// Versioned is an aspect value with the version a conditional write of it
// names in If-Version-Match.
type Versioned[A any] struct {
	// Value is the decoded aspect.
	Value A
	// Version is the aspect's systemMetadata.version, such as "3".
	Version string
	// JSON is the value as the server sent it, with members Value's type
	// does not know.
	JSON json.RawMessage
}

// GetVersioned reads the latest value of the aspect A of entity u with its
// version, through GET /entitiesV2/{urn}?aspects=List(NAME) (the read of
// DataHub's Python client's get_entity_raw). The version is the aspect's
// systemMetadata.version ("1" for a value stored without one, as DataHub's
// ConditionalWriteValidator counts it). It fails with an error matching
// datahub.ErrNotFound when the aspect has no value.
func GetVersioned[A aspects.Aspect](ctx context.Context, c *Client, u urn.URN) (Versioned[A], error) {
	var out Versioned[A]
	name := aspectNameOf[A]()
	raw, version, err := c.readVersioned(ctx, u, name)
	if err != nil {
		return out, err
	}
	if raw == nil {
		return out, notFound(u, name)
	}
	v, err := decodeAspect[A](u, raw)
	if err != nil {
		return out, err
	}
	return Versioned[A]{Value: v, Version: version, JSON: raw}, nil
}

// notFound is the error of an aspect without a value.
func notFound(u urn.URN, name string) error {
	return &datahub.Error{StatusCode: http.StatusNotFound, Message: fmt.Sprintf("aspect %s of %s has no value", name, u)}
}

// readVersioned reads one aspect with its version: its JSON and
// systemMetadata.version, or nil and "-1" when it has no value.
func (c *Client) readVersioned(ctx context.Context, u urn.URN, name string) (json.RawMessage, string, error) {
	info, err := checkAspect(u, name)
	if err != nil {
		return nil, "", err
	}
	if info.Timeseries {
		return nil, "", fmt.Errorf("client: %s is a timeseries aspect, which has no versions: %w", name, datahub.ErrValidation)
	}
	e, err := c.GetEntity(ctx, u, name)
	if errors.Is(err, datahub.ErrNotFound) {
		return nil, unversioned, nil
	}
	if err != nil {
		return nil, "", err
	}
	ea, ok := e.Aspects[name]
	if !ok {
		return nil, unversioned, nil
	}
	return ea.Value, ea.Version, nil
}

// RawEntity is an entity as GET /entitiesV2 answers it (DataHub's
// EntityResponse).
type RawEntity struct {
	// URN is the entity's URN.
	URN string `json:"urn"`
	// EntityName is the entity type, such as "dataset".
	EntityName string `json:"entityName"`
	// Aspects holds the aspects read, by name.
	Aspects map[string]EnvelopedAspect `json:"aspects"`
}

// EnvelopedAspect is one aspect of a RawEntity (DataHub's EnvelopedAspect).
type EnvelopedAspect struct {
	// Name is the aspect name.
	Name string `json:"name"`
	// Type is "VERSIONED" or "TIMESERIES".
	Type string `json:"type"`
	// Value is the aspect's JSON.
	Value json.RawMessage `json:"value"`
	// Created says when the value was written and by whom.
	Created aspects.AuditStamp `json:"created"`
	// SystemMetadata is the aspect's system metadata as the server sent it
	// (absent for a key aspect GMS synthesised from the URN).
	SystemMetadata json.RawMessage `json:"systemMetadata,omitempty"`
	// Version is systemMetadata.version: the value a conditional write
	// names in If-Version-Match ("1" when the system metadata has none).
	Version string `json:"-"`
}

// GetEntity reads entity u through GET /entitiesV2/{urn}, all its aspects
// or only those named. GMS adds the entity's key aspect, synthesised from
// the URN when it was never written, so an answer is no proof that the
// entity exists: use Exists for that. It fails with an error matching
// datahub.ErrNotFound when the server has nothing to answer.
func (c *Client) GetEntity(ctx context.Context, u urn.URN, aspectNames ...string) (*RawEntity, error) {
	if err := checkURN(u); err != nil {
		return nil, err
	}
	path := "/entitiesV2/" + urn.PathEscape(u.String())
	if len(aspectNames) > 0 {
		for _, n := range aspectNames {
			if _, err := checkAspect(u, n); err != nil {
				return nil, err
			}
		}
		path += "?aspects=List(" + strings.Join(aspectNames, ",") + ")"
	}
	if c.openAPI(ctx) {
		return c.getEntityV3(ctx, u, aspectNames)
	}
	resp, err := c.tc.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var e RawEntity
	if err := json.Unmarshal(resp.Body, &e); err != nil {
		return nil, fmt.Errorf("client: read %s: answer is not an EntityResponse: %w", u, err)
	}
	for name, a := range e.Aspects {
		a.Version = versionOf(a.SystemMetadata)
		if a.Name == "" {
			a.Name = name
		}
		e.Aspects[name] = a
	}
	return &e, nil
}

// versionOf returns systemMetadata.version, or "1" when there is none.
func versionOf(sm json.RawMessage) string {
	var v struct {
		Version *string `json:"version"`
	}
	if len(sm) == 0 || json.Unmarshal(sm, &v) != nil || v.Version == nil || *v.Version == "" {
		return "1"
	}
	return *v.Version
}

// AspectOf decodes the aspect A of e. It reports false when e does not
// hold it.
func AspectOf[A aspects.Aspect](e *RawEntity) (A, bool, error) {
	var a A
	if e == nil {
		return a, false, nil
	}
	ea, ok := e.Aspects[aspectNameOf[A]()]
	if !ok {
		return a, false, nil
	}
	a, err := decodeAspect[A](stringer(e.URN), ea.Value)
	return a, err == nil, err
}

// Exists reports whether entity u exists, as DataHub's Python client's
// exists() decides it: whether its key aspect has a stored value (GET
// /aspects/{urn}?aspect=<key aspect>&version=0). GMS stores the key aspect
// with the first aspect written to an entity and removes it with a hard
// delete; a soft-deleted entity (status.removed) still exists. GET
// /entitiesV2 is no test: GMS synthesises the key aspect there.
func (c *Client) Exists(ctx context.Context, u urn.URN) (bool, error) {
	if err := checkURN(u); err != nil {
		return false, err
	}
	e, _ := aspects.LookupEntity(u.EntityType())
	info, ok := aspects.Lookup(e.KeyAspect)
	if !ok {
		return false, fmt.Errorf("client: entity type %s has no known key aspect: %w", u.EntityType(), datahub.ErrValidation)
	}
	if c.openAPI(ctx) {
		if found, err := c.headV3(ctx, u.String()); found || err != nil {
			return found, err
		}
		// 404: a soft-deleted entity still exists; the key aspect says.
	}
	_, err := c.getAspectVersion(ctx, u.String(), info, 0)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, datahub.ErrNotFound):
		return false, nil
	}
	return false, err
}

// checkURN refuses a missing URN or an entity type DataHub does not know.
func checkURN(u urn.URN) error {
	if u == nil || reflect.ValueOf(u).Kind() == reflect.Pointer && reflect.ValueOf(u).IsNil() || u.String() == "" {
		return fmt.Errorf("client: no URN: %w", datahub.ErrValidation)
	}
	if _, ok := aspects.LookupEntity(u.EntityType()); !ok {
		return fmt.Errorf("client: unknown entity type %q of %s: %w", u.EntityType(), u, datahub.ErrValidation)
	}
	return nil
}

// checkAspect returns the registry facts of aspect name of u's entity type.
func checkAspect(u urn.URN, name string) (aspects.Info, error) {
	if err := checkURN(u); err != nil {
		return aspects.Info{}, err
	}
	e, _ := aspects.LookupEntity(u.EntityType())
	info, ok := aspects.Lookup(name)
	if !ok || !e.Allows(name) {
		return aspects.Info{}, fmt.Errorf("client: entity type %s has no aspect %q: %w", u.EntityType(), name, datahub.ErrValidation)
	}
	return info, nil
}

// aspectNameOf returns the aspect name of type A, without calling a method
// on a nil pointer.
func aspectNameOf[A aspects.Aspect]() string {
	var a A
	if t := reflect.TypeFor[A](); t.Kind() == reflect.Pointer {
		return reflect.New(t.Elem()).Interface().(aspects.Aspect).AspectName()
	}
	return a.AspectName()
}

// stringer is a string as a fmt.Stringer.
type stringer string

func (s stringer) String() string { return string(s) }

// decodeAspect decodes raw into an A, leniently: unknown members are
// ignored (Modify keeps them).
func decodeAspect[A aspects.Aspect](u fmt.Stringer, raw json.RawMessage) (A, error) {
	var a A
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("client: decode %s of %s: %w", aspectNameOf[A](), u, err)
	}
	return a, nil
}
