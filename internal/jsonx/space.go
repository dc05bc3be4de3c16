package jsonx

// IsSpace reports whether c is JSON white space: space, tab, line feed or
// carriage return, the only bytes JSON allows between tokens.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the position of the first byte of b at or after i that
// is not JSON white space (len(b) when there is none).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}
