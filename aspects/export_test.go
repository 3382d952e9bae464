package aspects

// SetReflectEncoding makes MarshalJSON take encoding/json's path (on) or
// the generated appendJSON (off), for tests comparing the two.
func SetReflectEncoding(on bool) {
	reflectEncoding = on
}
