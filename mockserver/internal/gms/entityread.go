package gms

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// ReadVersion is the version an item of an OpenAPI batchGet asks for with
// its If-Version-Match header (0, the latest, without one; the header in
// any case, its first spelling in key order when there are several): a
// BadArgument when it is not a number, as Long.parseLong refuses it.
func ReadVersion(h map[string]string) (int64, *Error) {
	v, ok := headerOK(h, HeaderIfVersionMatch)
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, errorf(BadArgument, MsgNumberFormat, Abbreviate(v))
	}
	return n, nil
}

// Removed reports whether the value of a status aspect says the entity is
// soft-deleted ("removed": true); nil (no status) is not. The index counts
// removed documents by the same test.
func Removed(status json.RawMessage) bool { return index.Removed(status) }
