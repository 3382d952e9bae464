package emitter

import (
	"bytes"
	"strconv"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/urn"
)

// The usual proposal (a dataset's aspect of package aspects, no system
// metadata of its own) is written with what it shares with the others of
// its call written once: the fixed head up to the dataset's platform, and
// the system metadata of the call's observation time. Its aspect's JSON is
// appended straight into the body and escaped there as a string, without a
// copy in another buffer (see escapeInPlace).

// datasetHead is the fixed text that starts the proposal object of a
// dataset (entity type "dataset") whose URN has a platform.
const datasetHead = `{"entityType":"dataset","entityUrn":"urn:li:dataset:(urn:li:dataPlatform:`

// appendDatasetHead appends the proposal object's head for the dataset URN
// d with a name: its entity type "dataset" and its URN, as
// `{"entityType":` appendString("dataset") `,"entityUrn":`
// appendDatasetURN(d) write them.
func appendDatasetHead(dst []byte, d urn.Dataset) []byte {
	t := datasetText(d)
	if t[2] == "" { // no platform name: the general pieces
		dst = append(dst, `{"entityType":"dataset","entityUrn":`...)
		return appendDatasetURN(dst, d)
	}
	dst = append(dst, datasetHead...)
	dst = appendPlainBody(dst, t[3])
	dst = append(dst, ',')
	dst = appendPlainBody(dst, t[5])
	dst = append(dst, ',')
	dst = appendPlainBody(dst, t[7])
	return append(dst, ')', '"')
}

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
// an aspect of package aspects: the aspect's JSON appended to dst and
// escaped where it is (see escapeInPlace), without a pooled buffer.
func appendAspectValue(dst []byte, a aspects.Aspect, contentType string) ([]byte, error) {
	mark := len(dst)
	dst = append(dst, `{"value":`...)
	start := len(dst)
	b, err := aspects.AppendJSON(dst, a)
	if err != nil {
		return dst[:mark], checkAspectJSON(a, nil, err)
	}
	if err = checkAspectJSON(a, b[start:], nil); err != nil {
		return dst[:mark], err
	}
	return appendContentType(escapeInPlace(b, start), contentType), nil
}

// maxScratch is the largest aspect JSON escapeInPlace copies on its
// stack; a larger one is copied into a pooled buffer.
const maxScratch = 1024

// escapeInPlace returns dst[:start] followed by appendEscapedString(nil,
// dst[start:]): the text from start (an aspect's JSON, appended to the
// body) escaped as a JSON string where it stood, through a copy of the
// text on the stack (a pooled buffer for a large one).
func escapeInPlace(dst []byte, start int) []byte {
	text := dst[start:]
	if len(text) <= maxScratch {
		var scratch [maxScratch]byte
		n := copy(scratch[:], text)
		return appendEscapedString(dst[:start], scratch[:n])
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.Write(text)
	dst = appendEscapedString(dst[:start], buf.Bytes())
	if buf.Cap() <= 1<<20 {
		bufPool.Put(buf)
	}
	return dst
}
