package pdl

// PlainString is [Scanner.String] that also reports whether the literal
// was plain: no escapes, every byte ASCII (and, as in any JSON string, none
// below the space), so that the literal's text is the string quoted as it
// stands, which a writer may copy without checking it again.
func (s *Scanner) PlainString() (str string, plain, ok bool) {
	s.p.ws()
	start := s.p.pos
	end, plain, ok := s.p.scanStr()
	if !ok {
		return "", false, false
	}
	s.p.pos = end
	return s.p.names.decode(s.p.data[start+1:end-1], plain), plain, true
}
