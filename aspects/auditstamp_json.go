package aspects

// AppendJSON appends the JSON of a to dst, byte for byte as json.Marshal
// writes it except that <, > and & are not escaped: the encoding of every
// audit stamp of this package's aspects, for other encoders of DataHub's
// records (the emitter's system metadata) to share.
func (a AuditStamp) AppendJSON(dst []byte) []byte {
	dst, _ = a.appendJSON(dst, false) // never fails
	return dst
}
