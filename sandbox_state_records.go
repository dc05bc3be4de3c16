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
		if len(v) == 0 || v[0] != '{' || json.Unmarshal(v, newRecord()) != nil {
			fe.Add(field, nil, "%s must be a JSON object of a %s record", field, table)
			continue
		}
		// Indexed records are kept at their id, which lists rely on; a
		// delivery of the event history (event_log) has none of its own and
		// is kept at its event's.
		var rec struct {
			ID    string `json:"id"`
			Event struct {
				ID string `json:"id"`
			} `json:"event"`
		}
		err := json.Unmarshal(v, &rec)
		if rec.ID == "" {
			rec.ID = rec.Event.ID
		}
		if d.Ix != nil && (err != nil || rec.ID != sr.Key) {
			fe.Add(field, nil, "%s must be kept at its id: key %q, id %q", field, sr.Key, rec.ID)
		}
	}
}
