package engine_test

import (
	"testing"
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/stretchr/testify/assert"
)

// TestDeclare_RowsMatchIndexes: a table's rows name every index of the
// table once, with the columns it reads (Lists) or as computed (Kept), and
// only declared columns and indexes; otherwise Declare panics, naming what
// is amiss.
func TestDeclare_RowsMatchIndexes(t *testing.T) {
	type widget struct {
		Owner     string    `json:"owner"`
		CreatedAt time.Time `json:"createdAt"`
	}
	cols := []engine.Column{engine.TextColumn("owner", "owner"), engine.TimeColumn("created_at", "createdAt")}
	declare := func(rows *engine.Rows) func() {
		return func() {
			h := engine.New(engine.Config{})
			h.Declare(engine.AreaDef{Tables: []engine.TableDef{{Name: "widgets", Rows: rows,
				Ix: engine.Indexed("widgets", func(x *widget) time.Time { return x.CreatedAt },
					engine.Every[widget](), engine.Ix("owner", func(x *widget) string { return x.Owner }))}}})
		}
	}
	lists := map[string][]string{engine.IxAll: nil, "owner": {"owner"}}
	assert.NotPanics(t, declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: lists}))
	assert.PanicsWithValue(t, "payments: table widgets: neither Rows.Lists nor Rows.Kept names the index owner",
		declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: map[string][]string{engine.IxAll: nil}}))
	assert.NotPanics(t, declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: map[string][]string{engine.IxAll: nil}, Kept: []string{"owner"}}))
	assert.PanicsWithValue(t, "payments: table widgets: Rows.Lists and Rows.Kept both name the index owner",
		declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: lists, Kept: []string{"owner"}}))
	assert.PanicsWithValue(t, "payments: table widgets: Rows.Kept names color, which is no index",
		declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: lists, Kept: []string{"color"}}))
	assert.PanicsWithValue(t, "payments: table widgets: Rows.Lists names color, which is no index",
		declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: map[string][]string{engine.IxAll: nil, "owner": {"owner"}, "color": nil}}))
	assert.PanicsWithValue(t, "payments: table widgets: the index owner reads color, which is no column",
		declare(&engine.Rows{Columns: cols, Created: "created_at", Lists: map[string][]string{engine.IxAll: nil, "owner": {"color"}}}))
	assert.PanicsWithValue(t, "payments: table widgets: Rows.Created names no time column",
		declare(&engine.Rows{Columns: cols, Created: "owner", Lists: lists}))
}
