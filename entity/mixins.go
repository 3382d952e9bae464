package entity

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/propvalue"
	"github.com/catalogkit/datahub-go/urn"
)

// The rules of the helper methods every type with a shared aspect has
// (generated in entities_gen.go): each takes the address of the aspect
// field, creates the aspect when the field is nil (a remove leaves a nil
// field nil, so that it writes nothing), and changes it as DataHub's
// Python SDK v2 mixins do.

// IngestionActor is the actor the helpers credit in the audit stamps they
// write, as DataHub's Python SDK does: urn:li:corpuser:__ingestion.
const IngestionActor = "urn:li:corpuser:__ingestion"

// ensure returns *p, creating it when nil.
func ensure[A any](p **A) *A {
	if *p == nil {
		*p = new(A)
	}
	return *p
}

// addUnique replaces the items of list with item's key by item, or appends
// item when none has it (Python's add_list_unique).
func addUnique[T any, K comparable](list []T, key func(T) K, item T) []T {
	k := key(item)
	for i := range list {
		if key(list[i]) == k {
			list[i] = item
			return list
		}
	}
	return append(list, item)
}

// removeUnique removes every item of list with key k (Python's
// remove_list_unique).
func removeUnique[T any, K comparable](list []T, key func(T) K, k K) []T {
	return slices.DeleteFunc(list, func(x T) bool { return key(x) == k })
}

func tagKey(t aspects.TagAssociation) string { return t.Tag }

func setTags(p **aspects.GlobalTags, tags []urn.Tag) {
	g := &aspects.GlobalTags{Tags: []aspects.TagAssociation{}}
	for _, t := range tags {
		g.Tags = addUnique(g.Tags, tagKey, aspects.TagAssociation{Tag: t.String()})
	}
	*p = g
}

func addTag(p **aspects.GlobalTags, tag urn.Tag) {
	g := ensure(p)
	g.Tags = addUnique(g.Tags, tagKey, aspects.TagAssociation{Tag: tag.String()})
}

func removeTag(p **aspects.GlobalTags, tag urn.Tag) {
	g := *p
	if g == nil {
		return
	}
	g.Tags = removeUnique(g.Tags, tagKey, tag.String())
}

func termKey(t aspects.GlossaryTermAssociation) string { return t.URN }

// termsStamp is the audit stamp of a glossaryTerms aspect the helpers
// create, as Python's: time 0 by the ingestion actor.
func termsStamp() aspects.AuditStamp { return aspects.AuditStamp{Actor: IngestionActor} }

func setTerms(p **aspects.GlossaryTerms, terms []urn.GlossaryTerm) {
	g := &aspects.GlossaryTerms{Terms: []aspects.GlossaryTermAssociation{}, AuditStamp: termsStamp()}
	for _, t := range terms {
		g.Terms = addUnique(g.Terms, termKey, aspects.GlossaryTermAssociation{URN: t.String()})
	}
	*p = g
}

func ensureTerms(p **aspects.GlossaryTerms) *aspects.GlossaryTerms {
	if *p == nil {
		*p = &aspects.GlossaryTerms{AuditStamp: termsStamp()}
	}
	return *p
}

func addTerm(p **aspects.GlossaryTerms, term urn.GlossaryTerm) {
	g := ensureTerms(p)
	g.Terms = addUnique(g.Terms, termKey, aspects.GlossaryTermAssociation{URN: term.String()})
}

func removeTerm(p **aspects.GlossaryTerms, term urn.GlossaryTerm) {
	g := *p
	if g == nil {
		return
	}
	g.Terms = removeUnique(g.Terms, termKey, term.String())
}

// Actor is a user or a group: what can own an entity.
type Actor interface {
	urn.CorpUser | urn.CorpGroup
	urn.URN
}

// NewOwner returns owner (a user or a group) as an owner of type typ;
// typ "" means a technical owner, as DataHub's Python SDK defaults.
func NewOwner[A Actor](owner A, typ aspects.OwnershipType) aspects.Owner {
	if typ == "" {
		typ = aspects.OwnershipTypeTechnicalOwner
	}
	return aspects.Owner{Owner: owner.String(), Type: typ}
}

// NewCustomOwner returns owner (a user or a group) as an owner of the
// custom ownership type typ (type CUSTOM with typ as its type URN), as
// DataHub's Python SDK makes an owner given an ownership type URN.
func NewCustomOwner[A Actor](owner A, typ urn.OwnershipType) aspects.Owner {
	return aspects.Owner{Owner: owner.String(), Type: aspects.OwnershipTypeCustom, TypeURN: aspects.Ptr(typ.String())}
}

// ownerTypeKey is an owner's key with its type: (owner, type URN or type).
func ownerTypeKey(o aspects.Owner) [2]string {
	if o.TypeURN != nil {
		return [2]string{o.Owner, *o.TypeURN}
	}
	return [2]string{o.Owner, string(o.Type)}
}

// defaultType gives an owner without a type its default one.
func defaultType(o aspects.Owner) aspects.Owner {
	if o.Type == "" {
		o.Type = aspects.OwnershipTypeTechnicalOwner
		if o.TypeURN != nil {
			o.Type = aspects.OwnershipTypeCustom
		}
	}
	return o
}

func setOwners(p **aspects.Ownership, owners []aspects.Owner) {
	o := &aspects.Ownership{Owners: make([]aspects.Owner, 0, len(owners))}
	for _, x := range owners {
		o.Owners = append(o.Owners, defaultType(x))
	}
	*p = o
}

func addOwner(p **aspects.Ownership, owner aspects.Owner) {
	o := ensure(p)
	o.Owners = addUnique(o.Owners, ownerTypeKey, defaultType(owner))
}

func removeOwner(p **aspects.Ownership, owner aspects.Owner) {
	o := *p
	if o == nil {
		return
	}
	if owner.Type == "" && owner.TypeURN == nil {
		o.Owners = removeUnique(o.Owners, func(x aspects.Owner) string { return x.Owner }, owner.Owner)
		return
	}
	o.Owners = removeUnique(o.Owners, ownerTypeKey, ownerTypeKey(owner))
}

func setDomain(p **aspects.Domains, d urn.Domain) {
	*p = &aspects.Domains{Domains: []string{d.String()}}
}

// NewLink returns a link to url described by description (url itself when
// ""), added at time 0 by the ingestion actor, as DataHub's Python SDK
// makes one.
func NewLink(url, description string) aspects.InstitutionalMemoryMetadata {
	if description == "" {
		description = url
	}
	return aspects.InstitutionalMemoryMetadata{URL: url, Description: description, CreateStamp: aspects.AuditStamp{Actor: IngestionActor}}
}

func linkKey(l aspects.InstitutionalMemoryMetadata) string { return l.URL }

func setLinks(p **aspects.InstitutionalMemory, links []aspects.InstitutionalMemoryMetadata) {
	*p = &aspects.InstitutionalMemory{Elements: slices.Clone(links)}
	if (*p).Elements == nil {
		(*p).Elements = []aspects.InstitutionalMemoryMetadata{}
	}
}

func addLink(p **aspects.InstitutionalMemory, url, description string) {
	m := ensure(p)
	m.Elements = addUnique(m.Elements, linkKey, NewLink(url, description))
}

func removeLink(p **aspects.InstitutionalMemory, url string) {
	m := *p
	if m == nil {
		return
	}
	m.Elements = removeUnique(m.Elements, linkKey, url)
}

func setSubtype(p **aspects.SubTypes, subtype string) {
	*p = &aspects.SubTypes{TypeNames: []string{subtype}}
}

func setPlatformInstance(p **aspects.DataPlatformInstance, platform urn.DataPlatform, instance string) error {
	if platform.String() == "" {
		return fmt.Errorf("entity: set platform instance: no platform")
	}
	d := &aspects.DataPlatformInstance{Platform: platform.String()}
	if instance != "" {
		u, err := urn.NewDataPlatformInstance(platform.String(), instance)
		if err != nil {
			return fmt.Errorf("entity: set platform instance: %w", err)
		}
		d.Instance = aspects.Ptr(u.String())
	}
	*p = d
	return nil
}

func setContainer(c **aspects.Container, b **aspects.BrowsePathsV2, parent *Container) error {
	if parent == nil || parent.URN.String() == "" {
		return fmt.Errorf("entity: set container: no parent container")
	}
	if parent.BrowsePathsV2 == nil {
		return fmt.Errorf("entity: set container: parent %s has no browse path (browsePathsV2), so its children's cannot be made: set its own first (SetBrowsePath on a root container)", parent.URN)
	}
	u := parent.URN.String()
	path := append(slices.Clone(parent.BrowsePathsV2.Path), aspects.BrowsePathEntry{ID: u, URN: aspects.Ptr(u)})
	*c = &aspects.Container{Container: u}
	*b = &aspects.BrowsePathsV2{Path: path}
	return nil
}

// ParentKey is a key of package urn that names a container, such as
// urn.DatabaseKey or urn.SchemaKey; a key whose container is in another
// has a Parent method returning that container's key (urn.SchemaKey's
// returns its urn.DatabaseKey).
type ParentKey interface {
	URN() (urn.Container, error)
}

func setContainerKey(c **aspects.Container, b **aspects.BrowsePathsV2, key ParentKey) error {
	if key == nil || reflect.ValueOf(key).Kind() == reflect.Pointer && reflect.ValueOf(key).IsNil() {
		return fmt.Errorf("entity: set container: no container key")
	}
	var chain []string // the key's container first
	for k := key; k != nil; {
		u, err := k.URN()
		if err != nil {
			return fmt.Errorf("entity: set container: %T: %w", k, err)
		}
		chain = append(chain, u.String())
		k = parentOf(k)
	}
	kv := reflect.Indirect(reflect.ValueOf(key))
	if kv.Kind() == reflect.Struct {
		platform, instance := kv.FieldByName("Platform"), kv.FieldByName("Instance")
		if platform.IsValid() && instance.IsValid() && instance.String() != "" {
			pi, err := urn.NewDataPlatformInstance(platform.String(), instance.String())
			if err != nil {
				return fmt.Errorf("entity: set container: %w", err)
			}
			chain = append(chain, pi.String())
		}
	}
	path := make([]aspects.BrowsePathEntry, 0, len(chain))
	for i := len(chain) - 1; i >= 0; i-- {
		path = append(path, aspects.BrowsePathEntry{ID: chain[i], URN: aspects.Ptr(chain[i])})
	}
	*c = &aspects.Container{Container: chain[0]}
	*b = &aspects.BrowsePathsV2{Path: path}
	return nil
}

// parentOf returns the key k's Parent method returns, nil when it has
// none.
func parentOf(k ParentKey) ParentKey {
	m := reflect.ValueOf(k).MethodByName("Parent")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return nil
	}
	p, _ := m.Call(nil)[0].Interface().(ParentKey)
	return p
}

func setBrowsePath(c **aspects.Container, b **aspects.BrowsePathsV2, path []string) error {
	entries := make([]aspects.BrowsePathEntry, 0, len(path))
	last := ""
	for _, p := range path {
		if !strings.HasPrefix(p, "urn:li:") {
			entries = append(entries, aspects.BrowsePathEntry{ID: p})
			continue
		}
		u, err := urn.Parse(p)
		if err != nil {
			return fmt.Errorf("entity: set browse path: %w", err)
		}
		if u.EntityType() == urn.TypeContainer {
			last = u.String()
		}
		entries = append(entries, aspects.BrowsePathEntry{ID: u.String(), URN: aspects.Ptr(u.String())})
	}
	if last != "" {
		*c = &aspects.Container{Container: last}
	}
	*b = &aspects.BrowsePathsV2{Path: entries}
	return nil
}

func propKey(a aspects.StructuredPropertyValueAssignment) string { return a.PropertyURN }

func setStructuredProperty(p **aspects.StructuredProperties, prop urn.StructuredProperty, values []any) error {
	if prop.String() == "" {
		return fmt.Errorf("entity: set structured property: no property URN")
	}
	vs := make([]aspects.PrimitivePropertyValue, 0, len(values))
	for i, v := range values {
		pv, err := propvalue.Of(v)
		if err != nil {
			return fmt.Errorf("entity: set structured property %s: value %d: %w", prop, i, err)
		}
		vs = append(vs, pv)
	}
	s := ensure(p)
	stamp := aspects.AuditStamp{Time: time.Now().UnixMilli(), Actor: IngestionActor}
	for i := range s.Properties {
		if s.Properties[i].PropertyURN == prop.String() {
			s.Properties[i].Values = vs
			s.Properties[i].LastModified = &stamp
			return nil
		}
	}
	created := stamp
	s.Properties = append(s.Properties, aspects.StructuredPropertyValueAssignment{PropertyURN: prop.String(), Values: vs, Created: &created, LastModified: &stamp})
	return nil
}

func removeStructuredProperty(p **aspects.StructuredProperties, prop urn.StructuredProperty) {
	s := *p
	if s == nil {
		return
	}
	s.Properties = removeUnique(s.Properties, propKey, prop.String())
}

func deprecate(p **aspects.Deprecation, note string, decommission time.Time) {
	d := &aspects.Deprecation{Deprecated: true, Note: note, Actor: IngestionActor}
	if !decommission.IsZero() {
		d.DecommissionTime = aspects.Ptr(decommission.UnixMilli())
	}
	*p = d
}

func undeprecate(p **aspects.Deprecation) {
	*p = &aspects.Deprecation{Deprecated: false, Note: "", Actor: IngestionActor}
}

// versionSet returns the version set DataHub's Python SDK puts u in: the
// GUID of {"urn": u} for u's entity type.
func versionSet(u urn.URN) string {
	g, err := urn.GUID(map[string]any{"urn": u.String()})
	if err != nil {
		return ""
	}
	vs, err := urn.NewVersionSet(g, u.EntityType())
	if err != nil {
		return ""
	}
	return vs.String()
}

// sortID pads version to ten characters with zeros in front, as Python's
// str.zfill(10) does (after a sign, if any).
func sortID(version string) string {
	if len(version) >= 10 {
		return version
	}
	pad := strings.Repeat("0", 10-len(version))
	if version != "" && (version[0] == '-' || version[0] == '+') {
		return version[:1] + pad + version[1:]
	}
	return pad + version
}

// ensureVersion returns *p, creating version 0.1.0 in u's version set
// when nil, as Python's _ensure_version_props.
func ensureVersion(p **aspects.VersionProperties, u urn.URN) *aspects.VersionProperties {
	if *p == nil {
		*p = &aspects.VersionProperties{VersionSet: versionSet(u), Version: aspects.VersionTag{VersionTag: aspects.Ptr("0.1.0")}, SortID: "0000000.1.0"}
	}
	return *p
}

func setVersion(p **aspects.VersionProperties, u urn.URN, version string) {
	v := ensureVersion(p, u)
	v.Version = aspects.VersionTag{VersionTag: aspects.Ptr(version)}
	v.VersionSet = versionSet(u)
	v.SortID = sortID(version)
}

func setVersionAliases(p **aspects.VersionProperties, u urn.URN, aliases []string) {
	v := ensureVersion(p, u)
	v.Aliases = make([]aspects.VersionTag, 0, len(aliases))
	for _, a := range aliases {
		v.Aliases = append(v.Aliases, aspects.VersionTag{VersionTag: aspects.Ptr(a)})
	}
}

func addVersionAlias(p **aspects.VersionProperties, u urn.URN, alias string) error {
	if alias == "" {
		return fmt.Errorf("entity: add version alias: the alias is empty")
	}
	v := ensureVersion(p, u)
	v.Aliases = append(v.Aliases, aspects.VersionTag{VersionTag: aspects.Ptr(alias)})
	return nil
}

func removeVersionAlias(p **aspects.VersionProperties, alias string) {
	if *p == nil {
		return
	}
	(*p).Aliases = slices.DeleteFunc((*p).Aliases, func(t aspects.VersionTag) bool {
		return t.VersionTag != nil && *t.VersionTag == alias
	})
}

// customProps returns the address of the customProperties map of *p,
// creating *p when nil.
func customProps[A any](p **A) *map[string]string {
	a := ensure(p)
	v := reflect.ValueOf(a).Elem()
	t := v.Type()
	for i := range t.NumField() {
		if strings.Split(t.Field(i).Tag.Get("json"), ",")[0] == "customProperties" {
			return v.Field(i).Addr().Interface().(*map[string]string)
		}
	}
	panic(fmt.Sprintf("entity: %T has no customProperties", a))
}

func setCustomProperties[A any](p **A, props map[string]string) {
	m := customProps(p)
	*m = make(map[string]string, len(props))
	for k, v := range props {
		(*m)[k] = v
	}
}

func setCustomProperty[A any](p **A, key, value string) {
	m := customProps(p)
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[key] = value
}

func removeCustomProperty[A any](p **A, key string) {
	delete(*customProps(p), key)
}
