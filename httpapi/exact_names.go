package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/paygrid/payments/internal/jsonx"
)

// exactNames returns body without the members that name a field of the
// Go type t (at any depth) only with their case changed: encoding/json
// matches member names to fields case-insensitively, the API matches them
// exactly, as the reference does. Such a member is thus an unknown member,
// and is ignored as every unknown member is: {"lockedCurrencyAmount":5,
// "LOCKEDCURRENCYAMOUNT":1000} asks for 5. body is returned as it is (no
// copy) when it holds no such member, or when it is not well-formed JSON
// (decoding then reports that).
func exactNames(t reflect.Type, body []byte) []byte {
	w := nameWalk{b: body}
	w.value(t)
	if w.bad || len(w.cut) == 0 {
		return body
	}
	slices.SortFunc(w.cut, func(a, b [2]int) int { return a[0] - b[0] })
	out := make([]byte, 0, len(body))
	at := 0
	for _, c := range w.cut {
		out = append(out, body[at:c[0]]...)
		at = c[1]
	}
	return append(out, body[at:]...)
}

// nameWalk reads a JSON value against the Go type it decodes into and
// notes the spans to cut (disjoint, start and end offsets) that remove the
// members exactNames drops, with their separating commas.
type nameWalk struct {
	b   []byte
	i   int
	cut [][2]int
	bad bool // the text is not well-formed JSON
}

// structNames is the exact JSON member names of a struct type, each with
// its field's type (jsonFields's names), kept per type in structNamesOf.
type structNames struct {
	types map[string]reflect.Type
	names []string
}

// structNamesCache maps a struct reflect.Type to its *structNames.
var structNamesCache sync.Map

// structNamesOf returns the member names of struct type t.
func structNamesOf(t reflect.Type) *structNames {
	if v, ok := structNamesCache.Load(t); ok {
		return v.(*structNames)
	}
	sn := &structNames{types: map[string]reflect.Type{}}
	for name, f := range jsonFields(t) {
		sn.types[name] = f.Type
		sn.names = append(sn.names, name)
	}
	v, _ := structNamesCache.LoadOrStore(t, sn)
	return v.(*structNames)
}

// folds reports whether key names one of the fields only with its case
// changed (strings.EqualFold matches every name encoding/json's folding
// does, and a few more, which are unknown members either way).
func (sn *structNames) folds(key string) bool {
	for _, n := range sn.names {
		if strings.EqualFold(n, key) {
			return true
		}
	}
	return false
}

// value reads the value at w.i, which decodes into a t (nil: into
// anything that keeps members as they are named, or nothing).
func (w *nameWalk) value(t reflect.Type) {
	w.i = jsonx.SkipSpace(w.b, w.i)
	if w.i >= len(w.b) {
		w.bad = true
		return
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t == rawMessage || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(jsonUnmarshaler)) {
		t = nil
	}
	switch w.b[w.i] {
	case '{':
		switch {
		case t != nil && t.Kind() == reflect.Struct:
			w.object(structNamesOf(t), nil)
		case t != nil && t.Kind() == reflect.Map:
			w.object(nil, t.Elem())
		default:
			w.object(nil, nil)
		}
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		w.i++
		w.i = jsonx.SkipSpace(w.b, w.i)
		if w.i < len(w.b) && w.b[w.i] == ']' {
			w.i++
			return
		}
		for !w.bad {
			w.value(elem)
			if !w.sep(']') {
				return
			}
		}
	case '"':
		w.str()
	default: // number, true, false, null
		for w.i < len(w.b) && !strings.ContainsRune(",]} \t\n\r", rune(w.b[w.i])) {
			w.i++
		}
	}
}

// member is where one member of an object sits: from its name's opening
// quote to the end of its value.
type member struct {
	start, end int
	drop       bool
}

// object reads the object at w.i: the members of a struct (sn), or of a
// map whose values decode into elem.
func (w *nameWalk) object(sn *structNames, elem reflect.Type) {
	w.i++
	w.i = jsonx.SkipSpace(w.b, w.i)
	if w.i < len(w.b) && w.b[w.i] == '}' {
		w.i++
		return
	}
	var buf [16]member
	members := buf[:0]
	dropped := false
	for !w.bad {
		m := member{start: w.i}
		name := w.str()
		w.i = jsonx.SkipSpace(w.b, w.i)
		if w.bad || w.i >= len(w.b) || w.b[w.i] != ':' {
			w.bad = true
			return
		}
		w.i++
		vt := elem
		if sn != nil {
			if ft, ok := sn.types[string(name)]; ok {
				vt = ft
			} else if key := unquoteName(name); sn.types[key] != nil {
				vt = sn.types[key]
			} else if sn.folds(key) {
				m.drop, dropped = true, true
			}
		}
		w.value(vt)
		m.end = w.i
		members = append(members, m)
		if !w.sep('}') {
			break
		}
	}
	if dropped && !w.bad {
		w.cutMembers(members)
	}
}

// cutMembers notes the spans that remove an object's dropped members: one
// followed by a kept member goes with the comma after it, the ones after
// the last kept member go with the comma before them.
func (w *nameWalk) cutMembers(members []member) {
	last := -1
	for j, m := range members {
		if !m.drop {
			last = j
		}
	}
	for j := 0; j < last; j++ {
		if members[j].drop {
			w.cut = append(w.cut, [2]int{members[j].start, members[j+1].start})
		}
	}
	if last < len(members)-1 {
		start := members[0].start
		if last >= 0 {
			start = members[last].end
		}
		w.cut = append(w.cut, [2]int{start, members[len(members)-1].end})
	}
}

// unquoteName is the member name a string's contents (as written, between
// its quotes) spell.
func unquoteName(name []byte) string {
	if bytes.IndexByte(name, '\\') < 0 {
		return string(name)
	}
	var key string
	_ = json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &key)
	return key
}

// sep reads what follows an element or member: a comma (true, w.i at the
// next one) or end (false, w.i past it).
func (w *nameWalk) sep(end byte) bool {
	w.i = jsonx.SkipSpace(w.b, w.i)
	switch {
	case w.i < len(w.b) && w.b[w.i] == ',':
		w.i++
		w.i = jsonx.SkipSpace(w.b, w.i)
		return true
	case w.i < len(w.b) && w.b[w.i] == end:
		w.i++
	default:
		w.bad = true
	}
	return false
}

// str reads the string at w.i and returns what its quotes enclose, as
// written.
func (w *nameWalk) str() []byte {
	if w.i >= len(w.b) || w.b[w.i] != '"' {
		w.bad = true
		return nil
	}
	start := w.i + 1
	for w.i = start; w.i < len(w.b) && w.b[w.i] != '"'; w.i++ {
		if w.b[w.i] == '\\' {
			w.i++
		}
	}
	if w.i >= len(w.b) {
		w.bad = true
		return nil
	}
	w.i++
	return w.b[start : w.i-1]
}
