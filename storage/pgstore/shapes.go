package pgstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"

	"github.com/jackc/pgx/v5/pgtype"
)

// A doc that leaves members out (doc.go) often holds nothing else: its
// "~" member, and the objects whose every member a column holds, left
// empty ({"~":"a1b0…","source":{},"destination":{}}). Such a doc is the
// record's shape, the same for every record with the same members, and
// over a hundred bytes of a payment's transaction and quote rows. A shape is
// kept once per record table, in payments_doc_objects with col "~" and
// val its name ("=" and eight characters of the base64url of its
// SHA-256), and a row whose doc is a kept shape holds only the name:
// {"~":"=Ab3dEf9h"}. Reads take the shape back by a subquery of the row's
// select, as they take a kept object (objects.go), and spell the record
// from it as from the doc itself. Shapes are kept as objects are: the
// first time a process writes one, the row holds it whole and the shape
// is kept after the commit (keptObjects.see); a shape kept under its name
// with other bytes (two shapes whose names agree) is never used for this
// one, whose rows then hold it whole. A doc holding any other member (a
// description, a failure reason) is not a shape: its members stay where a
// user's doc->>'name' reads them.

// shapeMark is how a doc that names its shape begins; no other doc does
// (a "~" list starts with a letter or *, and a record that begins with a
// "~" member is written with an empty one before it).
const shapeMark = cutMark + "="

// A doc is kept as a shape when it has from minShape to maxShape bytes:
// naming a shorter one saves too little for the subquery its reads pay.
const (
	minShape = 48
	maxShape = 512
)

// shapeCol is the col of the shapes in payments_doc_objects.
const shapeCol = "~"

var errShape = errors.New("pgstore: a doc names a shape that is not kept")

// shaped returns b with the doc b[start:], just cut, replaced by the name
// of its shape where the store keeps it with these bytes; a shape not
// known yet is noted to be kept after the commit.
func (s *shape) shaped(b []byte, start int) []byte {
	doc := b[start:]
	if s.kept == nil || !s.shapes || len(doc) < minShape || len(doc) > maxShape || !isShape(doc) {
		return b
	}
	name := shapeName(doc)
	key := objectKey{s.sql, shapeCol, name}
	switch kept, ok := s.kept.get(key); {
	case !ok:
		s.kept.see(key, doc)
	case kept == string(doc):
		return append(append(append(b[:start], cutMark...), name...), `"}`...)
	}
	return b
}

// shapeName is the name of the shape doc: "=" and the first 48 bits of
// its SHA-256 in base64url.
func shapeName(doc []byte) string {
	sum := sha256.Sum256(doc)
	var name [9]byte
	name[0] = '='
	base64.RawURLEncoding.Encode(name[1:], sum[:6])
	return string(name[:])
}

// isShape reports whether doc, a doc that leaves members out, holds
// nothing but its "~" member and members that are empty objects.
func isShape(doc []byte) bool {
	q := bytes.IndexByte(doc[len(cutMark):], '"')
	if q < 0 {
		return false
	}
	rest := doc[len(cutMark)+q+1:]
	for len(rest) > 1 {
		// ,"name":{}
		if rest[0] != ',' || len(rest) < 2 || rest[1] != '"' {
			return false
		}
		end := bytes.IndexByte(rest[2:], '"')
		if end < 0 || bytes.IndexByte(rest[2:2+end], '\\') >= 0 {
			return false
		}
		rest = rest[2+end+1:]
		if !bytes.HasPrefix(rest, []byte(":{}")) {
			return false
		}
		rest = rest[3:]
	}
	return string(rest) == "}"
}

// unshaped returns the doc a row's doc stands for: the kept shape it
// names (shape, as stripSQL selects it), or doc itself.
func unshaped(doc []byte, shape pgtype.Text) ([]byte, error) {
	switch {
	case !bytes.HasPrefix(doc, []byte(shapeMark)):
		return doc, nil
	case !shape.Valid:
		return nil, errShape
	}
	return []byte(shape.String), nil
}

// shapeSelect is the select item of the shape a row's doc names, NULL
// for a doc that names none.
func (s *shape) shapeSelect() string {
	row := ident(s.sql) + ".doc"
	return ", CASE WHEN left(" + row + "::text, " + strconv.Itoa(len(shapeMark)) + ") = " + literal(shapeMark) +
		" THEN (SELECT o.obj FROM payments_doc_objects o WHERE o.tbl = " + literal(s.sql) + " AND o.col = " + literal(shapeCol) +
		" AND o.val = " + row + "->>'~') END"
}
