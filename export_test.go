package payments

import "context"

// Test seams for the external test package (the export_test.go pattern):
// they write records the way the owning area does, so tests of one area can
// set up another's records directly.

// SeedCustomer stores c (with its UMA index entry) and opens its internal
// accounts in currencies.
func (e *Engine) SeedCustomer(ctx context.Context, c Customer, currencies ...string) ([]*InternalAccount, error) {
	var out []*InternalAccount
	err := e.update(ctx, func(t *txn) error {
		if err := insertJSON(t, TableCustomers, c.ID, c); err != nil {
			return err
		}
		if c.UmaAddress != "" {
			if err := t.Insert(TableCustomerUma, c.UmaAddress, []byte(c.ID)); err != nil {
				return err
			}
		}
		var err error
		out, err = t.openInternalAccounts(c.ID, currencies)
		return err
	})
	return out, err
}

// SeedExternalAccount stores a.
func (e *Engine) SeedExternalAccount(ctx context.Context, a ExternalAccount) error {
	return e.update(ctx, func(t *txn) error { return insertJSON(t, TableExternalAccounts, a.ID, a) })
}
