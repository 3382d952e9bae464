package emitter

import (
	"strconv"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// The usual proposal (a dataset's aspect of package aspects, no system
// metadata of its own) is written with what it shares with the others of
// its call written once: the fixed head up to the dataset's platform, and
// the system metadata of the call's observation time. Its aspect's JSON is
// written straight into the body in its escaped form (see
// appendAspectValue).

// appendPlainBody is appendStringBody(dst, s) for the usual short string
// of plain ASCII (a platform, a name, an environment, an aspect name),
// checked a byte at a time and appended as it is; any other goes to
// appendStringBody.
func appendPlainBody(dst []byte, s string) []byte {
	if !plainString(s) {
		return appendStringBody(dst, s)
	}
	return append(dst, s...)
}

// plainString reports whether every byte of s is plain (see
// jsonesc.Plain), eight at a time.
func plainString(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check for the word
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		if jsonesc.PlainBytes(w) != 8 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !plainASCII[s[i]] {
			return false
		}
	}
	return true
}

// defaultSystemMetadata appends to dst the text appendFilledSystemMetadata
// writes for nil system metadata at nowMillis, for a call's proposals to
// share (see appendProposalSM).
func defaultSystemMetadata(dst []byte, nowMillis int64) []byte {
	dst = append(dst, `{"lastObserved":`...)
	dst = strconv.AppendInt(dst, nowMillis, 10)
	return append(dst, defaultSystemMetadataTail...)
}

// smText is the system metadata text of proposals without their own
// observed at ms (see defaultSystemMetadata), never changed once made.
type smText struct {
	ms   int64
	text []byte
}

// defaultSM returns defaultSystemMetadata(nil, nowMillis), made once a
// millisecond for all the calls of r: the Async emitter encodes each
// proposal in a call of its own.
func (r *REST) defaultSM(nowMillis int64) []byte {
	if t := r.sm.Load(); t != nil && t.ms == nowMillis {
		return t.text
	}
	t := &smText{ms: nowMillis, text: defaultSystemMetadata(nil, nowMillis)}
	r.sm.Store(t)
	return t.text
}

// appendAspectValue is appendGenericAspect(dst, a, contentType, false) of
// an aspect of package aspects: the aspect's JSON appended to dst as a
// string by aspects.AppendJSONString, which writes the escaped form of the
// types of package aspects in one pass.
func appendAspectValue(dst []byte, a aspects.Aspect, contentType string) ([]byte, error) {
	mark := len(dst)
	dst = append(dst, `{"value":`...)
	start := len(dst)
	b, err := aspects.AppendJSONString(dst, a)
	if err != nil {
		return dst[:mark], checkAspectJSON(a, nil, err)
	}
	if len(b) < start+2 || (b[start+1] != '{' && b[start+1] != '[') {
		// Not a JSON object or array: the error names its JSON text.
		js, err := aspects.AppendJSON(nil, a)
		return dst[:mark], checkAspectJSON(a, js, err)
	}
	return appendContentType(b, contentType), nil
}
