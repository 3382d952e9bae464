package aspects

import "strconv"

// This file holds the appendJSON methods of hand-written types that
// generated types and the common aspects use; TestAppendJSONMatchesReflection
// holds each to encoding/json's output.

// appendJSON appends the JSON of a to dst.
func (a AuditStamp) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"time":`...)
	dst = strconv.AppendInt(dst, a.Time, 10)
	dst = append(dst, `,"actor":`...)
	dst = appendString(dst, a.Actor)
	if a.Impersonator != nil {
		dst = append(dst, `,"impersonator":`...)
		dst = appendString(dst, *a.Impersonator)
	}
	if a.Message != nil {
		dst = append(dst, `,"message":`...)
		dst = appendString(dst, *a.Message)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of t to dst.
func (t TimeStamp) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"time":`...)
	dst = strconv.AppendInt(dst, t.Time, 10)
	if t.Actor != nil {
		dst = append(dst, `,"actor":`...)
		dst = appendString(dst, *t.Actor)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of v to dst.
func (v VersionTag) appendJSON(dst []byte) ([]byte, error) {
	start := len(dst)
	if v.VersionTag != nil {
		dst = append(dst, `,"versionTag":`...)
		dst = appendString(dst, *v.VersionTag)
	}
	if v.MetadataAttribution != nil {
		dst = append(dst, `,"metadataAttribution":`...)
		dst, _ = v.MetadataAttribution.appendJSON(dst)
	}
	return closeObject(dst, start), nil
}

// appendJSON appends the JSON of m to dst, sourceDetail nil as {}.
func (m MetadataAttribution) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"time":`...)
	dst = strconv.AppendInt(dst, m.Time, 10)
	dst = append(dst, `,"actor":`...)
	dst = appendString(dst, m.Actor)
	if m.Source != nil {
		dst = append(dst, `,"source":`...)
		dst = appendString(dst, *m.Source)
	}
	dst = append(dst, `,"sourceDetail":`...)
	if m.SourceDetail == nil {
		dst = append(dst, '{', '}')
	} else {
		dst = appendStringMap(dst, m.SourceDetail)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of s to dst.
func (s Status) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"removed":`...)
	dst = appendBool(dst, s.Removed)
	if s.LifecycleStage != nil {
		dst = append(dst, `,"lifecycleStage":`...)
		dst = appendString(dst, *s.LifecycleStage)
	}
	if s.LifecycleLastUpdated != nil {
		dst = append(dst, `,"lifecycleLastUpdated":`...)
		dst, _ = s.LifecycleLastUpdated.appendJSON(dst)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of d to dst, customProperties nil as {} and
// tags nil as [].
func (d DatasetProperties) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"customProperties":`...)
	if d.CustomProperties == nil {
		dst = append(dst, '{', '}')
	} else {
		dst = appendStringMap(dst, d.CustomProperties)
	}
	for _, f := range [...]struct {
		key string
		v   *string
	}{{`,"externalUrl":`, d.ExternalURL}, {`,"name":`, d.Name}, {`,"qualifiedName":`, d.QualifiedName}, {`,"description":`, d.Description}, {`,"uri":`, d.URI}} {
		if f.v != nil {
			dst = append(dst, f.key...)
			dst = appendString(dst, *f.v)
		}
	}
	if d.Created != nil {
		dst = append(dst, `,"created":`...)
		dst, _ = d.Created.appendJSON(dst)
	}
	if d.LastModified != nil {
		dst = append(dst, `,"lastModified":`...)
		dst, _ = d.LastModified.appendJSON(dst)
	}
	dst = append(dst, `,"tags":`...)
	if d.Tags == nil {
		return append(dst, `[]}`...), nil
	}
	dst = append(dst, '[')
	for i, t := range d.Tags {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, t)
	}
	return append(dst, ']', '}'), nil
}

// The escaped twins of the methods above (see appendJSONEscaped in
// appendjson_esc.go); TestAppendJSONMatchesReflection holds each to
// its appendJSON escaped.

// appendJSONEscaped appends the JSON of a to dst, escaped.
func (a AuditStamp) appendJSONEscaped(dst []byte) ([]byte, error) {
	dst = append(dst, `{\"time\":`...)
	dst = strconv.AppendInt(dst, a.Time, 10)
	dst = append(dst, `,\"actor\":`...)
	dst = appendStringEsc(dst, a.Actor)
	if a.Impersonator != nil {
		dst = append(dst, `,\"impersonator\":`...)
		dst = appendStringEsc(dst, *a.Impersonator)
	}
	if a.Message != nil {
		dst = append(dst, `,\"message\":`...)
		dst = appendStringEsc(dst, *a.Message)
	}
	return append(dst, '}'), nil
}

// appendJSONEscaped appends the JSON of t to dst, escaped.
func (t TimeStamp) appendJSONEscaped(dst []byte) ([]byte, error) {
	dst = append(dst, `{\"time\":`...)
	dst = strconv.AppendInt(dst, t.Time, 10)
	if t.Actor != nil {
		dst = append(dst, `,\"actor\":`...)
		dst = appendStringEsc(dst, *t.Actor)
	}
	return append(dst, '}'), nil
}

// appendJSONEscaped appends the JSON of v to dst, escaped.
func (v VersionTag) appendJSONEscaped(dst []byte) ([]byte, error) {
	start := len(dst)
	if v.VersionTag != nil {
		dst = append(dst, `,\"versionTag\":`...)
		dst = appendStringEsc(dst, *v.VersionTag)
	}
	if v.MetadataAttribution != nil {
		dst = append(dst, `,\"metadataAttribution\":`...)
		dst, _ = v.MetadataAttribution.appendJSONEscaped(dst)
	}
	return closeObject(dst, start), nil
}

// appendJSONEscaped appends the JSON of m to dst, escaped, sourceDetail
// nil as {}.
func (m MetadataAttribution) appendJSONEscaped(dst []byte) ([]byte, error) {
	dst = append(dst, `{\"time\":`...)
	dst = strconv.AppendInt(dst, m.Time, 10)
	dst = append(dst, `,\"actor\":`...)
	dst = appendStringEsc(dst, m.Actor)
	if m.Source != nil {
		dst = append(dst, `,\"source\":`...)
		dst = appendStringEsc(dst, *m.Source)
	}
	dst = append(dst, `,\"sourceDetail\":`...)
	if m.SourceDetail == nil {
		dst = append(dst, '{', '}')
	} else {
		dst = appendStringMapEsc(dst, m.SourceDetail)
	}
	return append(dst, '}'), nil
}

// appendJSONEscaped appends the JSON of s to dst, escaped.
func (s Status) appendJSONEscaped(dst []byte) ([]byte, error) {
	dst = append(dst, `{\"removed\":`...)
	dst = appendBool(dst, s.Removed)
	if s.LifecycleStage != nil {
		dst = append(dst, `,\"lifecycleStage\":`...)
		dst = appendStringEsc(dst, *s.LifecycleStage)
	}
	if s.LifecycleLastUpdated != nil {
		dst = append(dst, `,\"lifecycleLastUpdated\":`...)
		dst, _ = s.LifecycleLastUpdated.appendJSONEscaped(dst)
	}
	return append(dst, '}'), nil
}

// appendJSONEscaped appends the JSON of d to dst, escaped, customProperties
// nil as {} and tags nil as [].
func (d DatasetProperties) appendJSONEscaped(dst []byte) ([]byte, error) {
	dst = append(dst, `{\"customProperties\":`...)
	if d.CustomProperties == nil {
		dst = append(dst, '{', '}')
	} else {
		dst = appendStringMapEsc(dst, d.CustomProperties)
	}
	for _, f := range [...]struct {
		key string
		v   *string
	}{{`,\"externalUrl\":`, d.ExternalURL}, {`,\"name\":`, d.Name}, {`,\"qualifiedName\":`, d.QualifiedName}, {`,\"description\":`, d.Description}, {`,\"uri\":`, d.URI}} {
		if f.v != nil {
			dst = append(dst, f.key...)
			dst = appendStringEsc(dst, *f.v)
		}
	}
	if d.Created != nil {
		dst = append(dst, `,\"created\":`...)
		dst, _ = d.Created.appendJSONEscaped(dst)
	}
	if d.LastModified != nil {
		dst = append(dst, `,\"lastModified\":`...)
		dst, _ = d.LastModified.appendJSONEscaped(dst)
	}
	dst = append(dst, `,\"tags\":`...)
	if d.Tags == nil {
		return append(dst, `[]}`...), nil
	}
	dst = append(dst, '[')
	for i, t := range d.Tags {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendStringEsc(dst, t)
	}
	return append(dst, ']', '}'), nil
}
