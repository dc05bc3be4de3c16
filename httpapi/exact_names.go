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
	w := nameWalk{r: jsonx.NewReader(body)}
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

// nameWalk reads a JSON value against the Go type it decodes into, with
// the request scanner's tokenizer, and notes the spans to cut (disjoint,
// start and end offsets) that remove the members exactNames drops, with
// their separating commas.
type nameWalk struct {
	r   jsonx.Reader
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

// value reads the next value, which decodes into a t (nil: into
// anything that keeps members as they are named, or nothing).
func (w *nameWalk) value(t reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t == rawMessage || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(jsonUnmarshaler)) {
		t = nil
	}
	switch w.r.Peek() {
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
		w.r.Take('[')
		if w.r.Take(']') {
			return
		}
		for !w.bad {
			w.value(elem)
			if !w.more(']') {
				return
			}
		}
	default: // a string, a number, true, false, null
		w.bad = w.bad || !w.r.Value()
	}
}

// member is where one member of an object sits: from its name's opening
// quote to the end of its value.
type member struct {
	start, end int
	drop       bool
}

// object reads the next object: the members of a struct (sn), or of a
// map whose values decode into elem.
func (w *nameWalk) object(sn *structNames, elem reflect.Type) {
	w.r.Take('{')
	if w.r.Take('}') {
		return
	}
	var buf [16]member
	members := buf[:0]
	dropped := false
	for !w.bad {
		w.r.Peek() // past the white space before the name
		m := member{start: w.r.Offset()}
		name, ok := w.r.Quoted()
		if !ok || !w.r.Take(':') {
			w.bad = true
			return
		}
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
		m.end = w.r.Offset()
		members = append(members, m)
		if !w.more('}') {
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

// more reads what follows an element or member: a comma (true: another
// follows) or end (false); anything else is not well-formed.
func (w *nameWalk) more(end byte) bool {
	if w.r.Take(',') {
		return true
	}
	w.bad = w.bad || !w.r.Take(end)
	return false
}
