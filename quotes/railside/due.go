package railside

import (
	"encoding/json"
	"errors"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/rails"
)

// Settlement tables: the rail outcomes that take effect later, by due time
// and by transaction.
const (
	// tableSettlementsDue holds the rail outcomes that take effect later
	// ("<time>|<tx id>|<payment id>|<reference>" -> the rails.Report as
	// JSON), applied as due work by applySettlementDue.
	tableSettlementsDue = "settlements_due"
	// tableSettlementsByTx indexes the waiting steps by transaction
	// ("<tx id>|<settlements_due key>").
	tableSettlementsByTx = "settlements_by_tx"
)

// Tables are the tables of the rail boundary, for the quotes area to
// declare (engine.AreaDef.Tables): the outcomes waiting for their time, by
// time and by transaction, and the reports applied.
func Tables() []engine.TableDef {
	return []engine.TableDef{{Name: tableSettlementsDue}, {Name: tableSettlementsByTx}, {Name: tableRailReports}}
}

// Due is the due work of the rail boundary, for the quotes area to declare
// (engine.AreaDef.Due): rail outcomes whose time came, each settled in its
// own transaction through Options.Settle.
func Due() engine.DueWork {
	return engine.DueWork{Table: tableSettlementsDue, Apply: applySettlementDue}
}

// applySettlementDue applies a rail outcome whose time came. A stored value
// that does not decode is an error, so the item is retried and then parked
// in the dead letters rather than dropped.
func applySettlementDue(t *engine.Txn, key string, v []byte) (bool, error) {
	var rep rails.Report
	if err := json.Unmarshal(v, &rep); err != nil {
		return false, err
	}
	_, txID := SplitPaymentID(rep.PaymentID)
	if err := t.Delete(tableSettlementsByTx, txID+"|"+key); err != nil && !errors.Is(err, engine.ErrNotFound) {
		return false, err
	}
	return true, slot.Of(t.Handle).Settle(t, rep)
}

// settlementsDue lists the settlement steps of one transaction still
// waiting, by due key (tableSettlementsByTx).
func settlementsDue(t *engine.Txn, txID string) ([]string, error) {
	var keys []string
	err := t.Scan(tableSettlementsByTx, engine.ScanOptions{Prefix: txID + "|"}, func(k string, _ []byte) (bool, error) {
		keys = append(keys, k[len(txID)+1:])
		return true, nil
	})
	return keys, err
}

// CatchUp applies the settlement steps of transaction txID whose due time
// has passed, so that a decision about the transaction is judged by due
// time, not by when the worker last ran. It reports whether steps are still
// waiting in the future.
func CatchUp(t *engine.Txn, txID string) (waiting bool, err error) {
	keys, err := settlementsDue(t, txID)
	if err != nil {
		return false, err
	}
	for _, k := range keys {
		if engine.DueAt(k).After(t.Now) {
			waiting = true
			continue
		}
		v, err := t.Get(tableSettlementsDue, k)
		if errors.Is(err, engine.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		if err := t.Delete(tableSettlementsDue, k); err != nil {
			return false, err
		}
		if _, err := applySettlementDue(t, k, v); err != nil {
			return false, err
		}
	}
	return waiting, nil
}

// Drop removes the settlement steps of transaction txID still waiting: a
// cancelled payment's outcomes never apply.
func Drop(t *engine.Txn, txID string) error {
	due, err := settlementsDue(t, txID)
	if err != nil {
		return err
	}
	for _, k := range due {
		if err := t.Delete(tableSettlementsDue, k); err != nil {
			return err
		}
		if err := t.Delete(tableSettlementsByTx, txID+"|"+k); err != nil {
			return err
		}
	}
	return nil
}
