package jsonx

import "unicode/utf8"

// Limits bound what Scan reads without a finding.
type Limits struct {
	// MaxString is the most characters (runes) a string value may hold.
	MaxString int
	// MaxDepth is the deepest a value may be nested (the scanned value
	// itself is at depth 0). A value nested deeper is one TooDeep finding,
	// and nothing within it is looked into.
	MaxDepth int
}

// Problem is what a Finding found wrong.
type Problem uint8

// The problems Scan finds in a well-formed value.
const (
	// Duplicate is a member whose name (its value, escapes decoded) an
	// earlier member of its object has.
	Duplicate Problem = iota + 1
	// BadName is a member whose name is not valid UTF-8.
	BadName
	// BadUTF8 is a string value that is not valid UTF-8.
	BadUTF8
	// TooLong is a string value of more than Limits.MaxString characters.
	TooLong
	// TooDeep is a value nested deeper than Limits.MaxDepth.
	TooDeep
)

// Step is one step of a path into a JSON value: to a member of an object
// (Name, its name as written, quotes included) or to an element of an
// array (Name nil, Index).
type Step struct {
	Name  []byte
	Index int
}

// Key is the name of the member s steps to, escapes decoded as
// encoding/json decodes them and other bytes as written, invalid UTF-8
// included ("" for an element).
func (s Step) Key() string {
	if s.Name == nil {
		return ""
	}
	return jsonString(s.Name).String()
}

// Finding is one thing Scan found wrong: what, and where (the steps from
// the scanned value to the member, element or string concerned; none for
// the value itself). Its names are part of the scanned text.
type Finding struct {
	Problem Problem
	Path    []Step
}

// Scan reports whether raw is one well-formed JSON value, white space
// around it allowed, exactly as json.Valid does (FuzzScan compares them),
// and appends to found, in the order they appear, its repeated member
// names, the strings that are not valid UTF-8 and the values past lim.
// found is complete only when Scan reports true.
//
// Scan is on every request with a body, so it reads raw once, left to
// right, checking its syntax as it goes (encoding/json's scanner calls a
// state function per byte, and a second pass cost as much again), and
// allocates only for what it finds: a path is kept as steps into raw and
// copied only into a finding.
func Scan(raw []byte, lim Limits, found []Finding) ([]Finding, bool) {
	var steps [16]Step
	s := scanner{Reader: NewReader(raw), lim: lim, found: found}
	ok := s.value(steps[:0], 0, true) && s.AtEnd()
	return s.found, ok
}

// scanner is Scan's state: the reader and the findings so far. Its reads
// take the path to the value they read (passed down, not kept in the
// scanner, so that its steps stay on the stack) and report whether what
// they read is well-formed; report is false while they read a value
// nested deeper than lim.MaxDepth (reported once, at its path).
type scanner struct {
	Reader
	lim   Limits
	found []Finding
}

// find records p at path.
func (s *scanner) find(p Problem, path []Step) {
	s.found = append(s.found, Finding{Problem: p, Path: append([]Step(nil), path...)})
}

// maxNesting is encoding/json's limit on nested objects and arrays.
const maxNesting = 10000

// value reads the value at s.i (after any space), at path, nested depth
// deep.
func (s *scanner) value(path []Step, depth int, report bool) bool {
	c := s.next()
	if (c == '{' || c == '[') && depth >= maxNesting {
		return false
	}
	if c != 0 && report && depth > s.lim.MaxDepth {
		s.find(TooDeep, path)
		report = false
	}
	switch {
	case c == '{':
		return s.object(path, depth, report)
	case c == '[':
		return s.array(path, depth, report)
	case c == '"':
		start := s.i
		if !s.str() {
			return false
		}
		v := jsonString(s.b[start:s.i])
		switch {
		case !report:
		case !utf8.Valid(v):
			s.find(BadUTF8, path)
		case len(v)-2 <= s.lim.MaxString: // no more characters than bytes
		case utf8.RuneCountInString(v.String()) > s.lim.MaxString:
			s.find(TooLong, path)
		}
		return true
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return false
}

// array reads the array at s.i, at path.
func (s *scanner) array(path []Step, depth int, report bool) bool {
	s.i++
	if s.next() == ']' {
		s.i++
		return true
	}
	if report {
		path = append(path, Step{})
	}
	for n := 0; ; n++ {
		if report {
			path[len(path)-1].Index = n
		}
		if !s.value(path, depth+1, report) {
			return false
		}
		if end, ok := s.sep(']'); end || !ok {
			return ok
		}
	}
}

// smallObject is how many member names an object's duplicate check
// compares one by one; a larger object's names go into a map.
const smallObject = 16

// object reads the object at s.i, at path.
func (s *scanner) object(path []Step, depth int, report bool) bool {
	s.i++
	if s.next() == '}' {
		s.i++
		return true
	}
	if report {
		path = append(path, Step{})
	}
	var buf [smallObject]jsonString
	names := buf[:0]
	var many map[string]bool
	for {
		if s.next() != '"' {
			return false
		}
		start := s.i // the name's opening quote, past any white space
		if !s.str() {
			return false
		}
		if report {
			name := jsonString(s.b[start:s.i])
			path[len(path)-1].Name = name
			switch {
			case !utf8.Valid(name):
				s.find(BadName, path)
			case seenName(names, many, name):
				s.find(Duplicate, path)
			}
			if len(names) < smallObject {
				names = append(names, name)
			} else {
				if many == nil {
					many = make(map[string]bool, 2*smallObject)
					for _, n := range names {
						many[n.String()] = true
					}
				}
				many[name.String()] = true
			}
		}
		if s.next() != ':' {
			return false
		}
		s.i++
		if !s.value(path, depth+1, report) {
			return false
		}
		if end, ok := s.sep('}'); end || !ok {
			return ok
		}
	}
}

// seenName reports whether name is among names or in many.
func seenName(names []jsonString, many map[string]bool, name jsonString) bool {
	if many != nil {
		return many[name.String()]
	}
	for _, n := range names {
		if n.equal(name) {
			return true
		}
	}
	return false
}
