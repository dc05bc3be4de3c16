package payments

import (
	"bytes"
	"encoding/json"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/validate"
)

// checkStateRecords adds an error to fe for every record of a JSON table
// that is not a JSON object of its type.
func checkStateRecords(r *engine.Registry, fe *validate.Errors, table string, recs []StateRecord) {
	d := r.Tables[table]
	if d == nil || d.Record == nil {
		return
	}
	newRecord := d.Record
	for i, sr := range recs {
		field := validate.Index("tables."+table, i)
		v := bytes.TrimSpace(sr.Value)
		decoded := newRecord()
		if len(v) == 0 || v[0] != '{' || json.Unmarshal(v, decoded) != nil {
			fe.Add(field, nil, "%s must be a JSON object of a %s record", field, table)
			continue
		}
		if d.Ix == nil {
			continue
		}
		// Indexed records are kept at their id, which lists rely on: the
		// table's ID, else the record's "id" member.
		var id string
		if d.ID != nil {
			id = d.ID(decoded)
		} else {
			var rec struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(v, &rec) // decoded as an object above
			id = rec.ID
		}
		if id != sr.Key {
			fe.Add(field, nil, "%s must be kept at its id: key %q, id %q", field, sr.Key, id)
		}
	}
}
