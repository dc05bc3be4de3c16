package cards

import "github.com/paygrid/payments/internal/engine"

// The functions other areas call inside their own transactions
// (ARCHITECTURE.md: cross-area calls take the kernel's transaction). Each
// reads or writes this area's records the way its own operations do.

// Get loads a card in t (NOT_FOUND when absent), as a copy the caller may
// change; other areas (wallets) read cards with it inside their own
// transaction.
func Get(t *engine.Txn, id string) (*Card, error) {
	var c Card
	if err := engine.GetJSON(t, tableCards, id, &c); err != nil {
		return nil, engine.NotFound(err, engine.CodeNotFound, "card", id)
	}
	return &c, nil
}
