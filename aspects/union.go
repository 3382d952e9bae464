package aspects

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// encodeUnion encodes a Pegasus union value: an object with one key, the
// member's fully qualified record name, e.g.
// {"com.linkedin.schema.StringType": {}}.
func encodeUnion(member unionMember) ([]byte, error) {
	if v := reflect.ValueOf(member); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("union member %s is a nil pointer", v.Type())
	}
	key := member.unionKey()
	b, err := marshal(member)
	if err != nil {
		return nil, err
	}
	return marshal(map[string]json.RawMessage{key: b})
}

// decodeUnion splits a Pegasus union object into its one member key and the
// member's JSON.
func decodeUnion(data []byte) (string, json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return "", nil, fmt.Errorf("union is null")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return "", nil, err
	}
	if len(members) != 1 {
		return "", nil, fmt.Errorf("union has %d members, want exactly 1", len(members))
	}
	var key string
	for k := range members {
		key = k
	}
	return key, members[key], nil
}

// unionMember is implemented by every member type of the package's unions.
type unionMember interface {
	unionKey() string
}

// decodeMember decodes raw into a new value of the member of members whose
// union key is key.
func decodeMember[T unionMember](members []T, key string, raw json.RawMessage) (T, error) {
	var zero T
	for _, m := range members {
		if m.unionKey() != key {
			continue
		}
		ptr := reflect.New(reflect.TypeOf(m))
		if err := json.Unmarshal(raw, ptr.Interface()); err != nil {
			return zero, fmt.Errorf("%s: %w", key, err)
		}
		v, ok := ptr.Elem().Interface().(T)
		if !ok {
			return zero, fmt.Errorf("%s: not a union member", key)
		}
		return v, nil
	}
	return zero, fmt.Errorf("unknown union member %q", key)
}
