package aspects

import "strconv"

// This file holds the appendJSON methods of hand-written types that
// generated types and the common aspects use; TestAppendJSONMatchesReflection
// holds each to encoding/json's output, and with esc to that output escaped
// (see pick).

// appendJSON appends the JSON of a to dst (escaped with esc).
func (a AuditStamp) appendJSON(dst []byte, esc bool) ([]byte, error) {
	dst = append(dst, pick(esc, `{"time":`, `{\"time\":`)...)
	dst = strconv.AppendInt(dst, a.Time, 10)
	dst = append(dst, pick(esc, `,"actor":`, `,\"actor\":`)...)
	dst = appendStringIn(dst, a.Actor, esc)
	if a.Impersonator != nil {
		dst = append(dst, pick(esc, `,"impersonator":`, `,\"impersonator\":`)...)
		dst = appendStringIn(dst, *a.Impersonator, esc)
	}
	if a.Message != nil {
		dst = append(dst, pick(esc, `,"message":`, `,\"message\":`)...)
		dst = appendStringIn(dst, *a.Message, esc)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of t to dst (escaped with esc).
func (t TimeStamp) appendJSON(dst []byte, esc bool) ([]byte, error) {
	dst = append(dst, pick(esc, `{"time":`, `{\"time\":`)...)
	dst = strconv.AppendInt(dst, t.Time, 10)
	if t.Actor != nil {
		dst = append(dst, pick(esc, `,"actor":`, `,\"actor\":`)...)
		dst = appendStringIn(dst, *t.Actor, esc)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of v to dst (escaped with esc).
func (v VersionTag) appendJSON(dst []byte, esc bool) ([]byte, error) {
	start := len(dst)
	if v.VersionTag != nil {
		dst = append(dst, pick(esc, `,"versionTag":`, `,\"versionTag\":`)...)
		dst = appendStringIn(dst, *v.VersionTag, esc)
	}
	if v.MetadataAttribution != nil {
		dst = append(dst, pick(esc, `,"metadataAttribution":`, `,\"metadataAttribution\":`)...)
		dst, _ = v.MetadataAttribution.appendJSON(dst, esc)
	}
	return closeObject(dst, start), nil
}

// appendJSON appends the JSON of m to dst (escaped with esc), sourceDetail
// nil as {}.
func (m MetadataAttribution) appendJSON(dst []byte, esc bool) ([]byte, error) {
	dst = append(dst, pick(esc, `{"time":`, `{\"time\":`)...)
	dst = strconv.AppendInt(dst, m.Time, 10)
	dst = append(dst, pick(esc, `,"actor":`, `,\"actor\":`)...)
	dst = appendStringIn(dst, m.Actor, esc)
	if m.Source != nil {
		dst = append(dst, pick(esc, `,"source":`, `,\"source\":`)...)
		dst = appendStringIn(dst, *m.Source, esc)
	}
	dst = append(dst, pick(esc, `,"sourceDetail":`, `,\"sourceDetail\":`)...)
	if m.SourceDetail == nil {
		dst = append(dst, '{', '}')
	} else {
		dst = appendStringMapIn(dst, m.SourceDetail, esc)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of s to dst (escaped with esc).
func (s Status) appendJSON(dst []byte, esc bool) ([]byte, error) {
	dst = append(dst, pick(esc, `{"removed":`, `{\"removed\":`)...)
	dst = appendBool(dst, s.Removed)
	if s.LifecycleStage != nil {
		dst = append(dst, pick(esc, `,"lifecycleStage":`, `,\"lifecycleStage\":`)...)
		dst = appendStringIn(dst, *s.LifecycleStage, esc)
	}
	if s.LifecycleLastUpdated != nil {
		dst = append(dst, pick(esc, `,"lifecycleLastUpdated":`, `,\"lifecycleLastUpdated\":`)...)
		dst, _ = s.LifecycleLastUpdated.appendJSON(dst, esc)
	}
	return append(dst, '}'), nil
}

// appendJSON appends the JSON of d to dst (escaped with esc),
// customProperties nil as {} and tags nil as [].
func (d DatasetProperties) appendJSON(dst []byte, esc bool) ([]byte, error) {
	return d.appendTo(dst, esc)
}

// appendTo is appendJSON, from a pointer: appendJSON is then small enough
// to be inlined into the method its pointer type gets (through which an
// Aspect holding a DatasetProperties calls it), which then copies the
// struct once instead of twice.
func (d *DatasetProperties) appendTo(dst []byte, esc bool) ([]byte, error) {
	if d.CustomProperties == nil { // the usual: one constant
		dst = append(dst, pick(esc, `{"customProperties":{}`, `{\"customProperties\":{}`)...)
	} else {
		dst = append(dst, pick(esc, `{"customProperties":`, `{\"customProperties\":`)...)
		dst = appendStringMapIn(dst, d.CustomProperties, esc)
	}
	keys := &datasetPropertiesKeys[0]
	if esc {
		keys = &datasetPropertiesKeys[1]
	}
	// One test a member: a loop over an array of them cost 70
	// instructions a call.
	if d.ExternalURL != nil {
		dst = appendStringIn(append(dst, keys[0]...), *d.ExternalURL, esc)
	}
	if d.Name != nil {
		dst = appendStringIn(append(dst, keys[1]...), *d.Name, esc)
	}
	if d.QualifiedName != nil {
		dst = appendStringIn(append(dst, keys[2]...), *d.QualifiedName, esc)
	}
	if d.Description != nil {
		dst = appendStringIn(append(dst, keys[3]...), *d.Description, esc)
	}
	if d.URI != nil {
		dst = appendStringIn(append(dst, keys[4]...), *d.URI, esc)
	}
	if d.Created != nil {
		dst = append(dst, pick(esc, `,"created":`, `,\"created\":`)...)
		dst, _ = d.Created.appendJSON(dst, esc)
	}
	if d.LastModified != nil {
		dst = append(dst, pick(esc, `,"lastModified":`, `,\"lastModified\":`)...)
		dst, _ = d.LastModified.appendJSON(dst, esc)
	}
	if d.Tags == nil { // the usual: one constant, copied without a call
		if esc {
			return append(dst, `,\"tags\":[]}`...), nil
		}
		return append(dst, `,"tags":[]}`...), nil
	}
	dst = append(dst, pick(esc, `,"tags":[`, `,\"tags\":[`)...)
	for i, t := range d.Tags {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendStringIn(dst, t, esc)
	}
	return append(dst, ']', '}'), nil
}

// datasetPropertiesKeys are the keys of DatasetProperties' optional
// strings, in field order: plain, and escaped (see pick).
var datasetPropertiesKeys = [2][5]string{
	{`,"externalUrl":`, `,"name":`, `,"qualifiedName":`, `,"description":`, `,"uri":`},
	{`,\"externalUrl\":`, `,\"name\":`, `,\"qualifiedName\":`, `,\"description\":`, `,\"uri\":`},
}
