package urn

import (
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/internal/errs"
)

// URN is implemented by every typed URN in this package and by [Generic].
type URN interface {
	// String returns the URN in DataHub's text form, such as
	// "urn:li:corpuser:jdoe". The zero value of a typed URN returns "".
	String() string
	// EntityType returns the entity type named by the URN, such as "dataset".
	EntityType() string
}

// TypeDataset and the other Type constants are the entity types of the typed
// URNs, spelled as in DataHub's entity registry.
const (
	TypeDataset        = "dataset"
	TypeMLFeature      = "mlFeature"
	TypeMLFeatureTable = "mlFeatureTable"
	TypeMLModel        = "mlModel"
	TypeMLModelGroup   = "mlModelGroup"
	TypeCorpUser       = "corpuser"
	TypeDataPlatform   = "dataPlatform"
	TypeTest           = "test"
	TypeTag            = "tag"
	TypeGlossaryTerm   = "glossaryTerm"
	TypeSchemaField    = "schemaField"
)

// prefix starts every DataHub URN.
const prefix = "urn:li:"

// MaxEncodedLength is the largest URL-encoded length, in bytes, that DataHub
// accepts for a URN on write. Schema field URNs are exempt.
const MaxEncodedLength = 512

// unitSeparator is the character DataHub reserves everywhere in a URN.
const unitSeparator = "\u241f"

// fabricTypes are the symbols of DataHub's FabricType enum, in PDL order
// (isFabricType lists them too).
var fabricTypes = []string{
	"DEV", "TEST", "QA", "UAT", "EI", "PRE", "STG", "NON_PROD", "PROD",
	"CORP", "RVW", "PRD", "TST", "SIT", "SBX", "SANDBOX", "CERT",
}

// FabricTypes returns the environment names DataHub accepts in dataset,
// ML model and ML model group URNs (the FabricType enum), in DataHub's order.
func FabricTypes() []string {
	return append([]string(nil), fabricTypes...)
}

// isFabricType reports whether env is a FabricType symbol, case-sensitively.
func isFabricType(env string) bool {
	switch env {
	case "DEV", "TEST", "QA", "UAT", "EI", "PRE", "STG", "NON_PROD", "PROD",
		"CORP", "RVW", "PRD", "TST", "SIT", "SBX", "SANDBOX", "CERT":
		return true
	}
	return false
}

// fabricType returns the FabricType symbol env names and whether it names
// one: exactly, or, if fold, in any case of ASCII letters. The symbol is
// the constant in fabricTypes, so that folding allocates nothing.
func fabricType(env string, fold bool) (string, bool) {
	for _, f := range fabricTypes {
		if len(env) == len(f) && (env == f || fold && asciiUpperIs(env, f)) {
			return f, true
		}
	}
	return "", false
}

// asciiUpperIs reports whether s upper-cased as ASCII is up (which is
// upper-case ASCII and as long as s).
func asciiUpperIs(s, up string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != up[i] {
			return false
		}
	}
	return true
}

// ParseError reports a string that is not a valid URN, or builder arguments
// that cannot form one. errors.Is(err, datahub.ErrValidation) holds for it.
type ParseError struct {
	// Input is the string that failed to parse. For a builder (NewDataset and
	// friends) it is the URN that the arguments would have formed.
	Input string
	// Reason says what is wrong with Input, such as "want 3 parts, got 2".
	Reason string

	// kind is the entity type that was expected or read, for the message.
	kind string
}

// maxQuoted is how many bytes of Input an error message shows.
const maxQuoted = 200

// Error formats the failure as `urn: invalid <type> urn "<input>": <reason>`.
// Inputs longer than 200 bytes are shortened in the message (not in Input).
func (e *ParseError) Error() string {
	in := e.Input
	if len(in) > maxQuoted {
		in = in[:maxQuoted] + "..."
	}
	kind := ""
	if e.kind != "" {
		kind = e.kind + " "
	}
	return fmt.Sprintf("urn: invalid %surn %q: %s", kind, in, e.Reason)
}

// Unwrap returns [datahub.ErrValidation], so that callers can treat a bad URN
// like any other input the server would refuse.
func (e *ParseError) Unwrap() error { return errs.ErrValidation }

// newError returns a *ParseError for input with a formatted reason.
func newError(kind, input, format string, args ...any) *ParseError {
	return &ParseError{Input: input, Reason: fmt.Sprintf(format, args...), kind: kind}
}

// Escape percent-encodes the characters DataHub reserves inside URN parts,
// exactly as DataHub's UrnEncoder does: "," → "%2C", "(" → "%28",
// ")" → "%29" and "␟" (U+241F) → "%E2%90%9F". Every other character,
// including "%", ":", "/" and spaces, is left as it is, so Escape is not
// reversible for parts that already contain such sequences.
func Escape(part string) string {
	if !strings.ContainsAny(part, ",()"+unitSeparator) {
		return part
	}
	return escaper.Replace(part)
}

var escaper = strings.NewReplacer(
	",", "%2C",
	"(", "%28",
	")", "%29",
	unitSeparator, "%E2%90%9F",
)

// PathEscape encodes a whole URN for use as one path segment, such as in
// GET /aspects/{urn}, as Python's urllib.parse.quote(urn, safe="") does:
// every byte except ASCII letters, digits and "_.-~" becomes %XX.
//
//	urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)
//	→ urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%2CPROD%29
func PathEscape(urn string) string {
	n := encodedLen(urn)
	if n == len(urn) {
		return urn
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, n)
	for i := 0; i < len(urn); i++ {
		c := urn[i]
		if unreserved(c) {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}

// encodedLen returns len(PathEscape(s)) without building it.
func encodedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if byteClass[s[i]] != 0 {
			n += 2
		}
	}
	return n
}

// Classes of bytes in byteClass.
const (
	classReserved = 1 // PathEscape encodes it
	classSplit    = 2 // PathEscape encodes it, and it is "(", ")" or ","
)

// byteClass is the class of each byte: 0 for those PathEscape leaves as
// they are (see unreserved).
var byteClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '(' || c == ')' || c == ',':
			t[c] = classSplit
		case !unreserved(byte(c)):
			t[c] = classReserved
		}
	}
	return t
}()

// unreserved reports whether Python's quote leaves c as it is.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '.' || c == '-' || c == '~'
}
