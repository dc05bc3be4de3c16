package customers_test

import (
	"testing"

	"github.com/paygrid/payments/customers"
	"github.com/stretchr/testify/assert"
)

// TestStatusMachine checks every pair of verification states: APPROVED and
// REJECTED are final, every other state may move to any
// other state, and staying is always allowed.
func TestStatusMachine(t *testing.T) {
	all := []customers.Status{customers.Unverified, customers.Pending, customers.Approved, customers.Rejected, customers.Hold}
	for _, from := range all {
		for _, to := range all {
			err := from.Check(to)
			if from == to || !from.Final() {
				assert.NoError(t, err, "%s -> %s", from, to)
			} else {
				assert.Error(t, err, "%s -> %s", from, to)
			}
		}
	}
	assert.NoError(t, customers.Status("").Check(customers.Approved), "a new customer may start resolved")
}
